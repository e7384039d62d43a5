import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createRng, type Rng } from '@fb/core';
import { HelperPool, type SharedProgress, sharedProgress, waitForItems } from '@fb/core/threads';
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
export interface SamplingJob extends SharedProgress {
  readonly seed: number | string;
  readonly forks: readonly string[];
  readonly correlation: Float64Array;
  readonly tasks: readonly SamplingTask[];
  readonly out: Float64Array;
}

/** Sampled rows below which the job stays on the calling thread (thread start-up would dominate). */
const PARALLEL_ROWS = 100_000;
const pool = new HelperPool(() => new Worker(new URL('./sampling-thread.js', import.meta.url)));

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
    sampleConditionalLatent(job, task, task.size, base.fork(task.label), job.out, task.row);
    Atomics.add(control, 1, 1);
    Atomics.notify(control, 1);
  }
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
  const progress = sharedProgress();
  if (threads <= 1 || rows < PARALLEL_ROWS || file.protocol !== 'file:' || !existsSync(fileURLToPath(file))) {
    meanwhile();
    runTasks({ ...job, out, ...progress });
    return;
  }
  const shared = new Float64Array(new SharedArrayBuffer(out.byteLength));
  const full: SamplingJob = { ...job, out: shared, ...progress };
  for (const worker of pool.take(threads - 1)) worker.postMessage(full);
  meanwhile();
  runTasks(full);
  waitForItems(
    progress,
    job.tasks.length,
    (problem) => new Error(`conditional sampling: ${problem}; set threads to 1`),
  );
  out.set(shared);
}
