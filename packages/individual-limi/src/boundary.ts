import type { CountingClassifier, Rng, RunController } from '@fb/core';
import { fitLinearSvmArrays } from '@fb/models';
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
  /** The most passes the fit was allowed: `svmMaxIter`, or fewer when the time budget limited them. */
  svmPassLimit: number;
  /** What ended the fit: convergence, `svmMaxIter`, or the share of the time budget it was given. */
  svmStoppedBy: 'converged' | 'max-iter' | 'time-budget' | null;
}

/** Passes of the first fit under a time budget. */
const TRIAL_PASSES = 5;

/**
 * The linear SVM of the boundary, within `maxIter` passes and, under a time budget, within half the
 * time left. The solver cannot be interrupted, so under a budget it is run with growing pass limits
 * (5, then 4 times more each time), each fit's time per pass bounding the next limit, until a fit
 * converges or the next would not fit in half the time left: at most a third more passes than the
 * last fit's. Fits with the same seed are deterministic, so a converged fit is the one a single fit
 * with `maxIter` passes gives.
 */
function budgetedSvm(
  x: Float64Array,
  k: number,
  y: Int32Array,
  weights: Float64Array,
  c: number,
  maxIter: number,
  seed: number,
  ctl: RunController,
): { svm: ReturnType<typeof fitLinearSvmArrays>; limit: number; stoppedBy: BoundaryStats['svmStoppedBy'] } {
  const fit = (passes: number) => fitLinearSvmArrays(x, k, y, { c, maxIter: passes, seed }, weights);
  if (!Number.isFinite(ctl.remainingSeconds())) {
    const svm = fit(maxIter);
    return { svm, limit: maxIter, stoppedBy: svm.converged ? 'converged' : 'max-iter' };
  }
  let limit = Math.min(TRIAL_PASSES, maxIter);
  for (;;) {
    const t = performance.now();
    const svm = fit(limit);
    if (svm.converged) return { svm, limit, stoppedBy: 'converged' };
    if (limit >= maxIter) return { svm, limit, stoppedBy: 'max-iter' };
    const perPass = (performance.now() - t) / 1000 / limit;
    const affordable = Math.floor((0.5 * ctl.remainingSeconds()) / Math.max(perPass, 1e-9));
    const next = Math.min(maxIter, 4 * limit, affordable);
    if (next <= limit) return { svm, limit, stoppedBy: 'time-budget' };
    limit = next;
  }
}

/** Latent samples decoded and labelled per model call. */
const CHUNK = 8192;

/**
 * LIMI's surrogate boundary: sample latent vectors from N(0, I), decode them, label them with the model
 * (favourable outcome = 1), keep the confident ones (predicted-class probability above `confidence`,
 * at most `perClassLimit` per class), and fit a linear SVM in the latent space, the classes balanced
 * by weight. Returns the hyperplane normalised to a unit normal, or a null plane when the confident
 * samples hold a single class; null altogether when the run is stopped.
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
    svmPassLimit: settings.maxIter,
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
  const { svm, limit, stoppedBy } = budgetedSvm(
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
  stats.svmPassLimit = limit;
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
