import type { CountingClassifier, Rng, RunController } from '@fb/core';
import { fitLinearSvmArraysAsync, type LinearBoundary, type LinearSvmArraysOptions } from '@fb/models';
import type { LatentGenerator } from './generator.js';
import type { Hyperplane } from './probe.js';

type SvmLoss = LinearSvmArraysOptions['loss'];

export interface BoundarySettings {
  samples: number;
  /** Most distinct model queries the labelling may spend (null: no limit but `samples`). */
  maxQueries: number | null;
  confidence: number;
  perClassLimit: number;
  c: number;
  loss: SvmLoss;
  maxIter: number;
}

export interface BoundaryStats {
  /** Latent samples decoded and labelled. */
  sampled: number;
  /** Distinct model queries the labelling spent. */
  queries: number;
  /** Confident samples found per class before the `perClassLimit` most confident were kept. */
  confidentFavourable: number;
  confidentUnfavourable: number;
  /** Confident samples kept per class (favourable, other). */
  favourable: number;
  unfavourable: number;
  /** Share of the kept samples on the side of the hyperplane the model puts them. */
  surrogateAccuracy: number | null;
  svmIterations: number;
  svmConverged: boolean;
  /** What ended the fit: convergence, `svmMaxIter`, the share of the time budget it was given, or an abort. */
  svmStoppedBy: 'converged' | 'max-iter' | 'time-budget' | 'aborted' | null;
}

/**
 * The linear SVM of the boundary, within `maxIter` passes and, under a time budget, within half the
 * time left. Between passes the fit checks in with the run (which lets an abort signal through) and
 * stops when that time is up or the run must stop; a fit that converges in time is the one a fit
 * without a budget gives.
 */
async function budgetedSvm(
  x: Float64Array,
  k: number,
  y: Int32Array,
  weights: Float64Array,
  settings: BoundarySettings,
  seed: number,
  ctl: RunController,
): Promise<{ svm: LinearBoundary; stoppedBy: BoundaryStats['svmStoppedBy'] }> {
  const deadline = performance.now() + 0.5 * ctl.remainingSeconds() * 1000;
  const between = async () =>
    (await ctl.checkpoint({ phase: 'boundary-svm' })) !== null || performance.now() >= deadline;
  const { c, loss, maxIter } = settings;
  const svm = await fitLinearSvmArraysAsync(x, k, y, { c, loss, maxIter, seed }, weights, between);
  if (!svm.stopped) return { svm, stoppedBy: svm.converged ? 'converged' : 'max-iter' };
  return { svm, stoppedBy: ctl.shouldStop() === 'aborted' ? 'aborted' : 'time-budget' };
}

/** Latent samples decoded and labelled per model call. */
const CHUNK = 8192;

/**
 * Indices of the `limit` largest confidences, largest first (ties in index order): the original sorts
 * each class by the model's score and keeps the first `train_num`, the most confident.
 */
export function mostConfident(confidence: Float64Array, limit: number): Int32Array {
  const order = Int32Array.from({ length: confidence.length }, (_, i) => i);
  order.sort((a, b) => confidence[b]! - confidence[a]! || a - b);
  return order.subarray(0, Math.min(limit, order.length));
}

/**
 * The original balances the classes by appending the smaller class's samples to itself, in order
 * (most confident first) and cycling, until both are as large: sample r of `small` ends up
 * floor(large / small) times, plus once more for the first large mod small. As weights, the same objective.
 */
export function duplicationWeights(small: number, large: number): Float64Array {
  const base = Math.floor(large / small);
  const extra = large - base * small;
  return Float64Array.from({ length: small }, (_, r) => base + (r < extra ? 1 : 0));
}

/** Confident latent samples of one class, grown as they come. */
class ConfidentSet {
  z: Float64Array;
  confidence: Float64Array;
  n = 0;
  constructor(private readonly k: number) {
    this.z = new Float64Array(1024 * k);
    this.confidence = new Float64Array(1024);
  }
  push(z: Float64Array, at: number, confidence: number): void {
    const { k } = this;
    if (this.n === this.confidence.length) {
      const z2 = new Float64Array(this.z.length * 2);
      z2.set(this.z);
      this.z = z2;
      const c2 = new Float64Array(this.confidence.length * 2);
      c2.set(this.confidence);
      this.confidence = c2;
    }
    this.z.set(z.subarray(at * k, (at + 1) * k), this.n * k);
    this.confidence[this.n++] = confidence;
  }
}

