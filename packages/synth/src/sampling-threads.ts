import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createRng, type Rng } from '@fb/core';
import { HelperPool, type SharedProgress, sharedProgress, waitForItems } from '@fb/core/threads';
import { BiasIndex } from './bias-index.js';
import { sampleConditionalLatent } from './conditional.js';
import { type GaussianCopula, latentToValues } from './copula.js';
import {
  BLOCK_SUMS,
  drawOutcomes,
  type OutcomeArrays,
  type OutcomeSetup,
  outcomeArrays,
} from './outcomes.js';
import type { Constraint, SubgroupDef } from './subgroups.js';

/** One subgroup's rows: latent box, row count, first row, and the label of its random streams. */
export interface SamplingTask {
  readonly index: Int32Array;
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  readonly size: number;
  readonly row: number;
  readonly label: string;
}

/**
 * Phases 3 and 4 for every subgroup: task t draws subgroup t's rows (values) and their outcomes into a
 * block of rows, and its sums into sums[t * BLOCK_SUMS...]. Its rows come from the stream
 * `createRng(seed).fork('rows').fork(label)` and its outcomes from `...fork('outcome').fork(label)`, so
 * they depend on nothing else: not on the order the tasks run in, nor on the thread that runs them.
 */
export interface PopulationJob extends SharedProgress {
  readonly seed: number | string;
  readonly copula: GaussianCopula;
  /** Task t is subgroups[t]'s. */
  readonly subgroups: readonly SubgroupDef[];
  readonly maxCombinations: number;
  readonly setup: OutcomeSetup;
  readonly tasks: readonly SamplingTask[];
  readonly sums: Float64Array;
}

/**
 * Where rows go: row `task.row + i` to row position[task.row + i] of x and of the outcome arrays (the
 * final, shuffled order; null keeps the order). Every thread places the rows it made, so with helper
 * threads these arrays are in shared memory.
 */
export interface Placement {
  readonly position: Int32Array | null;
  readonly x: Float64Array;
  readonly outcomes: OutcomeArrays;
}

/** A block of rows in the making, in the order drawn: values and outcomes. */
export interface RowBlock {
  readonly x: Float64Array;
  readonly outcomes: OutcomeArrays;
}

/** Sampled rows below which the job stays on the calling thread (thread start-up would dominate). */
const PARALLEL_ROWS = 100_000;
const pool = new HelperPool(() => new Worker(new URL('./sampling-thread.js', import.meta.url)));

/** The stream `createRng(seed).fork(label)`: the base of the rows' or the outcomes' streams. */
export function streamOf(seed: number | string, label: string): Rng {
  return createRng(seed).fork(label);
}

/** A block of `rows` rows of width d, in ordinary memory. */
export function rowBlock(rows: number, d: number): RowBlock {
  return { x: new Float64Array(rows * d), outcomes: outcomeArrays(rows, false) };
}

/** Write the block's first `size` rows, drawn as rows first..first+size-1, to their places. */
export function placeRows(block: RowBlock, size: number, first: number, d: number, to: Placement): void {
  const { position, x, outcomes } = to;
  const from = block.outcomes;
  for (let i = 0; i < size; i++) {
    const p = position ? position[first + i]! : first + i;
    for (let j = 0; j < d; j++) x[p * d + j] = block.x[i * d + j]!;
    outcomes.bias[p] = from.bias[i]!;
    outcomes.aleatoricSigma[p] = from.aleatoricSigma[i]!;
    outcomes.aleatoricNoise[p] = from.aleatoricNoise[i]!;
    outcomes.probability[p] = from.probability[i]!;
    outcomes.counterfactualProbability[p] = from.counterfactualProbability[i]!;
    outcomes.y[p] = from.y[i]!;
    outcomes.counterfactualLabel[p] = from.counterfactualLabel[i]!;
  }
}

/**
 * The attributes `latentToValues` leaves to `keepInBox`: those a constraint fixes to one value of a
 * discrete attribute, whose rows' value is known.
 */
function knownValues(constraints: readonly Constraint[], d: number): Uint8Array {
  const known = new Uint8Array(d);
  for (const c of constraints) if (c.discrete && c.lo === c.hi && c.maxInclusive) known[c.attr] = 1;
  return known;
}

