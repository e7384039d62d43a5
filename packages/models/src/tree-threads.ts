import { Worker } from 'node:worker_threads';
import { ModelError, OptionsError } from '@fb/core';
import { HelperPool, reportFailure, sharedProgress, threadCount, waitForItems } from '@fb/core/threads';
import {
  addLeaves8,
  type ChunkScratch,
  compiledWalk,
  decideRows,
  encodeColumn,
  keepScratch,
  leafStarts,
  moveRows,
  rankOf,
  runChunks,
  type TreeJob,
  type Walk,
  walkChunk,
  walkTrees8,
  writeRows,
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

// A helper thread runs the same kernels as the calling thread, from their source text, keeps its working
// arrays for the next job, and reports a failure through the job's shared progress.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
${[rankOf, encodeColumn, addLeaves8, compiledWalk, walkTrees8, decideRows, leafStarts, moveRows, writeRows, walkChunk, runChunks, keepScratch, reportFailure].map((f) => f.toString()).join('\n')}
let kept = null;
const walks = new Map();
// Made-up jobs to run a number of times, before any real one (see prepareHelpers); their scratch is
// made anew for the first two runs, as on the calling thread (see CodedTrees.prepare).
function prepare({ runs, jobs }) {
  try {
    for (let r = 0; r < runs; r++) {
      const job = jobs[r % jobs.length];
      job.control[0] = 0;
      const walk = ${compiledWalk.name}(walks, job.walkSource);
      kept = ${keepScratch.name}(${runChunks.name}(job, walk, r < 2 ? null : kept));
    }
  } catch {
    // Nothing depends on a preparation: a fault in the kernels shows in the first real job.
    kept = null;
  }
}
parentPort.on('message', (job) => {
  if (job.prepare) return prepare(job.prepare);
  try {
    const walk = ${compiledWalk.name}(walks, job.walkSource);
    kept = ${keepScratch.name}(${runChunks.name}(job, walk, kept));
  } catch (e) {
    kept = null;
    ${reportFailure.name}(job, e);
  }
});
`;
const pool = new HelperPool(() => new Worker(WORKER_SOURCE, { eval: true }));

/**
 * Shared buffers kept between batches: allocating and zeroing shared memory costs more than reusing it
 * (9 ms of a 120 ms call on 100,000 Adult rows). Only buffers up to STAGING_KEEP bytes are kept, so one
 * huge batch does not pin its memory for the rest of the process.
 */
const STAGING_KEEP = 64 * 2 ** 20;
const staging = {
  x: new Float64Array(0),
  out: new Float64Array(0),
  labels: new Int32Array(0),
  walks: new Float64Array(0),
};

/** A shared view of `length` elements on the staging buffer `key`, or a fresh buffer beyond the limit. */
function stage<K extends keyof typeof staging>(key: K, length: number): (typeof staging)[K] {
  const buffer = staging[key];
  if (buffer.length >= length) return buffer.subarray(0, length) as (typeof staging)[K];
  const fresh = (
    buffer instanceof Int32Array ? shared(Int32Array, length) : shared(Float64Array, length)
  ) as (typeof staging)[K];
  if (fresh.byteLength <= STAGING_KEEP) staging[key] = fresh;
  return fresh;
}

/** The calling thread's working arrays, kept between batches (see `runChunks`). */
let kept: ChunkScratch | null = null;
/** The calling thread's compiled walks, by source. */
const walks = new Map<string, Walk>();

/**
 * Start the helper threads that prediction on a large batch will use, without waiting for them: a thread
 * takes about 60 ms to start, which the first large batch would otherwise wait for.
 */
export function startPredictionThreads(): void {
  pool.take(predictionThreads() - 1);
}

/** Run the job on the calling thread alone. */
export function runHere(job: TreeJob): void {
  kept = keepScratch(runChunks(job, compiledWalk(walks, job.walkSource), kept));
}

/**
 * Drop every staging buffer and the kept working arrays (after a failed batch, whose helpers may still
 * write to the buffers, and to prepare a walk: see `CodedTrees.prepare`).
 */
export function forgetWorkingMemory(): void {
  kept = null;
  staging.x = new Float64Array(0);
  staging.out = new Float64Array(0);
  staging.labels = new Int32Array(0);
  staging.walks = new Float64Array(0);
}

/**
 * Post each helper the made-up `jobs` (see `CodedTrees.prepare`) to run `runs` times, in turn, in the
 * background: on copies in shared memory of their own, laid out as the jobs `runInThreads` posts, so that
 * the code V8 optimises on them is the code the first real job runs. The calling thread does not wait:
 * a helper takes a real job after its preparation.
 */
export function prepareHelpers(jobs: readonly TreeJob[], runs: number): void {
  for (const worker of pool.take(predictionThreads() - 1)) {
    const copies = jobs.map((job) => {
      const x = shared(Float64Array, job.x.length);
      x.set(job.x);
      const progress = sharedProgress();
      const vote = job.vote && {
        ...job.vote,
        labels: shared(Int32Array, job.vote.labels.length),
        walks: shared(Float64Array, job.vote.walks.length),
      };
      const out = shared(Float64Array, job.out.length);
      return { ...job, x, out, control: progress.control, vote, errorText: progress.errorText };
    });
    worker.postMessage({ prepare: { runs, jobs: copies } });
  }
}

/**
 * Run the job on the calling thread and `threads - 1` helper threads, which claim chunks of rows from a
 * shared counter (the calling thread first walks chunk 0 of a batch outside shared memory, from where it
 * is); the calling thread blocks until every chunk is done, so prediction stays synchronous. The helpers'
 * rows and all results travel through shared staging buffers (a batch already in shared memory is read
 * where it is); the compiled trees are already shared.
 */
export function runInThreads(job: TreeJob, threads: number): void {
  const { x, n, d, out, vote, chunkRows } = job;
  // A batch outside shared memory: the calling thread reads chunk 0 where it is, and only the rows
  // after it are copied for the helpers.
  const own = x.buffer instanceof SharedArrayBuffer ? null : x;
  let sx = x.subarray(0, n * d);
  if (own) {
    sx = stage('x', n * d);
    sx.set(x.subarray(chunkRows * d, n * d), chunkRows * d);
  }
  // Every entry of out, labels and walks is written by the chunks: no need to clear them.
  const sout = stage('out', out.length);
  const progress = sharedProgress();
  const sharedVote = vote && {
    ...vote,
    labels: stage('labels', n),
    walks: stage('walks', vote.walks.length),
  };
  const sharedJob: TreeJob = { ...job, x: sx, out: sout, control: progress.control, vote: sharedVote };
  if (own) progress.control[0] = 1;
  for (const worker of pool.take(threads - 1))
    worker.postMessage({ ...sharedJob, errorText: progress.errorText });
  try {
    kept = keepScratch(runChunks(sharedJob, compiledWalk(walks, job.walkSource), kept, own));
    waitForItems(
      progress,
      Math.ceil(n / job.chunkRows),
      (problem) => new ModelError('MODEL_OUTPUT', `tree prediction: ${problem}`),
    );
  } catch (e) {
    forgetWorkingMemory();
    throw e;
  }
  out.set(sout);
  if (vote && sharedVote) {
    vote.labels.set(sharedVote.labels);
    vote.walks.set(sharedVote.walks);
  }
}
