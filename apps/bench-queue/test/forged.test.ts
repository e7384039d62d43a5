import { createHmac } from 'node:crypto';
import { type Cell, type CellRecord, expandCells, failedRecord, runStudy } from '@fb/bench';
import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueExecutor } from '../src/executor.js';
import { codeFingerprint, jobIdOf } from '../src/jobs.js';
import { connectRedis, RedisUnreachableError } from '../src/redis.js';
import { claimRun } from '../src/run.js';
import { type CellJob, type JobPayload, signJob, signResult } from '../src/signed.js';
import { startQueueWorker } from '../src/worker.js';
import {
  byKey,
  cleanTempDirs,
  hasRedis,
  quiet,
  secret,
  startRedis,
  storedRecords,
  type TestRedis,
  tempDir,
  testStudy,
  threadUrl,
  until,
} from './helpers.js';

describe.skipIf(!hasRedis)('a queue whose Redis others can write (needs redis-server)', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
    cleanTempDirs();
  });

  it('forged results are refused and their cells run again; only signed records are stored', async () => {
    const study = testStudy();
    const local = tempDir();
    await runStudy(study, { outDir: local, workers: 1, report: false, progress: quiet });
    const connection = redis.connection;
    // A rogue worker without the secret answers every job first, each time with another forgery.
    const forgeries: ((job: Job<CellJob>) => unknown)[] = [
      // The record a worker used to return, unsigned, with a made-up finding count.
      (job) => ({ ...doneRecord(job), metrics: { dsn: 999 } }),
      // A record of the key alone.
      (job) => ({ key: JSON.parse(job.data.payload).cell.key }),
      // Signed, but with a guessed secret.
      (job) => signResult('a guessed secret of sufficient length!', job.id!, doneRecord(job)),
      // A signature copied from another job's payload does not match this one.
      (job) => ({ payload: JSON.stringify(doneRecord(job)), mac: createHmac('sha256', 'x').digest('hex') }),
    ];
    let forged = 0;
    const rogue = new Worker<CellJob>('forged', async (job) => forgeries[forged++ % forgeries.length]!(job), {
      connection,
      concurrency: 1,
    });
    const refusals: string[] = [];
    let real: Awaited<ReturnType<typeof startQueueWorker>> | null = null;
    const remote = tempDir();
    const outcome = await runStudy(study, {
      outDir: remote,
      report: false,
      progress: quiet,
      executor: queueExecutor({
        connection,
        secret,
        queue: 'forged',
        checkSeconds: 0.2,
        onRejected: (_cell, why) => {
          refusals.push(why);
          // Once every cell has been forged at least once, the rogue leaves and a real worker comes.
          if (refusals.length === 8 && !real) {
            void rogue.close().then(async () => {
              real = await startQueueWorker({
                connection,
                secret,
                queue: 'forged',
                concurrency: 1,
                threadUrl,
              });
            });
          }
        },
      }),
    });
    await until(() => real !== null);
    await real!.close();
    expect(forged).toBeGreaterThanOrEqual(8);
    expect(refusals.length).toBeGreaterThanOrEqual(8);
    expect(refusals.join('\n')).toMatch(/is not signed/);
    expect(refusals.join('\n')).toMatch(/signature that does not match the queue secret/);
    expect(outcome).toMatchObject({ cells: 8, ran: 8 });
    const stored = await storedRecords(remote);
    expect(stored.some((r) => r.metrics?.dsn === 999)).toBe(false);
    expect(byKey(stored)).toEqual(byKey(await storedRecords(local)));
  });

  it('a job not signed by the coordinator fails unopened and the worker goes on', async () => {
    const connection = redis.connection;
    const queue = new Queue('unsigned', { connection });
    const [cell] = await expandCells(testStudy());
    const rejected: string[] = [];
    const run = await claimRun(connection, 'unsigned', secret, codeFingerprint(), () => {});
    const worker = await startQueueWorker({
      connection,
      secret,
      queue: 'unsigned',
      concurrency: 1,
      threadUrl,
      onRejected: (_job, why) => rejected.push(why),
    });
    // The job that used to stop every worker: a cell without the code fingerprint, unsigned.
    await queue.add('bare', { cell } as never, { jobId: 'bare' });
    // Signed with another secret, and a signed job moved under another cell's id.
    await queue.add(
      'other',
      signJob('another secret of thirty-two chars!!', jobIdOf(cell!), job(cell!, run)),
      {
        jobId: jobIdOf(cell!),
      },
    );
    await queue.add('moved', signJob(secret, jobIdOf(cell!), job(cell!, run)), { jobId: 'cell-elsewhere' });
    for (const id of ['bare', jobIdOf(cell!), 'cell-elsewhere']) {
      await until(async () => (await queue.getJobState(id)) === 'failed');
      expect((await queue.getJob(id))!.failedReason).toMatch(/^rejected: /);
    }
    expect(rejected).toHaveLength(3);
    // Still working: a job the coordinator signed runs.
    await queue.obliterate({ force: true });
    await queue.add('good', signJob(secret, jobIdOf(cell!), job(cell!, run)), { jobId: jobIdOf(cell!) });
    await until(async () => (await queue.getJobState(jobIdOf(cell!))) === 'completed', 60);
    await worker.close();
    expect(await worker.stopped).toBeNull();
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('a replayed, foreign or expired job is refused by name, unrun, and the worker goes on', async () => {
    const connection = redis.connection;
    const queue = new Queue('replay', { connection });
    const [a, b, c] = await expandCells(testStudy());
    const run = await claimRun(connection, 'replay', secret, codeFingerprint(), () => {});
    const rejected: string[] = [];
    const ran: string[] = [];
    const worker = await startQueueWorker({
      connection,
      secret,
      queue: 'replay',
      concurrency: 1,
      threadUrl,
      onRejected: (_job, why) => rejected.push(why),
      onCell: (cell) => ran.push(cell.key),
    });
    // A job of an earlier run, signed as its coordinator signed it; one of this run but expired; one
    // signed with another secret.
    await queue.add('old', signJob(secret, jobIdOf(a!), job(a!, 'an-earlier-run')), { jobId: jobIdOf(a!) });
    await queue.add('late', signJob(secret, jobIdOf(b!), job(b!, run, { expiresAt: Date.now() - 1000 })), {
      jobId: jobIdOf(b!),
    });
    await queue.add('foreign', signJob('another secret of thirty-two chars!!', jobIdOf(c!), job(c!, run)), {
      jobId: jobIdOf(c!),
    });
    const reasons: string[] = [];
    for (const cell of [a!, b!, c!]) {
      await until(async () => (await queue.getJobState(jobIdOf(cell))) === 'failed');
      reasons.push((await queue.getJob(jobIdOf(cell)))!.failedReason);
    }
    expect(reasons).toEqual([
      expect.stringMatching(/^rejected: ReplayedJobError: .* of run an-earlier-run, not of the current run/),
      expect.stringMatching(/^rejected: ExpiredJobError: .* expired at /),
      expect.stringMatching(/^rejected: ForeignJobError: .* does not match the queue secret/),
    ]);
    expect(rejected).toHaveLength(3);
    expect(ran).toEqual([]);
    await queue.obliterate({ force: true });
    // Still working: a job of the current run runs.
    await queue.add('good', signJob(secret, jobIdOf(a!), job(a!, run)), { jobId: jobIdOf(a!) });
    await until(async () => (await queue.getJobState(jobIdOf(a!))) === 'completed', 60);
    await worker.close();
    expect(await worker.stopped).toBeNull();
    expect(ran).toEqual([a!.key]);
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('the coordinator stores no result of a replayed job, and names refusals when a cell gets none', async () => {
    const connection = redis.connection;
    const study = testStudy();
    const [cell] = await expandCells(study);
    const local = tempDir();
    const outcome = await runStudy(study, { outDir: local, workers: 1, report: false, progress: quiet });
    expect(outcome).toMatchObject({ ran: 8 });
    const truth = (await storedRecords(local)).find((r) => r.key === cell!.key);
    // A finished job of an earlier run, its result signed: replayed into this run's queue.
    const queue = new Queue('replayed', { connection });
    const forged = { ...doneRecordOf(cell!), metrics: { ...truth!.metrics!, dsn: 999 } };
    const replayer = new Worker<CellJob>('replayed', async (j) => signResult(secret, j.id!, forged), {
      connection,
      concurrency: 1,
    });
    await queue.add('old', signJob(secret, jobIdOf(cell!), job(cell!, 'an-earlier-run')), {
      jobId: jobIdOf(cell!),
    });
    await until(async () => (await queue.getJobState(jobIdOf(cell!))) === 'completed');
    await replayer.close();
    const real = await startQueueWorker({ connection, secret, queue: 'replayed', concurrency: 1, threadUrl });
    const refusals: string[] = [];
    const records: CellRecord[] = [];
    const opts = { workers: 1, cellTimeoutSeconds: 60, workerUrl: threadUrl };
    await queueExecutor({
      connection,
      secret,
      queue: 'replayed',
      checkSeconds: 0.2,
      onRejected: (_c, why) => refusals.push(why),
    })([cell!], opts, { onFinish: (r) => void records.push(r) });
    await real.close();
    expect(refusals).toEqual([expect.stringMatching(/^ReplayedJobError: .* of run an-earlier-run/)]);
    expect(records.map((r) => [r.status, r.metrics?.dsn])).toEqual([['done', truth!.metrics!.dsn]]);

    // Workers that refuse every job of the cell (as they refuse expired ones): the cell is signed
    // again, then stored failed naming the refusals, not as an overrun.
    await queue.obliterate({ force: true });
    let refused = 0;
    const refusing = new Worker<CellJob>(
      'expiring',
      async () => {
        refused++;
        throw new UnrecoverableError('rejected: ExpiredJobError: job expired before it was taken');
      },
      { connection, concurrency: 1 },
    );
    const failed: CellRecord[] = [];
    await queueExecutor({
      connection,
      secret,
      queue: 'expiring',
      checkSeconds: 0.2,
      onRejected: () => {},
    })([cell!], opts, { onFinish: (r) => void failed.push(r) });
    await refusing.close();
    expect(refused).toBe(5);
    expect(failed.map((r) => r.status)).toEqual(['failed']);
    expect(failed[0]!.error).toMatch(/^refused by workers 5 times, unrun \(last: ExpiredJobError: /);
    await queue.close();
  });

  it('a Redis with AUTH is reached with the password in the URL, and refused without it', async () => {
    const guarded = await startRedis('a password with spaces & symbols');
    try {
      expect(guarded.url).toMatch(/\?password=/);
      const bare = guarded.url.replace(/\?.*$/, '');
      const error = await connectRedis(bare).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedisUnreachableError);
      expect((error as Error).message).toMatch(/NOAUTH/);
      const wrong = await connectRedis(`${bare}?password=wrong`).catch((e: unknown) => e);
      expect(wrong).toBeInstanceOf(RedisUnreachableError);
      expect((wrong as Error).message).not.toMatch(/wrong/);
    } finally {
      await guarded.stop();
    }
  });
});

/** A job of `run` for `cell`, expiring in an hour unless `over` says otherwise. */
function job(cell: Cell, run: string, over: Partial<JobPayload> = {}): JobPayload {
  return {
    run,
    expiresAt: Date.now() + 3_600_000,
    cell,
    cellTimeoutSeconds: 60,
    code: codeFingerprint(),
    ...over,
  };
}

function doneRecord(j: Job<CellJob>): CellRecord {
  return doneRecordOf(JSON.parse(j.data.payload).cell);
}

function doneRecordOf(cell: Cell): CellRecord {
  return {
    ...failedRecord(cell, '', 0),
    status: 'done',
    error: null,
    metrics: { tsn: 0, dsn: 0, sur: 0, dss: null, pairs: 0, queries: 0, distinctQueries: 0 },
  };
}
