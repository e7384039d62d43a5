/**
 * Helper threads for synchronous batch work (`@fb/core/threads`, Node only): the calling thread and
 * helpers claim items of one job from a shared counter, and the caller blocks until all are done, so an
 * API like `predict` or `generate` stays synchronous. Results travel through shared memory.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';

const MAX_THREADS = 8;
/** With no item finished for this long, the helper threads are taken for dead. */
const STALL_MS = 120_000;
const ERROR_BYTES = 1024;

/** Threads for a `threads` setting: a count as given, 'auto' one per core up to 8. */
export function threadCount(threads: number | 'auto'): number {
  return threads === 'auto' ? Math.min(MAX_THREADS, availableParallelism()) : threads;
}

/**
 * What the threads of one job share: control[0] is the next item to claim, control[1] the items done,
 * control[2] 1 once a helper failed, with its message in errorText (UTF-8, zero-padded).
 */
export interface SharedProgress {
  readonly control: Int32Array;
  readonly errorText: Uint8Array;
}

export function sharedProgress(): SharedProgress {
  return {
    control: new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT)),
    errorText: new Uint8Array(new SharedArrayBuffer(ERROR_BYTES)),
  };
}

/**
 * Record a helper's failure for the waiting thread. Self-contained (no imports, no module state), so a
 * helper that runs source text can include it.
 */
export function reportFailure(progress: SharedProgress, error: unknown): void {
  const message = String((error as Error | undefined)?.message ?? error);
  const bytes = new TextEncoder().encode(message);
  progress.errorText.set(bytes.subarray(0, progress.errorText.length));
  Atomics.store(progress.control, 2, 1);
  Atomics.notify(progress.control, 1);
}

/**
 * Block until `total` items are done. A helper's failure, or no progress for two minutes, throws
 * `fail(problem)`, where problem reads e.g. "failed in a helper thread: <message>".
 */
export function waitForItems(
  progress: SharedProgress,
  total: number,
  fail: (problem: string) => Error,
): void {
  const { control, errorText } = progress;
  let done = Atomics.load(control, 1);
  let since = performance.now();
  while (done < total && Atomics.load(control, 2) === 0) {
    Atomics.wait(control, 1, done, 1000);
    const now = Atomics.load(control, 1);
    if (now !== done) {
      done = now;
      since = performance.now();
    } else if (performance.now() - since > STALL_MS) {
      throw fail(`helper threads stopped (${done} of ${total} done)`);
    }
  }
  if (Atomics.load(control, 2) !== 0) {
    const end = errorText.indexOf(0);
    throw fail(
      `failed in a helper thread: ${new TextDecoder().decode(errorText.slice(0, end < 0 ? undefined : end))}`,
    );
  }
}

/** Helper workers kept for the next job; idle ones do not keep the process alive, dead ones leave. */
export class HelperPool {
  private readonly workers: Worker[] = [];
  private readonly start: () => Worker;

  constructor(start: () => Worker) {
    this.start = start;
  }

  /** `count` live helpers, started as needed. */
  take(count: number): Worker[] {
    const { workers } = this;
    while (workers.length < count) {
      const worker = this.start();
      worker.unref();
      // A job a dead helper held ends by the stall timeout; the next job starts another helper.
      const drop = () => {
        const at = workers.indexOf(worker);
        if (at >= 0) workers.splice(at, 1);
      };
      worker.on('error', drop);
      worker.on('exit', drop);
      workers.push(worker);
    }
    return workers.slice(0, count);
  }
}
