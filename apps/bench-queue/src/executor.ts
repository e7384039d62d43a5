import { type Cell, type CellExecutor, type CellRecord, failedRecord, type PoolEvents } from '@fb/bench';
import { type Job, Queue, QueueEvents, type RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { type CellJob, type CellProgress, codeFingerprint, jobIdOf } from './jobs.js';
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
}

type CellQueue = Queue<CellJob, SignedResult>;

interface Pending {
  cell: Cell;
  started: boolean;
  timer: NodeJS.Timeout | null;
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

/**
 * The record of a finished job; a result that took longer than the timeout counts as an overrun.
 * Throws `RejectedError` for a job this coordinator did not sign or a result no worker signed.
 */
function recordOf(
  job: Job<CellJob, SignedResult>,
  cell: Cell,
  state: 'completed' | 'failed',
  secret: string,
): CellRecord {
  const { cellTimeoutSeconds } = openJob(secret, job.id!, job.data);
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
    try {
      await run(queue, queueEvents, cells, opts, events, options);
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
): Promise<void> {
  const pending = new Map<string, Pending>(
    cells.map((cell) => [jobIdOf(cell), { cell, started: false, timer: null }]),
  );
  const data = (cell: Cell): CellJob =>
    signJob(options.secret, jobIdOf(cell), {
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
      () => settle(id, failedRecord(p.cell, overrun(opts.cellTimeoutSeconds), opts.cellTimeoutSeconds)),
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
        let record: CellRecord;
        try {
          record = recordOf(job, p.cell, state, options.secret);
        } catch (e) {
          if (!(e instanceof RejectedError)) throw e;
          // Not this coordinator's job, or a result no worker signed: replace the job, run the cell again.
          rejected(p.cell, e.message);
          await queue.remove(id);
          await enqueue([p.cell]);
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
