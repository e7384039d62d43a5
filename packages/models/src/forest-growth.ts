import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { ModelError, Rng } from '@fb/core';
import { HelperPool, type SharedProgress, sharedProgress, waitForItems } from '@fb/core/threads';
import { type BinnerParts, FeatureBinner } from './binning.js';
import { type GrowParams, type TreeArrays, TreeBuilder } from './tree-builder.js';
import type { Seed } from './tree-options.js';

/**
 * Growing a forest's trees, on the calling thread and helper threads alike. Tree t draws its bootstrap
 * and its feature orders from the stream `seed/random-forest/tree-t` alone, so a thread can grow any tree
 * and the forest is the same bit for bit whatever the number of threads.
 */
export interface GrowthJob extends SharedProgress {
  readonly binner: BinnerParts;
  /** Feature-major bin codes (shared memory when helpers take part). */
  readonly bins: Uint8Array;
  readonly n: number;
  readonly y: Int32Array;
  readonly nClasses: number;
  /** Sample times class weight of every training row. */
  readonly rowWeight: Float64Array;
  readonly params: GrowParams;
  readonly seed: Seed;
  readonly trees: number;
  readonly bootstrap: boolean;
}

/** Row-tree pairs below which a forest grows on the calling thread (helper start-up would dominate). */
const PARALLEL_WORK = 1 << 20;
const script = new URL('./forest-thread.js', import.meta.url);
const pool = new HelperPool(() => new Worker(script));

/** Grow tree t of the job with the builder's work buffers (`weights`: n scratch values). */
function growTree(job: GrowthJob, builder: TreeBuilder, weights: Float64Array, t: number): TreeArrays {
  const { n, rowWeight } = job;
  const rng = Rng.create(job.seed).fork('random-forest').fork(`tree-${t}`);
  if (job.bootstrap) {
    drawBootstrap(rng, n, weights);
    scaleWeights(weights, rowWeight);
  } else weights.set(rowWeight);
  return builder.grow(weights, job.params, rng);
}

// The two loops of a bootstrap are functions of their own: code after a long loop, not yet run when V8
// optimises the loop, sends the function back to the interpreter when first reached (once per tree).

/** Draw n rows with replacement: counts[i] = the times row i is drawn. */
function drawBootstrap(rng: Rng, n: number, counts: Float64Array): void {
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[rng.int(0, n - 1)]!++;
}

/** weights[i] *= by[i]. */
function scaleWeights(weights: Float64Array, by: Float64Array): void {
  for (let i = 0; i < weights.length; i++) weights[i] = weights[i]! * by[i]!;
}

/**
 * Claim trees from the job's shared counter and grow them until none is left (any thread); each tree
 * goes to `done(t, tree)`.
 */
export function growClaimed(job: GrowthJob, done: (t: number, tree: TreeArrays) => void): void {
  const { control } = job;
  const builder = new TreeBuilder({
    binner: FeatureBinner.fromParts(job.binner),
    bins: job.bins,
    n: job.n,
    y: job.y,
    nClasses: job.nClasses,
  });
  const weights = new Float64Array(job.n);
  for (let t = Atomics.add(control, 0, 1); t < job.trees; t = Atomics.add(control, 0, 1)) {
    done(t, growTree(job, builder, weights, t));
    Atomics.add(control, 1, 1);
    Atomics.notify(control, 1);
  }
}

/** A helper's finished tree, posted on the job's port. */
export interface GrownTree {
  readonly t: number;
  readonly tree: TreeArrays;
}

/**
 * Grow the job's trees on the calling thread and up to `threads - 1` helper threads, which claim trees
 * from a shared counter and post them back; the calling thread grows trees too and blocks until all are
 * done, so fitting stays synchronous. Small forests, and sources without the built helper script, stay on
 * the calling thread.
 */
export function growForest(job: Omit<GrowthJob, keyof SharedProgress>, threads: number): TreeArrays[] {
  const out: TreeArrays[] = new Array(job.trees);
  const keep = (t: number, tree: TreeArrays) => {
    out[t] = tree;
  };
  const helpers = Math.min(threads, job.trees) - 1;
  if (
    helpers < 1 ||
    job.n * job.trees < PARALLEL_WORK ||
    script.protocol !== 'file:' ||
    !existsSync(fileURLToPath(script))
  ) {
    growClaimed({ ...job, ...sharedProgress() }, keep);
    return out;
  }
  const bins = new Uint8Array(new SharedArrayBuffer(job.bins.length));
  bins.set(job.bins);
  const full: GrowthJob = { ...job, bins, ...sharedProgress() };
  const ports: MessagePort[] = [];
  for (const worker of pool.take(helpers)) {
    const { port1, port2 } = new MessageChannel();
    ports.push(port1);
    worker.postMessage({ job: full, port: port2 }, [port2]);
  }
  try {
    growClaimed(full, keep);
    waitForItems(full, job.trees, (problem) => new ModelError('MODEL_OUTPUT', `forest fit: ${problem}`));
    for (const port of ports) {
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
        const { t, tree } = m.message as GrownTree;
        out[t] = tree;
      }
    }
  } finally {
    for (const port of ports) port.close();
  }
  for (let t = 0; t < job.trees; t++) {
    if (!out[t])
      throw new ModelError('MODEL_OUTPUT', `forest fit: tree ${t} did not come back from its thread`);
  }
  return out;
}
