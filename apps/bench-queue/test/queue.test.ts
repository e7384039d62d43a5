import { type CellExecutor, type CellRecord, expandCells, failedRecord, runStudy } from '@fb/bench';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueExecutor } from '../src/executor.js';
import { codeFingerprint, jobIdOf } from '../src/jobs.js';
import { clearQueue } from '../src/queue.js';
import { claimRun } from '../src/run.js';
import { type CellJob, type JobPayload, openJob, signJob, signResult } from '../src/signed.js';
import { startQueueWorker } from '../src/worker.js';
import {
  byKey,
  cleanTempDirs,
  hasRedis,
  killWorkers,
  quiet,
  secret,
  spawnWorkers,
  startRedis,
  storedRecords,
  type TestRedis,
  tempDir,
  testStudy,
  threadUrl,
  until,
} from './helpers.js';

/** A finished record of `cell` with no findings. */
const done = (cell: JobPayload['cell']): CellRecord => ({
  ...failedRecord(cell, '', 0),
  status: 'done',
  error: null,
  metrics: { tsn: 0, dsn: 0, sur: 0, dss: null, pairs: 0, queries: 0, distinctQueries: 0 },
});

/** How many times each job became active, from the queue's event stream. */
async function activations(redis: TestRedis, queue: string): Promise<Map<string, number>> {
  const client = new Redis(redis.connection);
  const entries = await client.xrange(`bull:${queue}:events`, '-', '+');
  client.disconnect();
  const counts = new Map<string, number>();
  for (const [, fields] of entries) {
    const f = Object.fromEntries(fields.flatMap((v, i) => (i % 2 ? [] : [[v, fields[i + 1]]])));
    if (f.event === 'active') counts.set(f.jobId!, (counts.get(f.jobId!) ?? 0) + 1);
  }
  return counts;
}

