import type { Rng } from '@fb/core';
import { cholesky, inverseFromCholesky, lowerTimes } from './linalg.js';
import {
  drawTruncated,
  logNormalMass,
  TRUNCATED_A,
  TRUNCATED_B,
  TRUNCATED_DRAW,
  TRUNCATED_MASS,
  TRUNCATED_SLOTS,
  truncatedDraw,
  truncatedInterval,
  truncatedNormal,
} from './normal.js';
import { tilt, tiltingOrder } from './tilting.js';

/** A product of masses below this is moved into the log (each mass is at least 1e-280). */
const TINY_PRODUCT = 1e-20;

/** Proposals for one row after which sampling gives up (see the acceptance rate below). */
const MAX_PROPOSALS = 100_000;

/** Latent box constraints: coordinate `index[k]` must lie in [lo[k], hi[k]]. */
export interface LatentBox {
  readonly index: Int32Array;
  readonly lo: Float64Array;
  readonly hi: Float64Array;
}

/**
 * Draw n latent rows from N(0, R) (R = the copula's correlation) conditioned on the box, exactly and
 * without a Markov chain:
 * 1. the constrained coordinates z_C follow N(0, R_CC) truncated to the box, drawn by minimax tilting
 *    (see tilting.ts): sequential truncated-normal proposals along the Cholesky factor of R_CC, in the
 *    order `tiltingOrder` picks, with tilted means, accepted with probability exp(ψ - ψ*);
 * 2. the free coordinates are drawn exactly given them: with R factored as L in the order constrained
 *    (the proposal's order), then free, z = L [Z; ε] with Z the accepted innovations and ε ~ N(0, I).
 * Everything that does not depend on the row is computed once. Rows are written to `out` from row
 * `rowOffset`. Returns the number of proposals drawn (n of them were accepted).
 */
export function sampleConditionalLatent(
  copula: { readonly correlation: Float64Array },
  box: LatentBox,
  n: number,
  rng: Rng,
  out: Float64Array,
  rowOffset: number,
): number {
  const r = copula.correlation;
  const d = Math.round(Math.sqrt(r.length));
  const m = box.index.length;
  const rcc = new Float64Array(m * m);
  for (let a = 0; a < m; a++)
    for (let b = 0; b < m; b++) rcc[a * m + b] = r[box.index[a]! * d + box.index[b]!]!;
  const perm = tiltingOrder(rcc, box.lo, box.hi, m);
  const isConstrained = new Uint8Array(d);
  for (const j of box.index) isConstrained[j] = 1;
  // Coordinates in the order constrained (the tilting's order), then free.
  const order = Int32Array.from([
    ...Array.from(perm, (k) => box.index[k]!),
    ...Array.from({ length: d }, (_, j) => j).filter((j) => !isConstrained[j]),
  ]);
  const rp = new Float64Array(d * d);
  for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) rp[a * d + b] = r[order[a]! * d + order[b]!]!;
  const lp = cholesky(rp, d)!;
  const lcc = new Float64Array(m * m);
  for (let a = 0; a < m; a++) for (let b = 0; b <= a; b++) lcc[a * m + b] = lp[a * d + b]!;
  const boxLo = Float64Array.from(perm, (k) => box.lo[k]!);
  const boxHi = Float64Array.from(perm, (k) => box.hi[k]!);
  const t = tilt(lcc, boxLo, boxHi, m);
  if (!t) {
    sampleByGibbs(lp, lcc, d, m, boxLo, boxHi, n, rng, out, rowOffset, order);
    return n;
  }
  const { l, lo, hi, mu, psiStar } = t;
  // The part of log p that does not depend on the draws.
  let logpBase = 0;
  for (let k = 0; k < m; k++) logpBase += 0.5 * mu[k]! * mu[k]!;
  const innovations = new Float64Array(d);
  const draw = new Float64Array(TRUNCATED_SLOTS);
  // The first coordinate's interval is the same for every proposal (no innovation before it shifts it).
  const shift0 = m > 0 ? mu[0]! + 0 : 0;
  const first = m > 0 ? truncatedInterval(lo[0]! - shift0, hi[0]! - shift0) : null;
  let proposals = 0;
  for (let row = 0; row < n; row++) {
    // 1. Proposals until one is accepted (the acceptance rate is exp(log P(box) - ψ*), above 0.7 on
    // every box tried, rare ones included: a row that needs this many means the tilting is wrong).
    for (let tries = 0; ; tries++) {
      if (tries === MAX_PROPOSALS)
        throw new Error(`conditional sampling: no proposal accepted in ${MAX_PROPOSALS} (ψ* = ${psiStar})`);
      proposals++;
      // log p = logpBase + Σ_k (log P_k - μ_k z_k), with the masses P_k multiplied (one logarithm per
      // proposal, not one per coordinate) and moved into `logp` before their product could underflow.
      let logp = logpBase;
      let masses = 1;
      for (let k = 0; k < m; k++) {
        let c = 0;
        for (let j = 0; j < k; j++) c += l[k * m + j]! * innovations[j]!;
        const shift = mu[k]! + c;
        draw[TRUNCATED_A] = lo[k]! - shift;
        draw[TRUNCATED_B] = hi[k]! - shift;
        if (k === 0) drawTruncated(rng, first!, draw, false);
        else truncatedDraw(rng, draw, false);
        const z = mu[k]! + draw[TRUNCATED_DRAW]!;
        innovations[k] = z;
        logp -= mu[k]! * z;
        const mass = draw[TRUNCATED_MASS]!;
        if (mass === 0) logp += logNormalMass(draw[TRUNCATED_A]!, draw[TRUNCATED_B]!);
        else masses *= mass;
        if (masses < TINY_PRODUCT) {
          logp += Math.log(masses);
          masses = 1;
        }
      }
      logp += Math.log(masses);
      // Accept with probability exp(logp - ψ*): an Exp(1) draw at least ψ* - logp.
      if (-Math.log(1 - rng.next()) >= psiStar - logp) break;
    }
    // 2. Free coordinates, then z = L [Z; ε].
    rng.zigguratNormals(innovations, m, d);
    lowerTimes(lp, d, innovations, 0, out, (rowOffset + row) * d, order);
  }
  return proposals;
}

