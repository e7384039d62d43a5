import type { Rng } from '@fb/core';
import { cholesky, inverseFromCholesky } from './linalg.js';
import { truncatedNormal } from './normal.js';

/** Latent box constraints: coordinate `index[k]` must lie in [lo[k], hi[k]]. */
export interface LatentBox {
  readonly index: Int32Array;
  readonly lo: Float64Array;
  readonly hi: Float64Array;
}

/**
 * Draw n latent rows from N(0, R) (R = the copula's correlation) conditioned on the box, without
 * rejection:
 * 1. the constrained coordinates z_C follow N(0, R_CC) truncated to the box. Each chain starts
 *    from a sequential conditional draw along the Cholesky factor of R_CC (every step a
 *    univariate truncated normal, so it never stalls on rare cells) and then runs `sweeps` Gibbs
 *    sweeps whose full conditionals are univariate truncated normals, so it converges to the
 *    exact truncated law;
 * 2. the free coordinates are drawn exactly from N(K z_C, R_UU - K R_CU) with K = R_UC R_CC^-1,
 *    through the Cholesky factor of R with the constrained coordinates ordered first: its
 *    lower-right block factors that conditional covariance.
 * Everything that does not depend on the row is computed once. Rows are written to `out` from
 * row `rowOffset`.
 */
export function sampleConditionalLatent(
  copula: { readonly correlation: Float64Array },
  box: LatentBox,
  n: number,
  sweeps: number,
  rng: Rng,
  out: Float64Array,
  rowOffset: number,
): void {
  const r = copula.correlation;
  const d = Math.round(Math.sqrt(r.length));
  const m = box.index.length;
  const f = d - m;
  const isConstrained = new Uint8Array(d);
  for (const j of box.index) isConstrained[j] = 1;
  // Coordinates in the order constrained (box order), then free.
  const order = Int32Array.from([
    ...box.index,
    ...Array.from({ length: d }, (_, j) => j).filter((j) => !isConstrained[j]),
  ]);
  const rp = new Float64Array(d * d);
  for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) rp[a * d + b] = r[order[a]! * d + order[b]!]!;
  const lp = cholesky(rp, d)!;
  const lcc = new Float64Array(m * m);
  for (let a = 0; a < m; a++) for (let b = 0; b <= a; b++) lcc[a * m + b] = lp[a * d + b]!;
  const q = m > 0 ? inverseFromCholesky(lcc, m) : new Float64Array(0);
  // Gibbs full conditional of z_a: mean Σ_b coef[a][b] z_b (coef[a][a] = 0), sd 1 / sqrt(q_aa).
  const coef = new Float64Array(m * m);
  const sdCond = new Float64Array(m);
  const invSd = new Float64Array(m);
  const invDiag = new Float64Array(m);
  for (let a = 0; a < m; a++) {
    for (let b = 0; b < m; b++) if (b !== a) coef[a * m + b] = -q[a * m + b]! / q[a * m + a]!;
    invSd[a] = Math.sqrt(q[a * m + a]!);
    sdCond[a] = 1 / invSd[a]!;
    invDiag[a] = 1 / lcc[a * m + a]!;
  }
  // Free coordinates: K (f x m) and the factor of their conditional covariance (f x f).
  const gain = new Float64Array(f * m);
  for (let u = 0; u < f; u++) {
    for (let b = 0; b < m; b++) {
      let s = 0;
      for (let a = 0; a < m; a++) s += rp[(m + u) * d + a]! * q[a * m + b]!;
      gain[u * m + b] = s;
    }
  }
  const luu = new Float64Array(f * f);
  for (let u = 0; u < f; u++) for (let k = 0; k <= u; k++) luu[u * f + k] = lp[(m + u) * d + m + k]!;
  const lo = box.lo;
  const hi = box.hi;
  const zc = new Float64Array(m);
  const eps = new Float64Array(Math.max(f, m));
  for (let row = 0; row < n; row++) {
    // 1. Truncated z_C: sequential start, then Gibbs sweeps.
    for (let a = 0; a < m; a++) {
      let partial = 0;
      for (let b = 0; b < a; b++) partial += lcc[a * m + b]! * eps[b]!;
      const e = truncatedNormal(rng, (lo[a]! - partial) * invDiag[a]!, (hi[a]! - partial) * invDiag[a]!);
      eps[a] = e;
      zc[a] = partial + lcc[a * m + a]! * e;
    }
    for (let s = 0; s < sweeps && m > 1; s++) {
      for (let a = 0; a < m; a++) {
        let mean = 0;
        for (let b = 0; b < m; b++) mean += coef[a * m + b]! * zc[b]!;
        const w = invSd[a]!;
        zc[a] = mean + sdCond[a]! * truncatedNormal(rng, (lo[a]! - mean) * w, (hi[a]! - mean) * w);
      }
    }
    // 2. Free coordinates given z_C.
    const off = (rowOffset + row) * d;
    for (let u = 0; u < f; u++) eps[u] = rng.normal();
    for (let u = 0; u < f; u++) {
      let s = 0;
      for (let b = 0; b < m; b++) s += gain[u * m + b]! * zc[b]!;
      for (let k = 0; k <= u; k++) s += luu[u * f + k]! * eps[k]!;
      out[off + order[m + u]!] = s;
    }
    for (let a = 0; a < m; a++) out[off + order[a]!] = zc[a]!;
  }
}
