/**
 * Minimax tilting (Botev 2017, "The normal law under linear restrictions: simulation and estimation via
 * minimax tilting", JRSS B 79(1), 125-148; his TruncatedNormal code's `cholperm`, `gradpsi` and `psy`):
 * exact independent draws of N(0, Σ) restricted to a box l <= z <= u.
 *
 * Write z = L Z with L the Cholesky factor of Σ, scaled so that the box reads
 * l_k <= Z_k + c_k(Z) <= u_k, c_k = Σ_{j<k} L_kj Z_j (L unit-diagonal from here on). The proposal draws
 * Z_k in order from N(μ_k, 1) truncated to that interval; a proposal is accepted with probability
 * exp(ψ(Z; μ) - ψ*), where
 *   ψ(x; μ) = Σ_k [ μ_k²/2 - x_k μ_k + log P(l_k - c_k(x) - μ_k < N(0,1) < u_k - c_k(x) - μ_k) ]
 * is the log of the target density over the proposal's, and ψ* = ψ(x*; μ*) at the saddle point
 * min_μ max_x ψ(x; μ) (with x_m = μ_m = 0). ψ is concave in x, so ψ(Z; μ*) <= ψ* for every Z and the
 * accepted Z follow the truncated law exactly; the saddle point makes the acceptance rate as high as
 * this family of proposals allows (exp(ψ*) bounds P(box) from above, and acceptance = P(box) / exp(ψ*)).
 */
import { solveLinear } from './linalg.js';
import { logNormalMass } from './normal.js';

const INV_SQRT_2PI = 0.3989422804014327;

/** A box ready for tilted sampling: its unit-diagonal factor, scaled bounds and tilting. */
export interface Tilting {
  readonly m: number;
  /** Strictly lower part of the unit-diagonal factor (row-major m x m; 0 on and above the diagonal). */
  readonly l: Float64Array;
  /** Scaled bounds: l_k <= Z_k + c_k <= u_k. */
  readonly lo: Float64Array;
  readonly hi: Float64Array;
  /** The saddle point: proposal means μ (μ_{m-1} = 0), the maximising x, and ψ* = ψ(x; μ). */
  readonly mu: Float64Array;
  readonly x: Float64Array;
  readonly psiStar: number;
}

/**
 * The order in which to factor the box's coordinates (Botev's `cholperm`, after Genz and Bretz): at
 * each step the coordinate whose interval, given the expected values of those already placed, has the
 * least probability. Hard constraints first makes the later proposals better informed and raises the
 * acceptance rate. Returns the order as indices into the box.
 */
export function tiltingOrder(sigma: Float64Array, lo: Float64Array, hi: Float64Array, m: number): Int32Array {
  const s = Float64Array.from(sigma);
  const l = Float64Array.from(lo);
  const u = Float64Array.from(hi);
  const perm = Int32Array.from({ length: m }, (_, i) => i);
  const f = new Float64Array(m * m);
  const z = new Float64Array(m);
  const swap = (a: Float64Array | Int32Array, i: number, j: number) => {
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  };
  for (let j = 0; j < m; j++) {
    let best = j;
    let bestMass = Number.POSITIVE_INFINITY;
    for (let i = j; i < m; i++) {
      let v = s[i * m + i]!;
      let c = 0;
      for (let k = 0; k < j; k++) {
        v -= f[i * m + k]! ** 2;
        c += f[i * m + k]! * z[k]!;
      }
      const sd = Math.sqrt(Math.max(v, Number.EPSILON));
      const mass = logNormalMass((l[i]! - c) / sd, (u[i]! - c) / sd);
      if (mass < bestMass) {
        bestMass = mass;
        best = i;
      }
    }
    if (best !== j) {
      for (let k = 0; k < m; k++) swap(s, j * m + k, best * m + k);
      for (let k = 0; k < m; k++) swap(s, k * m + j, k * m + best);
      for (let k = 0; k < j; k++) swap(f, j * m + k, best * m + k);
      swap(l, j, best);
      swap(u, j, best);
      swap(perm, j, best);
    }
    let v = s[j * m + j]!;
    for (let k = 0; k < j; k++) v -= f[j * m + k]! ** 2;
    const d = Math.sqrt(Math.max(v, Number.EPSILON));
    f[j * m + j] = d;
    for (let i = j + 1; i < m; i++) {
      let t = s[i * m + j]!;
      for (let k = 0; k < j; k++) t -= f[i * m + k]! * f[j * m + k]!;
      f[i * m + j] = t / d;
    }
    // The expected value of the truncated normal at j, for the conditional intervals of the next steps.
    let c = 0;
    for (let k = 0; k < j; k++) c += f[j * m + k]! * z[k]!;
    const tl = (l[j]! - c) / d;
    const tu = (u[j]! - c) / d;
    const w = logNormalMass(tl, tu);
    z[j] = (Math.exp(-0.5 * tl * tl - w) - Math.exp(-0.5 * tu * tu - w)) * INV_SQRT_2PI;
  }
  return perm;
}

/**
 * Per coordinate k at (x, μ): the shifted interval's log mass w_k, the mean P_k of the standard normal
 * truncated to it and dP_k = ∂P_k/∂μ_k (the derivatives of ψ follow from these).
 */
