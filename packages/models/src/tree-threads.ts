import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ModelError, OptionsError } from '@fb/core';
import {
  addLeaves8,
  lowerBound,
  runChunks,
  type TreeJob,
  walkChunk,
  walkPacked,
  walkWide,
} from './tree-kernels.js';

/** Row-tree walks below which a batch stays on the calling thread (thread start-up would dominate). */
export const PARALLEL_WORK = 1 << 20;
const MAX_THREADS = 8;
/** With no chunk finished for this long, the helper threads are taken for dead. */
const STALL_MS = 120_000;
const ERROR_BYTES = 1024;

let configured: number | 'auto' = 'auto';
const pool: Worker[] = [];

/**
 * Threads used by tree and forest prediction on large batches (the calling thread included): a positive
 * integer, or 'auto' (the default) for one per core up to 8. A program that already runs one model per
 * core (as the study's worker pool does) sets 1. The result does not depend on it.
 */
export function setPredictionThreads(threads: number | 'auto'): void {
  if (threads !== 'auto' && !(Number.isInteger(threads) && threads >= 1)) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `setPredictionThreads: expected a positive integer or 'auto', got ${String(threads)}`,
    );
  }
  configured = threads;
}

/** The number of threads tree prediction uses now. */
export function predictionThreads(): number {
  return configured === 'auto' ? Math.min(MAX_THREADS, availableParallelism()) : configured;
}

/** Typed-array storage that prediction threads can read without a copy. */
export function shared<T extends Int32Array | Float64Array>(
  Type: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
  length: number,
): T {
  return new Type(new SharedArrayBuffer(length * Type.BYTES_PER_ELEMENT));
}

// A helper thread runs the same kernels as the calling thread, from their source text; a failure is
// written as UTF-8 into the job's error buffer and flagged in control[2].
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
${[lowerBound, addLeaves8, walkPacked, walkWide, walkChunk, runChunks].map((f) => f.toString()).join('\n')}
parentPort.on('message', (job) => {
  try {
    ${runChunks.name}(job);
  } catch (e) {
    const bytes = new TextEncoder().encode(String((e && e.message) || e)).slice(0, job.errorText.length);
    job.errorText.set(bytes);
    Atomics.store(job.control, 2, 1);
    Atomics.notify(job.control, 1);
  }
});
`;

function helpers(count: number): Worker[] {
  while (pool.length < count) {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    // Idle helpers must not keep the process alive.
    worker.unref();
    // A helper that dies leaves the pool (a job it held ends by the stall timeout); the next batch starts
    // another.
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

/**
 * Run the job on the calling thread and `threads - 1` helper threads, which claim chunks of rows from a
 * shared counter; the calling thread blocks until every chunk is done, so prediction stays synchronous.
 * Rows and results travel through shared memory; the compiled trees are already shared.
 */
export function runInThreads(job: TreeJob, threads: number): void {
  const { x, n, d, out, vote } = job;
  const sx = shared(Float64Array, n * d);
  sx.set(x.subarray(0, n * d));
  const sout = shared(Float64Array, out.length);
  sout.set(out);
  const control = shared(Int32Array, 3);
  const errorText = new Uint8Array(new SharedArrayBuffer(ERROR_BYTES));
  const sharedVote = vote && {
    ...vote,
    labels: shared(Int32Array, n),
    walks: shared(Float64Array, vote.walks.length),
  };
  const sharedJob: TreeJob = { ...job, x: sx, out: sout, control, vote: sharedVote };
  for (const worker of helpers(threads - 1)) worker.postMessage({ ...sharedJob, errorText });
  runChunks(sharedJob);
  const chunks = Math.ceil(n / job.chunkRows);
  let done = Atomics.load(control, 1);
  let since = performance.now();
  while (done < chunks && Atomics.load(control, 2) === 0) {
    Atomics.wait(control, 1, done, 1000);
    const now = Atomics.load(control, 1);
    if (now !== done) {
      done = now;
      since = performance.now();
    } else if (performance.now() - since > STALL_MS) {
      throw new ModelError(
        'MODEL_OUTPUT',
        `tree prediction: helper threads stopped (${done} of ${chunks} chunks done)`,
      );
    }
  }
  if (Atomics.load(control, 2) !== 0) {
    const length = errorText.indexOf(0);
    const message = new TextDecoder().decode(errorText.slice(0, length < 0 ? ERROR_BYTES : length));
    throw new ModelError('MODEL_OUTPUT', `tree prediction failed in a helper thread: ${message}`);
  }
  out.set(sout);
  if (vote && sharedVote) {
    vote.labels.set(sharedVote.labels);
    vote.walks.set(sharedVote.walks);
  }
}