describe.skipIf(!hasRedis)('queue executor and workers (needs redis-server on the PATH)', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    killWorkers();
    await redis?.stop();
    cleanTempDirs();
  });

  it('runs a study on two worker processes with the records of the local pool, each cell once', async () => {
    const study = testStudy();
    const local = tempDir();
    await runStudy(study, { outDir: local, workers: 2, report: false, progress: quiet });

    const workers = spawnWorkers(redis.url, 'same', 2);
    const run = queueExecutor({ connection: redis.connection, secret, queue: 'same' });
    const started: string[] = [];
    const ended: string[] = [];
    const finished: string[] = [];
    const progressed = new Set<string>();
    let writing = false;
    let overlapped = false;
    const executor: CellExecutor = (cells, opts, events) =>
      run(cells, opts, {
        onStart: (cell) => started.push(cell.key),
        onEnd: (cell) => ended.push(cell.key),
        onProgress: (cell, p) => p.key === cell.key && progressed.add(cell.key),
        onFinish: async (record, cell) => {
          overlapped ||= writing;
          writing = true;
          await events.onFinish(record, cell);
          writing = false;
          finished.push(cell.key);
        },
      });
    const remote = tempDir();
    const outcome = await runStudy(study, { outDir: remote, executor, report: false, progress: quiet });
    expect(await workers.stop()).toEqual([0, 0]);

    const keys = (await expandCells(study)).map((c) => c.key).sort();
    expect(outcome).toMatchObject({ cells: 8, ran: 8, failed: 4 });
    for (const calls of [started, ended, finished]) expect(calls.slice().sort()).toEqual(keys);
    expect(overlapped).toBe(false);
    // Cells that ran reported their progress from the workers; the four that threw at once did not.
    const ran = (await storedRecords(local)).filter((r) => r.status === 'done').map((r) => r.key);
    expect([...progressed].sort()).toEqual(ran.sort());
    const stored = await storedRecords(remote);
    expect(byKey(stored)).toEqual(byKey(await storedRecords(local)));
    const failed = stored.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.dataset.label)).toEqual(Array(4).fill('otherAttributes=2, granularity=3'));
    expect(failed[0]!.error).toMatch(/^OptionsError: granularity 3 exceeds/);
    // Stored jobs are removed from Redis.
    const queue = new Queue('same', { connection: redis.connection });
    expect(await queue.getJobCountByTypes('completed', 'failed', 'waiting', 'active')).toBe(0);
    await queue.close();
  });

  it('a coordinator stopped mid-study loses nothing: the rerun stores the rest, and no cell runs twice', async () => {
    const study = testStudy();
    const outDir = tempDir();
    const connection = redis.connection;
    const workers = spawnWorkers(redis.url, 'resume', 2);
    const controller = new AbortController();
    const storedKeys: string[] = [];
    const first = await runStudy(study, {
      outDir,
      executor: queueExecutor({ connection, secret, queue: 'resume' }),
      signal: controller.signal,
      report: false,
      progress: quiet,
      onStored: (r) => {
        storedKeys.push(r.key);
        if (storedKeys.length === 2) controller.abort();
      },
    });
    // The abort came in the second write: later results were left in Redis.
    expect(first.ran).toBe(2);
    expect(storedKeys).toHaveLength(2);
    // With no coordinator listening, the workers finish the queued cells; their results wait in Redis.
    const queue = new Queue('resume', { connection });
    await until(async () => (await queue.getJobCountByTypes('waiting', 'active', 'prioritized')) === 0);
    expect(await queue.getJobCountByTypes('completed', 'failed')).toBe(8 - first.ran);

    const second = await runStudy(study, {
      outDir,
      executor: queueExecutor({ connection, secret, queue: 'resume' }),
      report: false,
      progress: quiet,
      onStored: (r) => storedKeys.push(r.key),
    });
    expect(second).toMatchObject({ skipped: first.ran, ran: 8 - first.ran });
    const keys = (await expandCells(study)).map((c) => c.key).sort();
    expect(storedKeys.slice().sort()).toEqual(keys);
    expect((await storedRecords(outDir)).map((r) => r.key).sort()).toEqual(keys);
    const runs = await activations(redis, 'resume');
    expect([...runs.keys()].sort()).toEqual(keys.map((k) => `cell-${k}`));
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(await queue.getJobCountByTypes('completed', 'failed')).toBe(0);
    await queue.close();
    expect(await workers.stop()).toEqual([0, 0]);
  });

  it('a cell overrunning at the coordinator is stored as failed; its late result is ignored', async () => {
    const [slow, quick] = await expandCells(testStudy());
    const connection = redis.connection;
    let finishSlow!: () => void;
    const slowGate = new Promise<void>((r) => (finishSlow = r));
    // A stand-in for a worker that stops answering: the slow cell returns only after its overrun.
    const worker = new Worker<CellJob>(
      'overrun',
      async (job) => {
        const { cell } = openJob(secret, job.id!, job.data);
        if (cell.key === slow!.key) await slowGate;
        return signResult(secret, job.id!, done(cell));
      },
      { connection, concurrency: 1 },
    );
    const records: CellRecord[] = [];
    const opts = { workers: 1, cellTimeoutSeconds: 1, workerUrl: threadUrl };
    const run = queueExecutor({ connection, secret, queue: 'overrun', checkSeconds: 0.2 });
    await run([slow!, quick!], opts, {
      onFinish: (record) => {
        records.push(record);
        if (record.key === slow!.key) finishSlow();
      },
    });
    expect(records.map((r) => [r.key, r.status, r.error])).toEqual([
      [slow!.key, 'failed', 'overrun: still running after 1 s'],
      [quick!.key, 'done', null],
    ]);
    // The late result is in Redis now; a rerun of the cell does not take it either.
    const queue = new Queue('overrun', { connection });
    await until(async () => (await queue.getJobState(jobIdOf(slow!))) === 'completed');
    const again: CellRecord[] = [];
    await run([slow!], opts, { onFinish: (r) => void again.push(r) });
    expect(again.map((r) => r.error)).toEqual([expect.stringMatching(/^overrun/)]);
    await worker.close();
    await queue.close();
  });

  /** A stand-in queue worker: each job's record comes from `answer` (throwing fails the job). */
  function standIn(queue: string, answer: (cell: JobPayload['cell']) => CellRecord) {
    return new Worker<CellJob>(
      queue,
      async (job) => signResult(secret, job.id!, answer(openJob(secret, job.id!, job.data).cell)),
      { connection: redis.connection, concurrency: 1 },
    );
  }
  /** A job as the coordinator of the queue's current run (see `claimRun`) signs it. */
  const signed = async (queue: string, cell: JobPayload['cell'], code = codeFingerprint()) => {
    const run = await claimRun(redis.connection, queue, secret, code, () => {});
    return signJob(secret, jobIdOf(cell), {
      run,
      expiresAt: Date.now() + 3_600_000,
      cell,
      cellTimeoutSeconds: 60,
      code,
    });
  };

  const opts = { workers: 1, cellTimeoutSeconds: 60, workerUrl: threadUrl };

  it('a job left failed by an earlier run is stored as that failure, or run again with retryFailed', async () => {
    const connection = redis.connection;
    const [cell] = await expandCells(testStudy());
    const queue = new Queue('retry', { connection });
    let attempts = 0;
    const worker = standIn('retry', (c) => {
      if (++attempts === 1) throw new Error('first attempt breaks');
      return done(c);
    });
    const leaveFailed = async () => {
      attempts = 0;
      await queue.add('cell', await signed('retry', cell!), { jobId: jobIdOf(cell!) });
      await until(async () => (await queue.getJobState(jobIdOf(cell!))) === 'failed');
    };

    await leaveFailed();
    const plain: CellRecord[] = [];
    await queueExecutor({ connection, secret, queue: 'retry', checkSeconds: 0.2 })([cell!], opts, {
      onFinish: (r) => void plain.push(r),
    });
    expect(plain.map((r) => [r.status, r.error])).toEqual([['failed', 'first attempt breaks']]);
    expect(attempts).toBe(1);

    await leaveFailed();
    const retried: CellRecord[] = [];
    await queueExecutor({ connection, secret, queue: 'retry', checkSeconds: 0.2, retryFailed: true })(
      [cell!],
      opts,
      {
        onFinish: (r) => void retried.push(r),
      },
    );
    expect(retried.map((r) => [r.status, r.error])).toEqual([['done', null]]);
    expect(attempts).toBe(2);
    await worker.close();
    await queue.close();
  });

  it('clearing the queue (--fresh) drops the results of an earlier run', async () => {
    const connection = redis.connection;
    const [cell] = await expandCells(testStudy());
    const queue = new Queue('fresh', { connection });
    const stale = standIn('fresh', (c) => failedRecord(c, 'stale result', 0));
    await queue.add('cell', await signed('fresh', cell!), { jobId: jobIdOf(cell!) });
    await until(async () => (await queue.getJobState(jobIdOf(cell!))) === 'completed');
    await stale.close();

    await clearQueue(connection, 'fresh');
    expect(await queue.getJobState(jobIdOf(cell!))).toBe('unknown');
    const worker = standIn('fresh', done);
    const records: CellRecord[] = [];
    await queueExecutor({ connection, secret, queue: 'fresh', checkSeconds: 0.2 })([cell!], opts, {
      onFinish: (r) => void records.push(r),
    });
    expect(records.map((r) => [r.status, r.error])).toEqual([['done', null]]);
    await worker.close();
    await queue.close();
  });

  it('a worker hands its running cell back to the queue on a forced stop', async () => {
    const connection = redis.connection;
    const queue = new Queue('release', { connection });
    // A cell that would run for 20 s.
    const [cell] = await expandCells(
      testStudy({
        methods: [
          {
            label: 'long',
            method: 'aequitas',
            options: { strategy: 'random', globalIterations: 1e6, localIterations: 1e6 },
          },
        ],
        budget: { maxSeconds: 20 },
      }),
    );
    const worker = await startQueueWorker({
      connection,
      secret,
      queue: 'release',
      concurrency: 1,
      threadUrl,
    });
    const long = jobIdOf(cell!);
    await queue.add('long', await signed('release', cell!), { jobId: long });
    await until(async () => (await queue.getJobState(long)) === 'active');
    await worker.close({ release: true });
    expect(await worker.stopped).toBeNull();
    expect(await queue.getJobState(long)).toBe('waiting');
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('a worker whose code differs from the coordinator’s stops and leaves the cell queued', async () => {
    const connection = redis.connection;
    const queue = new Queue('mismatch', { connection });
    const [cell] = await expandCells(testStudy());
    await queue.add('cell', await signed('mismatch', cell!, 'another-build'), { jobId: jobIdOf(cell!) });
    const worker = await startQueueWorker({
      connection,
      secret,
      queue: 'mismatch',
      concurrency: 1,
      threadUrl,
    });
    expect(await worker.stopped).toMatch(/code differs from the coordinator's/);
    expect(await queue.getJobState(jobIdOf(cell!))).toBe('waiting');
    await queue.close();
  });
});
