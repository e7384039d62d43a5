import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createRng, type Rng } from '@fb/core';
import { sampleConditionalLatent } from './conditional.js';

/** One subgroup's rows: latent box, row count, first row, and the label of its random stream. */
export interface SamplingTask {
  readonly index: Int32Array;
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  readonly size: number;
  readonly row: number;
  readonly label: string;
}

/**
 * Conditional sampling of every subgroup into `out` (latent rows, row-major). Task t draws from
 * the stream `createRng(seed).fork(forks[0])...fork(tasks[t].label)`, so its rows depend on nothing
 * else: not on the order the tasks run in, nor on the thread that runs them.
 */
export interface SamplingJob {
  readonly seed: number | string;
  readonly forks: readonly string[];
  readonly correlation: Float64Array;
  readonly sweeps: number;
  readonly tasks: readonly SamplingTask[];
  readonly out: Float64Array;
  /** Shared counters: [0] next task to claim, [1] tasks done, [2] 1 when a helper failed. */
  readonly control: Int32Array;
  readonly errorText: Uint8Array;
}

/** Sampled rows below which the job stays on the calling thread (thread start-up would dominate). */
const PARALLEL_ROWS = 100_000;
const MAX_THREADS = 8;
/** With no task finished for this long, the helper threads are taken for dead. */
const STALL_MS = 120_000;
const ERROR_BYTES = 1024;
const pool: Worker[] = [];

function streamOf(job: SamplingJob): Rng {
  let rng = createRng(job.seed);
  for (const label of job.forks) rng = rng.fork(label);
  return rng;
}

/** Claim tasks from the shared counter and run them until none is left (any thread). */
export function runTasks(job: SamplingJob): void {
  const base = streamOf(job);
  const { control, tasks } = job;
  for (let t = Atomics.add(control, 0, 1); t < tasks.length; t = Atomics.add(control, 0, 1)) {
    const task = tasks[t]!;
    sampleConditionalLatent(job, task, task.size, job.sweeps, base.fork(task.label), job.out, task.row);
    Atomics.add(control, 1, 1);
    Atomics.notify(control, 1);
  }
}

/** Record a helper's failure for the calling thread. */
export function reportFailure(job: SamplingJob, error: unknown): void {
  const text = new TextEncoder().encode(String((error as Error)?.message ?? error));
  job.errorText.set(text.subarray(0, job.errorText.length));
  Atomics.store(job.control, 2, 1);
  Atomics.notify(job.control, 1);
}

function helpers(count: number, file: URL): Worker[] {
  while (pool.length < count) {
    const worker = new Worker(file);
    // Idle helpers must not keep the process alive; a dead one leaves the pool.
    worker.unref();
    const drop = () => {
      const at = pool.indexOf(worker);
      if (at >= 0) pool.splice(at, 1);
    };
    worker.on('error', drop);
    worker.on('exit', drop);
    pool.push(worker);
  }
  return pool.slice(0, count);
}

/** Threads for `threads` ('auto': one per core, up to 8). */
export function threadCount(threads: number | 'auto'): number {
  return threads === 'auto' ? Math.min(MAX_THREADS, availableParallelism()) : threads;
}

/**
 * Run the tasks on the calling thread and up to `threads - 1` helper threads, which claim tasks
 * from a shared counter; the calling thread first runs `meanwhile` (work of its own), then claims
 * tasks too, and blocks until every task is done, so `generate` stays synchronous. Small jobs, and
 * sources without the built helper script, stay on the calling thread.
 */
export function sampleSubgroups(
  job: Omit<SamplingJob, 'out' | 'control' | 'errorText'>,
  out: Float64Array,
  threads: number,
  meanwhile: () => void,
): void {
  const rows = job.tasks.reduce((s, t) => s + t.size, 0);
  const file = new URL('./sampling-thread.js', import.meta.url);
  const control = new Int32Array(new SharedArrayBuffer(3 * 4));
  const errorText = new Uint8Array(new SharedArrayBuffer(ERROR_BYTES));
  if (threads <= 1 || rows < PARALLEL_ROWS || file.protocol !== 'file:' || !existsSync(fileURLToPath(file))) {
    meanwhile();
    runTasks({ ...job, out, control, errorText });
    return;
  }
  const shared = new Float64Array(new SharedArrayBuffer(out.byteLength));
  const full: SamplingJob = { ...job, out: shared, control, errorText };
  for (const worker of helpers(threads - 1, file)) worker.postMessage(full);
  meanwhile();
  runTasks(full);
  let done = Atomics.load(control, 1);
  let since = performance.now();
  while (done < job.tasks.length && Atomics.load(control, 2) === 0) {
    Atomics.wait(control, 1, done, 1000);
    const now = Atomics.load(control, 1);
    if (now !== done) {
      done = now;
      since = performance.now();
    } else if (performance.now() - since > STALL_MS) {
      throw new Error(
        `conditional sampling: helper threads stopped (${done} of ${job.tasks.length} subgroups done); set threads to 1`,
      );
    }
  }
  if (Atomics.load(control, 2) !== 0) {
    const end = errorText.indexOf(0);
    const message = new TextDecoder().decode(errorText.slice(0, end < 0 ? ERROR_BYTES : end));
    throw new Error(`conditional sampling failed in a helper thread: ${message}; set threads to 1`);
  }
  out.set(shared);
}
