import { type Cell, type CellExecutor, type CellRecord, failedRecord, type PoolEvents } from '@fb/bench';
import { type Job, Queue, QueueEvents, type RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { type CellJob, type CellProgress, codeFingerprint, jobIdOf } from './jobs.js';
import { claimRun } from './run.js';
import { openJob, openResult, RejectedError, type SignedResult, signJob } from './signed.js';

export interface QueueExecutorOptions {
  connection: RedisOptions;
  queue: string;
  /** The secret shared with the workers (see `queueSecret`): jobs are signed, results checked with it. */
  secret: string;
  /**
   * Called when a job or result in Redis is refused (not signed with the secret, or ill-formed): the
   * cell's job is replaced and the cell runs again. Default: a line on stderr.
   */
  onRejected?(cell: Cell, reason: string): void;
  /**
   * A cell whose job failed in an earlier run whose coordinator stopped before storing it is run
   * again (default: its failure is stored, like any other failed cell).
   */
  retryFailed?: boolean;
  /** Seconds between reads of the unfinished jobs' states, the backstop for missed events (default 15). */
  checkSeconds?: number;
  /**
   * Seconds a job may wait to be taken (default one day): a worker refuses it after that, and this
   * coordinator signs it again.
   */
  jobTtlSeconds?: number;
}

/** Refusals by workers of one cell's jobs after which the cell is stored as failed, naming them. */
const MAX_WORKER_REFUSALS = 5;

/** A job a worker refused unrun fails with this prefix. */
const REFUSED = 'rejected: ';

type CellQueue = Queue<CellJob, SignedResult>;

interface Pending {
  cell: Cell;
  started: boolean;
  timer: NodeJS.Timeout | null;
  /** Jobs or results of this cell refused so far, here or by workers, and the last reason. */
  refused: number;
  workerRefusals: number;
  lastRefusal: string;
}

/** The id of the last event in the queue's stream, so that listening starts right after it. */
async function lastEventId(connection: RedisOptions, key: string): Promise<string> {
  const client = new Redis(connection);
  try {
    const [last] = await client.xrevrange(key, '+', '-', 'COUNT', 1);
    return last?.[0] ?? '0';
  } finally {
    client.disconnect();
  }
}

const overrun = (seconds: number) => `overrun: still running after ${seconds} s`;

/** Why a cell got no result in time: an overrun, or only results and jobs that were refused. */
const timedOut = (p: Pending, seconds: number) =>
  p.refused > 0
    ? `refused: no result that could be accepted within ${seconds} s; ${p.refused} refused (last: ${p.lastRefusal})`
    : overrun(seconds);

/**
 * The record of a finished job; a result that took longer than the timeout counts as an overrun.
 * Throws `RejectedError` for a job this coordinator did not sign or a result no worker signed.
 */
function recordOf(
  job: Job<CellJob, SignedResult>,
  cell: Cell,
  state: 'completed' | 'failed',
  secret: string,
  run: string,
): CellRecord {
  // A job of another run, or one taken after its expiry, is refused like a forged one.
  const { cellTimeoutSeconds } = openJob(secret, job.id!, job.data, {
    run,
    now: job.processedOn ?? job.timestamp,
  });
  const wall = job.finishedOn && job.processedOn ? (job.finishedOn - job.processedOn) / 1000 : 0;
  if (state === 'failed') return failedRecord(cell, String(job.failedReason), wall);
  const record = openResult(secret, cell, job.returnvalue);
  return wall > cellTimeoutSeconds ? failedRecord(cell, overrun(cellTimeoutSeconds), wall) : record;
}

/**
 * Runs cells on queue workers, wherever they are: each cell is a BullMQ job whose result comes back
 * to this process, which alone writes the store.
 *
 * Results are read from the job itself, which keeps its return value in Redis until the cell is stored
 * here (the job is removed only after `onFinish`). A coordinator killed mid-study therefore loses
 * nothing: the next run finds the jobs of its unstored cells still waiting, running or finished, and
 * takes each as it is, so every cell runs once and is stored once. Queue events (one stream, read
 * through one connection for any number of cells) only say when to look; a periodic read of the
 * unfinished jobs catches anything they miss, and enqueues again a job that vanished from Redis.
 *
 * The cell timeout is counted from when a worker takes the job; at the timeout the cell is recorded
 * as failed and a later result is ignored, now and in later runs (the worker also stops the cell at
 * its own timeout). Aborting stops at once, like a kill: only the write under way completes; the other
 * jobs stay in Redis, running or finished, and the next run takes their results.
 */
export function queueExecutor(options: QueueExecutorOptions): CellExecutor {
  return async (cells, opts, events) => {
    if (opts.signal?.aborted || cells.length === 0) return;
    const { connection } = options;
    const queue: CellQueue = new Queue(options.queue, { connection });
    queue.on('error', () => {});
    const from = await lastEventId(connection, queue.keys.events!);
    const queueEvents = new QueueEvents(options.queue, { connection, lastEventId: from, autorun: false });
    queueEvents.on('error', () => {});
    const runId = await claimRun(connection, options.queue, options.secret, codeFingerprint(), (why) =>
      process.stderr.write(`refused from Redis: ${why}\n`),
    );
    try {
      await run(queue, queueEvents, cells, opts, events, options, runId);
    } finally {
      await queueEvents.close();
      await queue.close();
    }
  };
}

async function run(
  queue: CellQueue,
  queueEvents: QueueEvents,
  cells: readonly Cell[],
  opts: Parameters<CellExecutor>[1],
  events: PoolEvents,
  options: QueueExecutorOptions,
  runId: string,
): Promise<void> {
  const pending = new Map<string, Pending>(
    cells.map((cell) => [
      jobIdOf(cell),
      { cell, started: false, timer: null, refused: 0, workerRefusals: 0, lastRefusal: '' },
    ]),
  );
  const ttl = (options.jobTtlSeconds ?? 86_400) * 1000;
  const data = (cell: Cell): CellJob =>
    signJob(options.secret, jobIdOf(cell), {
      run: runId,
      expiresAt: Date.now() + ttl,
      cell,
      cellTimeoutSeconds: opts.cellTimeoutSeconds,
      code: codeFingerprint(),
    });
  const enqueue = (cells: readonly Cell[]) =>
    queue.addBulk(
      cells.map((cell) => ({ name: cell.plan.label, data: data(cell), opts: { jobId: jobIdOf(cell) } })),
    );
  const rejected =
    options.onRejected ??
    ((cell: Cell, why: string) =>
      process.stderr.write(`refused from Redis for ${cell.plan.label}: ${why}\n`));

  let writes = Promise.resolve();
  let stopped = false;
  let aborted = false;
  let resolveRun!: () => void;
  let rejectRun!: (e: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    resolveRun = resolve;
    rejectRun = reject;
  });

  const stop = (error?: unknown) => {
    if (stopped) return;
    stopped = true;
    clearInterval(checker);
    for (const p of pending.values()) if (p.timer) clearTimeout(p.timer);
    writes.then(() => (error ? rejectRun(error) : resolveRun()), rejectRun);
  };
  // Listened to until the last write: an abort while the final results are written skips the rest.
  const onAbort = () => {
    aborted = true;
    stop();
  };

  const start = (id: string) => {
    const p = pending.get(id);
    if (!p || p.started || stopped) return;
    p.started = true;
    events.onStart?.(p.cell);
    p.timer = setTimeout(
      () => settle(id, failedRecord(p.cell, timedOut(p, opts.cellTimeoutSeconds), opts.cellTimeoutSeconds)),
      opts.cellTimeoutSeconds * 1000,
    );
  };

  const settle = (id: string, record: CellRecord) => {
    const p = pending.get(id);
    if (!p || stopped) return;
    pending.delete(id);
    if (p.timer) clearTimeout(p.timer);
    if (!p.started) events.onStart?.(p.cell);
    events.onEnd?.(p.cell);
    writes = writes.then(async () => {
      // After an abort, results not yet stored stay with their jobs for the next run.
      if (aborted) return;
      await events.onFinish(record, p.cell);
      // Stored: the job is no longer needed (a job still running after an overrun cannot be removed).
      await queue.remove(id).catch(() => 0);
    });
    writes.catch((e: unknown) => stop(e));
    if (pending.size === 0) stop();
  };

  /** Read the job's state and act on it; events and the periodic check both land here. */
  const check = async (id: string) => {
    const p = pending.get(id);
    if (!p || stopped) return;
    try {
      const state = await queue.getJobState(id);
      if (state === 'unknown') await enqueue([p.cell]);
      else if (state === 'active') start(id);
      else if (state === 'completed' || state === 'failed') {
        const job = await queue.getJob(id);
        if (!job) return;
        const replace = async (why: string) => {
          p.refused++;
          p.lastRefusal = why;
          rejected(p.cell, why);
          await queue.remove(id);
          await enqueue([p.cell]);
        };
        // A worker refused the job unrun (foreign, replayed, expired): sign it again, a few times.
        const reason = String(job.failedReason ?? '');
        if (state === 'failed' && reason.startsWith(REFUSED)) {
          p.workerRefusals++;
          if (p.workerRefusals >= MAX_WORKER_REFUSALS) {
            const why = `refused by workers ${p.workerRefusals} times, unrun (last: ${reason.slice(REFUSED.length)})`;
            rejected(p.cell, why);
            settle(id, failedRecord(p.cell, why, 0));
            return;
          }
          await replace(`a worker refused it: ${reason.slice(REFUSED.length)}`);
          return;
        }
        let record: CellRecord;
        try {
          record = recordOf(job, p.cell, state, options.secret, runId);
        } catch (e) {
          if (!(e instanceof RejectedError)) throw e;
          // Not this run's job, or a result no worker signed: replace the job, run the cell again.
          await replace(`${e.name === 'RejectedError' ? '' : `${e.name}: `}${e.message}`);
          return;
        }
        settle(id, record);
      }
    } catch {
      // Redis unavailable for a moment: the next check tries again.
    }
  };

  // Jobs already in the queue (from an earlier run) are left as they are.
  await enqueue(cells);
  if (options.retryFailed) {
    for (const id of pending.keys()) {
      if ((await queue.getJobState(id)) === 'failed') await (await queue.getJob(id))?.retry('failed');
    }
  }

  queueEvents.on('active', ({ jobId }) => start(jobId));
  queueEvents.on('progress', ({ jobId, data }) => {
    const p = pending.get(jobId);
    const progress = data as CellProgress;
    if (!p || stopped || progress?.key !== p.cell.key) return;
    start(jobId);
    events.onProgress?.(p.cell, progress);
  });
  queueEvents.on('completed', ({ jobId }) => void check(jobId));
  queueEvents.on('failed', ({ jobId }) => void check(jobId));
  queueEvents.on('removed', ({ jobId }) => void check(jobId));
  const checkAll = () => {
    for (const id of pending.keys()) void check(id);
  };
  const checker = setInterval(checkAll, (options.checkSeconds ?? 15) * 1000);
  opts.signal?.addEventListener('abort', onAbort);
  if (opts.signal?.aborted) onAbort();
  void queueEvents.run().catch(() => {});
  checkAll();
  try {
    await done;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
