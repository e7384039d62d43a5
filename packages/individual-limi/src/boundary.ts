import type { CountingClassifier, Rng, RunController } from '@fb/core';
import { fitLinearSvmArraysAsync, type LinearBoundary } from '@fb/models';
import type { LatentGenerator } from './generator.js';
import type { Hyperplane } from './probe.js';

export interface BoundarySettings {
  samples: number;
  confidence: number;
  perClassLimit: number;
  c: number;
  maxIter: number;
}

export interface BoundaryStats {
  /** Latent samples decoded and labelled. */
  sampled: number;
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
  c: number,
  maxIter: number,
  seed: number,
  ctl: RunController,
): Promise<{ svm: LinearBoundary; stoppedBy: BoundaryStats['svmStoppedBy'] }> {
  const deadline = performance.now() + 0.5 * ctl.remainingSeconds() * 1000;
  const between = async () =>
    (await ctl.checkpoint({ phase: 'boundary-svm' })) !== null || performance.now() >= deadline;
  const svm = await fitLinearSvmArraysAsync(x, k, y, { c, maxIter, seed }, weights, between);
  if (!svm.stopped) return { svm, stoppedBy: svm.converged ? 'converged' : 'max-iter' };
  return { svm, stoppedBy: ctl.shouldStop() === 'aborted' ? 'aborted' : 'time-budget' };
}

/** Latent samples decoded and labelled per model call. */
const CHUNK = 8192;

/**
 * LIMI's surrogate boundary: sample latent vectors from N(0, I), decode them, label them with the model
 * (favourable outcome = 1), keep the confident ones (predicted-class probability above `confidence`,
 * at most `perClassLimit` per class), and fit a linear SVM in the latent space, the classes balanced
 * by weight. Returns the hyperplane normalised to a unit normal, or a null plane when the confident
 * samples hold a single class; null altogether when the run is stopped while sampling (a stop during
 * the SVM's fit keeps the boundary so far, with `svmStoppedBy` saying why).
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
  const kept = [new Float64Array(settings.perClassLimit * k), new Float64Array(settings.perClassLimit * k)];
  const count = [0, 0];
  const c = model.nClasses;
  for (let done = 0; done < settings.samples; done += CHUNK) {
    if (await ctl.checkpoint({ phase: 'boundary', done, total: settings.samples })) return null;
    const m = Math.min(CHUNK, settings.samples - done);
    const z = Float64Array.from({ length: m * k }, () => rng.normal());
    const rows = generator.decode(z, m);
    const proba = model.hasProba ? model.predictProba(rows) : null;
    const labels = proba ? null : model.predict(rows);
    for (let i = 0; i < m; i++) {
      let label = labels ? labels[i]! : 0;
      if (proba) {
        for (let q = 1; q < c; q++) if (proba[i * c + q]! > proba[i * c + label]!) label = q;
        if (!(proba[i * c + label]! > settings.confidence)) continue;
      }
      const side = label === favorable ? 1 : 0;
      if (count[side]! >= settings.perClassLimit) continue;
      kept[side]!.set(z.subarray(i * k, (i + 1) * k), count[side]! * k);
      count[side]!++;
    }
  }
  const [n0, n1] = count as [number, number];
  const stats: BoundaryStats = {
    sampled: settings.samples,
    favourable: n1,
    unfavourable: n0,
    surrogateAccuracy: null,
    svmIterations: 0,
    svmConverged: false,
    svmStoppedBy: null,
  };
  if (n0 === 0 || n1 === 0) return { plane: null, stats };
  const x = new Float64Array((n0 + n1) * k);
  x.set(kept[0]!.subarray(0, n0 * k));
  x.set(kept[1]!.subarray(0, n1 * k), n0 * k);
  const y = new Int32Array(n0 + n1);
  y.fill(1, n0);
  // Weighting the smaller class by the ratio of sizes stands for duplicating it (the paper's balancing).
  const weights = new Float64Array(n0 + n1);
  weights.fill(Math.max(n0, n1) / n0, 0, n0);
  weights.fill(Math.max(n0, n1) / n1, n0);
  const { svm, stoppedBy } = await budgetedSvm(
    x,
    k,
    y,
    weights,
    settings.c,
    settings.maxIter,
    rng.int(0, 2 ** 31 - 1),
    ctl,
  );
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