/**
 * The latent draw lies in the box; write each constrained value exactly against floating-point edges
 * (rows 0..size-1 of x): an attribute marked in `known` gets its one value (`latentToValues` skipped
 * it), and any other value that does not satisfy its constraint becomes the constraint's lowest.
 */
function keepInBox(
  constraints: readonly Constraint[],
  known: Uint8Array,
  x: Float64Array,
  size: number,
  d: number,
): void {
  const attr = Int32Array.from(constraints, (c) => c.attr);
  const lo = Float64Array.from(constraints, (c) => c.lo);
  const hi = Float64Array.from(constraints, (c) => c.hi);
  const inclusive = Uint8Array.from(constraints, (c) => (c.maxInclusive ? 1 : 0));
  for (let off = 0; off < size * d; off += d) {
    for (let k = 0; k < attr.length; k++) {
      const at = off + attr[k]!;
      const v = x[at]!;
      // satisfies(c, v), on the arrays.
      if (known[attr[k]!] || !(v >= lo[k]! && (inclusive[k] ? v <= hi[k]! : v < hi[k]!))) x[at] = lo[k]!;
    }
  }
}

/**
 * Claim tasks from the shared counter and run them until none is left (any thread): each task's rows
 * are made in a block of the thread's own, then placed. `index` is the bias index of the job's
 * subgroups (each thread builds its own).
 */
export function runTasks(job: PopulationJob, index: BiasIndex, to: Placement): void {
  const rows = streamOf(job.seed, 'rows');
  const outcomes = streamOf(job.seed, 'outcome');
  const { control, tasks, copula, setup, sums } = job;
  const d = copula.marginals.length;
  const block = rowBlock(
    tasks.reduce((s, t) => Math.max(s, t.size), 0),
    d,
  );
  for (let t = Atomics.add(control, 0, 1); t < tasks.length; t = Atomics.add(control, 0, 1)) {
    const task = tasks[t]!;
    const g = job.subgroups[t]!;
    const size = task.size;
    sampleConditionalLatent(copula, task, size, rows.fork(task.label), block.x, 0);
    const known = knownValues(g.constraints, d);
    latentToValues(copula, block.x.subarray(0, size * d), known);
    keepInBox(g.constraints, known, block.x, size, d);
    const orng = outcomes.fork(task.label);
    drawOutcomes(setup, index, block.x, 0, size, g.aleatoric, orng, block.outcomes, sums, t * BLOCK_SUMS);
    placeRows(block, size, task.row, d, to);
    Atomics.add(control, 1, 1);
    Atomics.notify(control, 1);
  }
}

/** A helper thread's job: the bias index is rebuilt from the job's subgroups; rows go to `to` (shared). */
export function runHelperJob(job: PopulationJob, to: Placement): void {
  runTasks(job, new BiasIndex(job.copula, job.subgroups, job.maxCombinations), to);
}

/** Whether `rows` subgroup rows on `threads` threads go to helper threads (else all on the calling one). */
export function usesHelpers(rows: number, threads: number): boolean {
  const file = new URL('./sampling-thread.js', import.meta.url);
  return threads > 1 && rows >= PARALLEL_ROWS && file.protocol === 'file:' && existsSync(fileURLToPath(file));
}

/**
 * Run the tasks on the calling thread and `threads - 1` helper threads, which claim tasks from a shared
 * counter; the calling thread first runs `meanwhile` (work of its own), then claims tasks too, and
 * blocks until every task is done, so `generate` stays synchronous. Every thread places its own rows;
 * with helpers, the sums and the placement's arrays must be in shared memory (see `usesHelpers`).
 */
export function populateSubgroups(
  job: Omit<PopulationJob, 'control' | 'errorText'>,
  index: BiasIndex,
  threads: number,
  to: Placement,
  meanwhile: () => void,
): void {
  const rows = job.tasks.reduce((s, t) => s + t.size, 0);
  const progress = sharedProgress();
  const full: PopulationJob = { ...job, ...progress };
  if (usesHelpers(rows, threads))
    for (const worker of pool.take(threads - 1)) worker.postMessage({ job: full, to });
  meanwhile();
  runTasks(full, index, to);
  waitForItems(progress, job.tasks.length, (problem) => new Error(`generate: ${problem}; set threads to 1`));
}
