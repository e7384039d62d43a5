import { Worker } from 'node:worker_threads';
import { ModelError, OptionsError } from '@fb/core';
import { HelperPool, reportFailure, sharedProgress, threadCount, waitForItems } from '@fb/core/threads';
import {
  addLeaves8,
  encodeColumn,
  lowerBound,
  runChunks,
  type TreeJob,
  walkChunk,
  walkPacked,
  walkWide,
} from './tree-kernels.js';

/** Row-tree walks below which a batch stays on the calling thread (thread start-up would dominate). */
export const PARALLEL_WORK = 1 << 20;

let configured: number | 'auto' = 'auto';

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
  return threadCount(configured);
}

/** Typed-array storage that prediction threads can read without a copy. */
export function shared<T extends Int32Array | Float64Array>(
  Type: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
  length: number,
): T {
  return new Type(new SharedArrayBuffer(length * Type.BYTES_PER_ELEMENT));
}

// A helper thread runs the same kernels as the calling thread, from their source text, and reports a
// failure through the job's shared progress.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
${[lowerBound, encodeColumn, addLeaves8, walkPacked, walkWide, walkChunk, runChunks, reportFailure].map((f) => f.toString()).join('\n')}
parentPort.on('message', (job) => {
  try {
    ${runChunks.name}(job);
  } catch (e) {
    ${reportFailure.name}(job, e);
  }
});
`;
const pool = new HelperPool(() => new Worker(WORKER_SOURCE, { eval: true }));

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
  const progress = sharedProgress();
  const sharedVote = vote && {
    ...vote,
    labels: shared(Int32Array, n),
    walks: shared(Float64Array, vote.walks.length),
  };
  const sharedJob: TreeJob = { ...job, x: sx, out: sout, control: progress.control, vote: sharedVote };
  for (const worker of pool.take(threads - 1))
    worker.postMessage({ ...sharedJob, errorText: progress.errorText });
  runChunks(sharedJob);
  waitForItems(
    progress,
    Math.ceil(n / job.chunkRows),
    (problem) => new ModelError('MODEL_OUTPUT', `tree prediction: ${problem}`),
  );
  out.set(sout);
  if (vote && sharedVote) {
    vote.labels.set(sharedVote.labels);
    vote.walks.set(sharedVote.walks);
  }
}
