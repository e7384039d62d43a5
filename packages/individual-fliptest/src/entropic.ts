import type { RunController } from '@fb/core';
import { squaredL1 } from './features.js';
import { interrupts } from './stops.js';

export interface SinkhornResult {
  /** The Gibbs kernel exp(-(C_ij - rowMin_i) / epsilon), n x m, in single precision. */
  kernel: Float32Array;
  /** Scalings of the plan P_ij = u_i K_ij v_j. */
  u: Float64Array;
  v: Float64Array;
  epsilon: number;
  iterations: number;
  /** Total absolute error of the source marginal when the iterations stopped. */
  marginalError: number;
  /** Expected cost of the plan, sum P_ij C_ij / sum P_ij (the entropic OT objective without entropy). */
  planCost: number;
}

/** Floor on a kernel-vector product, so that a vanishing column cannot produce an infinite scaling. */
const TINY = 1e-300;

/**
 * Entropic optimal transport (Cuturi, "Sinkhorn Distances", NeurIPS 2013) between the standardised
 * rows `a` (n x p) and `b` (m x p) with uniform masses 1/n and 1/m and FlipTest's squared-L1 cost.
 * epsilon = `entropy` x the mean cost. The kernel is built row by row without an n x m cost matrix
 * and kept in single precision (4 n m bytes); each row is shifted by its minimum cost, which only
 * rescales u, so that no row underflows. Returns null when the run is stopped.
 */
export async function sinkhorn(
  a: Float64Array,
  n: number,
  b: Float64Array,
  m: number,
  p: number,
  entropy: number,
  maxIterations: number,
  tolerance: number,
  ctl: RunController,
): Promise<SinkhornResult | null> {
  const rowMin = new Float64Array(n);
  const row = new Float64Array(m);
  let mean = 0;
  for (let i = 0; i < n; i++) {
    let min = Number.POSITIVE_INFINITY;
    for (let j = 0; j < m; j++) {
      const c = squaredL1(a, i * p, b, j * p, p);
      mean += c;
      if (c < min) min = c;
    }
    rowMin[i] = min;
  }
  mean /= n * m;
  const epsilon = entropy * (mean > 0 ? mean : 1);
  const kernel = new Float32Array(n * m);
  for (let i = 0; i < n; i++) {
    if (interrupts(ctl.shouldStop())) return null;
    for (let j = 0; j < m; j++) row[j] = squaredL1(a, i * p, b, j * p, p);
    for (let j = 0; j < m; j++) kernel[i * m + j] = Math.exp(-(row[j]! - rowMin[i]!) / epsilon);
  }
  const massA = 1 / n;
  const massB = 1 / m;
  const u = new Float64Array(n).fill(1);
  const v = new Float64Array(m).fill(1);
  const ktu = new Float64Array(m);
  let marginalError = Number.POSITIVE_INFINITY;
  let iterations = 0;
  while (iterations < maxIterations) {
    if (interrupts(await ctl.checkpoint({ phase: 'entropic-ot', done: iterations, total: maxIterations }))) {
      return null;
    }
    iterations++;
    // u = a / (K v), measuring on the way how far the previous (u, v) was from the source marginal.
    marginalError = 0;
    for (let i = 0; i < n; i++) {
      let kv = 0;
      for (let j = 0; j < m; j++) kv += kernel[i * m + j]! * v[j]!;
      kv = Math.max(kv, TINY);
      marginalError += Math.abs(u[i]! * kv - massA);
      u[i] = massA / kv;
    }
    if (iterations > 1 && marginalError <= tolerance) break;
    ktu.fill(0);
    for (let i = 0; i < n; i++) {
      const ui = u[i]!;
      for (let j = 0; j < m; j++) ktu[j]! += kernel[i * m + j]! * ui;
    }
    for (let j = 0; j < m; j++) v[j] = massB / Math.max(ktu[j]!, TINY);
  }
  // The cost is recovered from the kernel: C_ij = rowMin_i - epsilon log K_ij where K_ij > 0.
  let mass = 0;
  let planCost = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      const k = kernel[i * m + j]!;
      if (k === 0) continue;
      const w = u[i]! * k * v[j]!;
      mass += w;
      planCost += w * (rowMin[i]! - epsilon * Math.log(k));
    }
  }
  return { kernel, u, v, epsilon, iterations, marginalError, planCost: planCost / mass };
}
