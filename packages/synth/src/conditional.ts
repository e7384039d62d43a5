import type { Rng } from '@fb/core';
import type { GaussianCopula } from './copula.js';
import { cholesky, inverseFromCholesky } from './linalg.js';
import { truncatedNormal } from './normal.js';

/** Latent box constraints: coordinate `index[k]` must lie in [lo[k], hi[k]]. */
export interface LatentBox {
  readonly index: Int32Array;
  readonly lo: Float64Array;
  readonly hi: Float64Array;
}

/**
 * Draw n latent rows from N(0, R) conditioned on the box, without rejection:
 * 1. the constrained coordinates z_C follow N(0, R_CC) truncated to the box. Each chain starts
 *    from a sequential conditional draw along the Cholesky factor of R_CC (every step a
 *    univariate truncated normal, so it never stalls on rare cells) and then runs `sweeps` Gibbs
 *    sweeps whose full conditionals are univariate truncated normals, so it converges to the
 *    exact truncated law;
 * 2. the free coordinates are drawn exactly from N(R_UC R_CC^-1 z_C, R_UU - R_UC R_CC^-1 R_CU),
 *    by conditioning an unconditional draw (z + R_{.C} R_CC^-1 (z_C - z*_C), Matheron's rule).
 * Rows are written to `out` from row `rowOffset`.
 */
export function sampleConditionalLatent(
  copula: GaussianCopula,
  box: LatentBox,
  n: number,
  sweeps: number,
  rng: Rng,
  out: Float64Array,
  rowOffset: number,
): void {
  const d = copula.marginals.length;
  const r = copula.correlation;
  const l = copula.cholesky;
  const m = box.index.length;
  const idx = box.index;
  const rcc = new Float64Array(m * m);
  for (let a = 0; a < m; a++) for (let b = 0; b < m; b++) rcc[a * m + b] = r[idx[a]! * d + idx[b]!]!;
  const lcc = m > 0 ? cholesky(rcc, m)! : new Float64Array(0);
  const q = m > 0 ? inverseFromCholesky(lcc, m) : new Float64Array(0);
  // Gain K = R_{.C} Q (d x m).
  const gain = new Float64Array(d * m);
  for (let i = 0; i < d; i++) {
    for (let b = 0; b < m; b++) {
      let s = 0;
      for (let a = 0; a < m; a++) s += r[i * d + idx[a]!]! * q[a * m + b]!;
      gain[i * m + b] = s;
    }
  }
  const sdCond = Float64Array.from({ length: m }, (_, a) => 1 / Math.sqrt(q[a * m + a]!));
  const zc = new Float64Array(m);
  const eps = new Float64Array(Math.max(d, m));
  const delta = new Float64Array(m);
  for (let row = 0; row < n; row++) {
    // 1. Truncated z_C: sequential start, then Gibbs sweeps.
    for (let a = 0; a < m; a++) {
      let partial = 0;
      for (let b = 0; b < a; b++) partial += lcc[a * m + b]! * eps[b]!;
      const diag = lcc[a * m + a]!;
      eps[a] = truncatedNormal(rng, (box.lo[a]! - partial) / diag, (box.hi[a]! - partial) / diag);
      zc[a] = partial + diag * eps[a]!;
    }
    for (let s = 0; s < sweeps && m > 1; s++) {
      for (let a = 0; a < m; a++) {
        let mean = 0;
        for (let b = 0; b < m; b++) if (b !== a) mean -= q[a * m + b]! * zc[b]!;
        mean /= q[a * m + a]!;
        const sd = sdCond[a]!;
        zc[a] = mean + sd * truncatedNormal(rng, (box.lo[a]! - mean) / sd, (box.hi[a]! - mean) / sd);
      }
    }
    // 2. Unconditional draw, then condition on z_C.
    const off = (rowOffset + row) * d;
    for (let k = 0; k < d; k++) eps[k] = rng.normal();
    for (let i = 0; i < d; i++) {
      let s = 0;
      for (let k = 0; k <= i; k++) s += l[i * d + k]! * eps[k]!;
      out[off + i] = s;
    }
    for (let a = 0; a < m; a++) delta[a] = zc[a]! - out[off + idx[a]!]!;
    for (let i = 0; i < d; i++) {
      let s = 0;
      for (let b = 0; b < m; b++) s += gain[i * m + b]! * delta[b]!;
      out[off + i]! += s;
    }
    for (let a = 0; a < m; a++) out[off + idx[a]!] = zc[a]!;
  }
}