function intervalTerms(
  t: Pick<Tilting, 'm' | 'l' | 'lo' | 'hi'>,
  x: Float64Array,
  mu: Float64Array,
  w: Float64Array,
  p: Float64Array,
  dp: Float64Array,
): void {
  const { m, l, lo, hi } = t;
  for (let k = 0; k < m; k++) {
    let c = 0;
    for (let j = 0; j < k; j++) c += l[k * m + j]! * x[j]!;
    const lt = lo[k]! - mu[k]! - c;
    const ut = hi[k]! - mu[k]! - c;
    const wk = logNormalMass(lt, ut);
    const pl = Math.exp(-0.5 * lt * lt - wk) * INV_SQRT_2PI;
    const pu = Math.exp(-0.5 * ut * ut - wk) * INV_SQRT_2PI;
    w[k] = wk;
    p[k] = pl - pu;
    // An infinite end has zero density: its term t φ(t) is 0.
    dp[k] = -((pl - pu) ** 2) + (Number.isFinite(lt) ? lt * pl : 0) - (Number.isFinite(ut) ? ut * pu : 0);
  }
}

/** ψ(x; μ) (x_{m-1} and μ_{m-1} are read as 0). */
export function psi(t: Pick<Tilting, 'm' | 'l' | 'lo' | 'hi'>, x: Float64Array, mu: Float64Array): number {
  const { m } = t;
  const w = new Float64Array(m);
  intervalTerms(t, x, mu, w, new Float64Array(m), new Float64Array(m));
  let s = 0;
  for (let k = 0; k < m - 1; k++) s += 0.5 * mu[k]! * mu[k]! - x[k]! * mu[k]!;
  for (let k = 0; k < m; k++) s += w[k]!;
  return s;
}

/** Newton iterations allowed, and the gradient's size (max norm) taken as the saddle point. */
const MAX_NEWTON = 200;
const GRADIENT_TOLERANCE = 1e-11;

/**
 * The saddle point of ψ over (x_0..x_{m-2}, μ_0..μ_{m-2}) by Newton's method on ∇ψ = 0 with a
 * backtracking line search on |∇ψ| (Botev solves the same system with a trust-region method). The
 * factor `sigmaFactor` is the lower Cholesky factor of Σ in the box's order; `lo`, `hi` the box.
 * Null when Newton's method does not converge, as on boxes whose coordinates are nearly collinear
 * (a conditional sd near 0.001: Adult's education and education-num) and nearly exclusive.
 */
export function tilt(
  sigmaFactor: Float64Array,
  lo: Float64Array,
  hi: Float64Array,
  m: number,
): Tilting | null {
  const l = new Float64Array(m * m);
  const sl = new Float64Array(m);
  const su = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const d = sigmaFactor[k * m + k]!;
    for (let j = 0; j < k; j++) l[k * m + j] = sigmaFactor[k * m + j]! / d;
    sl[k] = lo[k]! / d;
    su[k] = hi[k]! / d;
  }
  const box = { m, l, lo: sl, hi: su };
  const x = new Float64Array(m);
  const mu = new Float64Array(m);
  const k1 = m - 1;
  const w = new Float64Array(m);
  const p = new Float64Array(m);
  const dp = new Float64Array(m);
  // ∇ψ as [∂/∂x_0..x_{m-2}, ∂/∂μ_0..μ_{m-2}] into g; its max norm is returned.
  const gradient = (xs: Float64Array, ms: Float64Array, g: Float64Array): number => {
    intervalTerms(box, xs, ms, w, p, dp);
    let norm = 0;
    for (let j = 0; j < k1; j++) {
      let s = -ms[j]!;
      for (let k = j + 1; k < m; k++) s += p[k]! * l[k * m + j]!;
      g[j] = s;
      g[k1 + j] = ms[j]! - xs[j]! + p[j]!;
      norm = Math.max(norm, Math.abs(g[j]!), Math.abs(g[k1 + j]!));
    }
    return norm;
  };
  const g = new Float64Array(2 * k1);
  let norm = gradient(x, mu, g);
  for (let it = 0; it < MAX_NEWTON && norm > GRADIENT_TOLERANCE; it++) {
    // Jacobian [[Lᵀ diag(dP) L, Mᵀ], [M, diag(1 + dP)]] with M = -I + diag(dP) L, over the free indices.
    const n2 = 2 * k1;
    const jac = new Float64Array(n2 * n2);
    for (let i = 0; i < k1; i++) {
      for (let j = 0; j < k1; j++) {
        let s = 0;
        for (let k = Math.max(i, j) + 1; k < m; k++) s += l[k * m + i]! * dp[k]! * l[k * m + j]!;
        jac[i * n2 + j] = s;
        const mx = (i === j ? -1 : 0) + dp[i]! * l[i * m + j]!;
        jac[(k1 + i) * n2 + j] = mx;
        jac[j * n2 + k1 + i] = mx;
      }
      jac[(k1 + i) * n2 + k1 + i] = 1 + dp[i]!;
    }
    const step = solveLinear(jac, g, n2);
    if (!step) break;
    const xs = new Float64Array(m);
    const ms = new Float64Array(m);
    const gs = new Float64Array(n2);
    let scale = 1;
    let next = Number.POSITIVE_INFINITY;
    for (let halvings = 0; halvings < 40; halvings++, scale /= 2) {
      for (let j = 0; j < k1; j++) {
        xs[j] = x[j]! - scale * step[j]!;
        ms[j] = mu[j]! - scale * step[k1 + j]!;
      }
      next = gradient(xs, ms, gs);
      if (next < norm) break;
    }
    if (!(next < norm)) break;
    x.set(xs);
    mu.set(ms);
    g.set(gs);
    norm = next;
  }
  if (!(norm <= GRADIENT_TOLERANCE * 1e3)) return null;
  return { ...box, mu, x, psiStar: psi(box, x, mu) };
}