/** Gibbs sweeps after the sequential start, in `sampleByGibbs`. */
const GIBBS_SWEEPS = 10;

/**
 * The fallback for boxes the tilting cannot solve (see `tilt`): each row starts from a sequential
 * draw along the factor (every step a univariate truncated normal, so it never stalls) and runs
 * GIBBS_SWEEPS Gibbs sweeps whose full conditionals are univariate truncated normals. The rows stay
 * in the box; their law is that of the chain after those sweeps, close to but not exactly the
 * truncated law. `lp` is the factor of R in `order` (constrained first) and `lcc` its constrained
 * block, the box in the same order; the free coordinates are drawn given z_C as in the tilted path.
 */
function sampleByGibbs(
  lp: Float64Array,
  lcc: Float64Array,
  d: number,
  m: number,
  lo: Float64Array,
  hi: Float64Array,
  n: number,
  rng: Rng,
  out: Float64Array,
  rowOffset: number,
  order: Int32Array,
): void {
  const q = inverseFromCholesky(lcc, m);
  // Full conditional of z_a: mean Σ_b coef[a][b] z_b (coef[a][a] = 0), sd 1 / sqrt(q_aa).
  const coef = new Float64Array(m * m);
  const invSd = new Float64Array(m);
  for (let a = 0; a < m; a++) {
    for (let b = 0; b < m; b++) if (b !== a) coef[a * m + b] = -q[a * m + b]! / q[a * m + a]!;
    invSd[a] = Math.sqrt(q[a * m + a]!);
  }
  const zc = new Float64Array(m);
  const innovations = new Float64Array(d);
  for (let row = 0; row < n; row++) {
    for (let a = 0; a < m; a++) {
      let partial = 0;
      for (let b = 0; b < a; b++) partial += lcc[a * m + b]! * innovations[b]!;
      const da = lcc[a * m + a]!;
      const e = truncatedNormal(rng, (lo[a]! - partial) / da, (hi[a]! - partial) / da);
      innovations[a] = e;
      zc[a] = partial + da * e;
    }
    for (let s = 0; s < GIBBS_SWEEPS && m > 1; s++) {
      for (let a = 0; a < m; a++) {
        let mean = 0;
        for (let b = 0; b < m; b++) mean += coef[a * m + b]! * zc[b]!;
        const w = invSd[a]!;
        zc[a] = mean + truncatedNormal(rng, (lo[a]! - mean) * w, (hi[a]! - mean) * w) / w;
      }
    }
    // The innovations of z_C (forward substitution), then z = L [Z; ε] as in the tilted path.
    for (let a = 0; a < m; a++) {
      let s = zc[a]!;
      for (let b = 0; b < a; b++) s -= lcc[a * m + b]! * innovations[b]!;
      innovations[a] = s / lcc[a * m + a]!;
    }
    rng.zigguratNormals(innovations, m, d);
    const off = (rowOffset + row) * d;
    for (let a = 0; a < m; a++) out[off + order[a]!] = zc[a]!;
    for (let a = m; a < d; a++) {
      let s = 0;
      for (let b = 0; b <= a; b++) s += lp[a * d + b]! * innovations[b]!;
      out[off + order[a]!] = s;
    }
  }
}
