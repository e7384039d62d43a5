import { availableParallelism } from 'node:os';
import type { Cell, CellRecord } from '@fb/bench';
import { type Job, type RedisOptions, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { CellReleasedError, CellThreads } from './cell-threads.js';
import { type CellJob, type CellProgress, codeFingerprint } from './jobs.js';
import { currentRun } from './run.js';
import { openJob, RejectedError, type SignedResult, signResult } from './signed.js';

/** At most one progress write to Redis per cell in this interval: progress is for display only. */
const PROGRESS_INTERVAL_MS = 1000;

export interface QueueWorkerOptions {
  connection: RedisOptions;
  queue: string;
  /** The secret shared with the coordinator (see `queueSecret`): jobs must carry its signature. */
  secret: string;
  /** Cells run at once, each in its own thread (default: the number of cores). */
  concurrency?: number;
  /** The cell thread script (default: cell-thread.js next to this module, i.e. in dist). */
  threadUrl?: URL;
  /** Called when a cell's job ends here, with its outcome. */
  onCell?(cell: Cell, outcome: { record: CellRecord } | { error: string }): void;
  /**
   * Called for a job refused unrun: unsigned or signed with another secret (`ForeignJobError`), of
   * another run than the queue's current one (`ReplayedJobError`), expired (`ExpiredJobError`), or
   * ill-formed. The job fails with "rejected: " and the reason; the worker goes on.
   */
  onRejected?(job: Job<CellJob>, reason: string, error: RejectedError): void;
}

export interface QueueWorker {
  /**
   * Take no more jobs; wait for the running cells to finish, or with `release` stop them at once and
   * put their jobs back in the queue for another worker. Calling again with `release` cuts a wait short.
   */
  close(opts?: { release?: boolean }): Promise<void>;
  /** Resolves once the worker has closed: with null, or with the reason when it stopped by itself. */
  readonly stopped: Promise<string | null>;
}

/**
 * A worker on this machine: takes cells from the queue and runs them in worker threads (BullMQ's
 * sandboxed processors can only ask a job to cancel, which a cell stuck in a loop ignores; our own
 * threads can be terminated at the timeout). Results go back through the job; this process never
 * touches the study's store.
 */
export async function startQueueWorker(opts: QueueWorkerOptions): Promise<QueueWorker> {
  const concurrency = opts.concurrency ?? availableParallelism();
  const threads = new CellThreads(opts.threadUrl ?? new URL('./cell-thread.js', import.meta.url));
  const code = codeFingerprint();
  // Reads the queue's current run (the coordinator's signed record) for every job.
  const runs = new Redis(opts.connection);
  runs.on('error', () => {});
  let reason: string | null = null;
  let closing: Promise<void> | null = null;
  let onStopped!: (reason: string | null) => void;
  const stopped = new Promise<string | null>((resolve) => (onStopped = resolve));

  const close = (o: { release?: boolean } = {}): Promise<void> => {
    if (o.release) threads.release();
    closing ??= (async () => {
      await worker.close();
      await threads.close();
      runs.disconnect();
      onStopped(reason);
    })();
    return closing;
  };

  const processor = async (job: Job<CellJob, SignedResult>, token?: string): Promise<SignedResult> => {
    let payload: ReturnType<typeof openJob>;
    try {
      const current = await currentRun(runs, opts.queue, opts.secret);
      if (current === null) throw new RejectedError(`no run is current on queue ${opts.queue}`);
      payload = openJob(opts.secret, job.id ?? '', job.data, { run: current.run });
    } catch (e) {
      // Not a job of the coordinator's current run: fail it without running anything (no retry), and go on.
      if (!(e instanceof RejectedError)) throw e;
      opts.onRejected?.(job, `${e.name}: ${e.message}`, e);
      throw new UnrecoverableError(`rejected: ${e.name}: ${e.message}`);
    }
    const { cell, cellTimeoutSeconds } = payload;
    try {
      if (payload.code !== code) {
        reason = `code differs from the coordinator's (worker ${code}, coordinator ${payload.code}): build the same version on every machine`;
        void close({ release: true });
        throw new CellReleasedError();
      }
      let last = Number.NEGATIVE_INFINITY;
      let written = Promise.resolve();
      const record = await threads.run(cell, cellTimeoutSeconds, (p: CellProgress) => {
        const now = performance.now();
        if (now - last < PROGRESS_INTERVAL_MS) return;
        last = now;
        written = job.updateProgress(p).catch(() => {});
      });
      await written;
      opts.onCell?.(cell, { record });
      return signResult(opts.secret, job.id!, record);
    } catch (e) {
      if (e instanceof CellReleasedError) {
        await job.moveToWait(token);
        throw new WaitingError();
      }
      opts.onCell?.(cell, { error: e instanceof Error ? e.message : String(e) });
      throw e;
    }
  };

  const worker = new Worker<CellJob, SignedResult>(opts.queue, processor, {
    connection: opts.connection,
    concurrency,
  });
  // Connection errors are retried by the client; without a listener they would throw.
  worker.on('error', () => {});
  await worker.waitUntilReady();
  return { close, stopped };
}
