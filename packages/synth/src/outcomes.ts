/**
 * Phase 4 on a block of rows: the outcome model's logits, the injected bias, aleatoric noise, labels and
 * counterfactuals (the epistemic sigma is computed apart, when read: see epistemic.ts). Blocks are one subgroup's rows or the background rows, each with
 * a random stream of its own, so that blocks can run on any thread in any order with the same result.
 */
import type { Rng, Schema } from '@fb/core';
import type { BiasIndex, BiasScan } from './bias-index.js';
import { sigmoid } from './normal.js';
import { baseLogits, type OutcomeModel } from './outcome-model.js';

/** What every block needs to draw its outcomes. */
export interface OutcomeSetup {
  readonly schema: Schema;
  readonly model: OutcomeModel;
  /** Logit of the noise-free decision threshold. */
  readonly tau: number;
  readonly threshold: number;
  readonly bernoulli: boolean;
  /** Background rows draw their aleatoric sigma from U(minAleatoric, maxAleatoric). */
  readonly minAleatoric: number;
  readonly maxAleatoric: number;
}

/** Per-row results of phase 4 (row-aligned with the rows). */
export interface OutcomeArrays {
  readonly bias: Float64Array;
  readonly aleatoricSigma: Float64Array;
  readonly aleatoricNoise: Float64Array;
  readonly probability: Float64Array;
  readonly counterfactualProbability: Float64Array;
  readonly y: Int32Array;
  readonly counterfactualLabel: Int32Array;
}

/** Per-block sums written by `drawOutcomes`: rows, Σ σ(η + β), Σ y, noisy labels. */
export const BLOCK_SUMS = 4;

/** Per-row arrays of n rows, in shared memory when `shared` (for helper threads to write). */
export function outcomeArrays(n: number, shared: boolean): OutcomeArrays {
  const f64 = () => new Float64Array(shared ? new SharedArrayBuffer(8 * n) : new ArrayBuffer(8 * n));
  const i32 = () => new Int32Array(shared ? new SharedArrayBuffer(4 * n) : new ArrayBuffer(4 * n));
  return {
    bias: f64(),
    aleatoricSigma: f64(),
    aleatoricNoise: f64(),
    probability: f64(),
    counterfactualProbability: f64(),
    y: i32(),
    counterfactualLabel: i32(),
  };
}

/**
 * The counterfactual of input i (see GroundTruth): 0 = the minimum-bias combination, 1 = the
 * maximum-bias one, 2 = the lowest other combination (all equal); +4 when it flips the decision.
 */
export function counterfactualPick(eta: number, s: BiasScan, i: number, tau: number): number {
  const beta = s.beta[i]!;
  const dec = eta + beta >= tau;
  if (dec && eta + s.minBeta[i]! < tau) return 4;
  if (!dec && eta + s.maxBeta[i]! >= tau) return 5;
  const dMin = Math.abs(s.minBeta[i]! - beta);
  const dMax = Math.abs(s.maxBeta[i]! - beta);
  if (dMin === 0 && dMax === 0) return 2;
  return dMin > dMax || (dMin === dMax && s.minCombo[i]! < s.maxCombo[i]!) ? 0 : 1;
}

/** The bias, and the protected combination, that `counterfactualPick`'s answer names. */
export const pickedBeta = (s: BiasScan, i: number, pick: number) =>
  (pick & 3) === 0 ? s.minBeta[i]! : (pick & 3) === 1 ? s.maxBeta[i]! : s.beta[i]!;
export const pickedCombo = (s: BiasScan, i: number, pick: number) =>
  (pick & 3) === 0 ? s.minCombo[i]! : (pick & 3) === 1 ? s.maxCombo[i]! : s.otherCombo[i]!;

/**
 * Outcomes of rows lo..hi-1 of x (row-major, values) into `out` at the same rows, and the block's sums
 * into sums[at..at+BLOCK_SUMS). `aleatoric` is the block's subgroup's sigma, or null for background rows
 * (a sigma drawn per row), or per row of x a sigma, NaN where one is drawn. From `rng`: the block's
 * standard normal noises (`zigguratNormals`), then per row the sigma (drawn ones only) and the uniform
 * of the label; the counterfactual label reuses both.
 * `clean`, when given, receives each row's noise-free σ(η + β).
 */
export function drawOutcomes(
  setup: OutcomeSetup,
  index: BiasIndex,
  x: Float64Array,
  lo: number,
  hi: number,
  aleatoric: number | Float64Array | null,
  rng: Rng,
  out: OutcomeArrays,
  sums: Float64Array,
  at: number,
  clean?: Float64Array,
): void {
  const { schema, model, tau, threshold, bernoulli } = setup;
  const d = schema.attributes.length;
  const n = hi - lo;
  const rows = x.subarray(lo * d, hi * d);
  const eta = baseLogits(schema, model, rows, n);
  const scan = index.scan(rows, n);
  const label = (p: number, u: number) => (bernoulli ? (u < p ? 1 : 0) : p >= threshold ? 1 : 0);
  let meanSum = 0;
  let favourable = 0;
  let noisy = 0;
  // The block's standard normals first, in one batch; then per row its sigma (when drawn) and uniform.
  const noise = new Float64Array(n);
  rng.zigguratNormals(noise);
  for (let i = 0; i < n; i++) {
    const row = lo + i;
    const given = aleatoric === null || typeof aleatoric === 'number' ? aleatoric : aleatoric[row]!;
    const sa =
      given === null || Number.isNaN(given) ? rng.uniform(setup.minAleatoric, setup.maxAleatoric) : given;
    const eps = sa * noise[i]!;
    const u = rng.next();
    const beta = scan.beta[i]!;
    const p = sigmoid(eta[i]! + beta + eps);
    const pc = sigmoid(eta[i]! + pickedBeta(scan, i, counterfactualPick(eta[i]!, scan, i, tau)) + eps);
    const noiseFree = sigmoid(eta[i]! + beta);
    const y = label(p, u);
    out.bias[row] = beta;
    out.aleatoricSigma[row] = sa;
    out.aleatoricNoise[row] = eps;
    out.probability[row] = p;
    out.counterfactualProbability[row] = pc;
    out.y[row] = y;
    out.counterfactualLabel[row] = label(pc, u);
    if (y !== label(noiseFree, u)) noisy++;
    if (clean) clean[row] = noiseFree;
    meanSum += noiseFree;
    favourable += y;
  }
  sums[at] = n;
  sums[at + 1] = meanSum;
  sums[at + 2] = favourable;
  sums[at + 3] = noisy;
}