/**
 * LIMI's surrogate boundary: sample latent vectors (`generator.sampleLatent`), decode them, label them
 * with the model (favourable outcome = 1), keep the confident ones (predicted-class probability above
 * `confidence`), of which the `perClassLimit` most confident per class, and fit a linear SVM in the
 * latent space (LinearSVC's squared hinge by default), the smaller class duplicated as the original
 * does (as integer weights). The labelling stops at `samples` latent vectors or at `maxQueries` distinct
 * model queries. Returns the hyperplane normalised to a unit normal, or a null plane when the
 * confident samples hold a single class; null altogether when the run is stopped while sampling (a
 * stop during the SVM's fit keeps the boundary so far, with `svmStoppedBy` saying why).
 */
export async function fitLatentBoundary(
  generator: LatentGenerator,
  model: CountingClassifier,
  favorable: number,
  settings: BoundarySettings,
  rng: Rng,
  ctl: RunController,
): Promise<{ plane: Hyperplane | null; stats: BoundaryStats } | null> {
  const { k } = generator;
  const sets = [new ConfidentSet(k), new ConfidentSet(k)] as const;
  const c = model.nClasses;
  const queriesBefore = model.distinctQueries;
  const allowance = settings.maxQueries ?? Number.POSITIVE_INFINITY;
  let drawn = 0;
  while (drawn < settings.samples) {
    if (await ctl.checkpoint({ phase: 'boundary', done: drawn, total: settings.samples })) return null;
    const left = allowance - (model.distinctQueries - queriesBefore);
    if (left <= 0) break;
    // A decoded sample costs at most one new distinct query, so a chunk never passes the allowance.
    const m = Math.min(CHUNK, settings.samples - drawn, left);
    const z = generator.sampleLatent(rng, m);
    drawn += m;
    const rows = generator.decode(z, m);
    const proba = model.hasProba ? model.predictProba(rows) : null;
    const labels = proba ? null : model.predict(rows);
    for (let i = 0; i < m; i++) {
      let label = labels ? labels[i]! : 0;
      let confidence = 1;
      if (proba) {
        for (let q = 1; q < c; q++) if (proba[i * c + q]! > proba[i * c + label]!) label = q;
        confidence = proba[i * c + label]!;
        if (!(confidence > settings.confidence)) continue;
      }
      sets[label === favorable ? 1 : 0].push(z, i, confidence);
    }
  }
  const kept = sets.map((set) => mostConfident(set.confidence.subarray(0, set.n), settings.perClassLimit));
  const [n0, n1] = [kept[0]!.length, kept[1]!.length];
  const stats: BoundaryStats = {
    sampled: drawn,
    queries: model.distinctQueries - queriesBefore,
    confidentFavourable: sets[1].n,
    confidentUnfavourable: sets[0].n,
    favourable: n1,
    unfavourable: n0,
    surrogateAccuracy: null,
    svmIterations: 0,
    svmConverged: false,
    svmStoppedBy: null,
  };
  if (n0 === 0 || n1 === 0) return { plane: null, stats };
  const x = new Float64Array((n0 + n1) * k);
  const y = new Int32Array(n0 + n1);
  const weights = new Float64Array(n0 + n1);
  let row = 0;
  for (const side of [0, 1] as const) {
    const own = kept[side]!;
    const other = kept[1 - side]!.length;
    const w = own.length < other ? duplicationWeights(own.length, other) : null;
    own.forEach((i, r) => {
      x.set(sets[side].z.subarray(i * k, (i + 1) * k), row * k);
      y[row] = side;
      weights[row++] = w ? w[r]! : 1;
    });
  }
  const { svm, stoppedBy } = await budgetedSvm(x, k, y, weights, settings, rng.int(0, 2 ** 31 - 1), ctl);
  stats.svmIterations = svm.iterations;
  stats.svmConverged = svm.converged;
  stats.svmStoppedBy = stoppedBy;
  let norm = 0;
  for (let r = 0; r < k; r++) norm += svm.weights[r]! ** 2;
  norm = Math.sqrt(norm);
  if (!(norm > 0)) return { plane: null, stats };
  const plane: Hyperplane = { w: Float64Array.from(svm.weights, (v) => v / norm), b: svm.bias / norm };
  const decision = svm.decision(x);
  let agree = 0;
  for (let i = 0; i < n0 + n1; i++) if (decision[i]! >= 0 === (y[i] === 1)) agree++;
  stats.surrogateAccuracy = agree / (n0 + n1);
  return { plane, stats };
}
