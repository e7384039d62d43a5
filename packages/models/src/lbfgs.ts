import {
  dot,
  maxAbs,
  type OptimisationResult,
  type SmoothObjective,
  type StoppingRule,
} from './objective.js';

export interface LbfgsRule extends StoppingRule {
  /** Number of correction pairs kept. */
  readonly memory: number;
}

// Strong Wolfe constants (Nocedal & Wright, Numerical Optimization, ch. 3 and 7).
const C1 = 1e-4;
const C2 = 0.9;
const MAX_LINE_EVALS = 40;
// Smallest cosine between the search direction and −∇f before the memory is reset.
const ANGLE = 1e-8;
// Close to the minimum, f differences drown in the rounding of its sum over rows; a step that meets the
// curvature condition is then accepted if f rose by at most this fraction (cf. the approximate Wolfe
// conditions of Hager & Zhang, SIAM J. Optim. 16, 2005).
const F_NOISE = 1e-10;

/**
 * Limited-memory BFGS (Nocedal & Wright, Algorithm 7.5) with the two-loop recursion and a line search
 * for the strong Wolfe conditions (Algorithms 3.5 and 3.6, cubic interpolation in the zoom phase).
 * `theta` is updated in place.
 */
export function minimiseLbfgs(
  objective: SmoothObjective,
  theta: Float64Array,
  rule: LbfgsRule,
): OptimisationResult {
  const m = objective.size;
  const mem = rule.memory;
  const s = Array.from({ length: mem }, () => new Float64Array(m));
  const y = Array.from({ length: mem }, () => new Float64Array(m));
  const rho = new Float64Array(mem);
  const alphaBuf = new Float64Array(mem);
  const grad = new Float64Array(m);
  const dir = new Float64Array(m);
  const search = new LineSearch(objective, m);
  let stored = 0;
  let newest = -1;
  let f = objective.valueAndGradient(theta, grad);
  let iterations = 0;
  while (maxAbs(grad) > rule.tol && iterations < rule.maxIter) {
    // Two-loop recursion: dir = -H·grad.
    for (let i = 0; i < m; i++) dir[i] = -grad[i]!;
    for (let k = 0; k < stored; k++) {
      const t = (newest - k + mem) % mem;
      const a = rho[t]! * dot(s[t]!, dir);
      alphaBuf[t] = a;
      const yt = y[t]!;
      for (let i = 0; i < m; i++) dir[i] = dir[i]! - a * yt[i]!;
    }
    let gamma: number;
    if (stored > 0) {
      const yt = y[newest]!;
      gamma = 1 / (rho[newest]! * dot(yt, yt));
    } else {
      // First step (or after a reset): a unit-length steepest-descent step.
      gamma = 1 / Math.max(Math.sqrt(dot(grad, grad)), 1e-300);
    }
    for (let i = 0; i < m; i++) dir[i] = dir[i]! * gamma;
    for (let k = stored - 1; k >= 0; k--) {
      const t = (newest - k + mem) % mem;
      const b = rho[t]! * dot(y[t]!, dir);
      const st = s[t]!;
      const c = alphaBuf[t]! - b;
      for (let i = 0; i < m; i++) dir[i] = dir[i]! + c * st[i]!;
    }
    let slope = dot(grad, dir);
    if (!(slope < -ANGLE * Math.sqrt(dot(grad, grad) * dot(dir, dir)))) {
      // Not (enough of) a descent direction, from rounding in the curvature pairs: restart from steepest descent.
      stored = 0;
      const g2 = Math.sqrt(dot(grad, grad));
      for (let i = 0; i < m; i++) dir[i] = -grad[i]! / g2;
      slope = -g2;
    }
    const fNew = search.run(theta, f, dir, slope);
    if (fNew === null) {
      if (stored === 0) break;
      stored = 0; // retry once from steepest descent with fresh memory
      continue;
    }
    const slot = (newest + 1) % mem;
    const sNew = s[slot]!;
    const yNew = y[slot]!;
    const xT = search.x;
    const gT = search.g;
    for (let i = 0; i < m; i++) {
      sNew[i] = xT[i]! - theta[i]!;
      yNew[i] = gT[i]! - grad[i]!;
    }
    const sy = dot(sNew, yNew);
    if (sy > 1e-12 * Math.sqrt(dot(sNew, sNew) * dot(yNew, yNew))) {
      rho[slot] = 1 / sy;
      newest = slot;
      stored = Math.min(stored + 1, mem);
    }
    theta.set(xT);
    grad.set(gT);
    f = fNew;
    iterations++;
  }
  const gradientNorm = maxAbs(grad);
  return { value: f, gradientNorm, iterations, converged: gradientNorm <= rule.tol };
}

/** Strong Wolfe line search; the accepted point and its gradient are left in `x` and `g`. */
class LineSearch {
  readonly x: Float64Array;
  readonly g: Float64Array;
  private evals = 0;
  private base!: Float64Array;
  private dir!: Float64Array;

  constructor(
    private readonly objective: SmoothObjective,
    m: number,
  ) {
    this.x = new Float64Array(m);
    this.g = new Float64Array(m);
  }

  /** Returns the objective at the accepted point, or null when no acceptable step was found. */
  run(base: Float64Array, f0: number, dir: Float64Array, slope0: number): number | null {
    this.base = base;
    this.dir = dir;
    this.evals = 0;
    const slack = F_NOISE * Math.abs(f0);
    const armijo = (a: number, fa: number): boolean => fa <= f0 + C1 * a * slope0 + slack;
    let aPrev = 0;
    let fPrev = f0;
    let dPrev = slope0;
    let a = 1;
    for (let i = 0; this.evals < MAX_LINE_EVALS; i++) {
      const fa = this.evaluate(a);
      const da = dot(this.g, dir);
      if (!Number.isFinite(fa) || !armijo(a, fa) || (i > 0 && fa > fPrev + slack)) {
        return this.zoom(aPrev, fPrev, dPrev, a, fa, da, f0, slope0, slack, armijo);
      }
      if (Math.abs(da) <= -C2 * slope0) return fa;
      if (da >= 0) return this.zoom(a, fa, da, aPrev, fPrev, dPrev, f0, slope0, slack, armijo);
      aPrev = a;
      fPrev = fa;
      dPrev = da;
      a *= 2;
    }
    return null;
  }

  private zoom(
    lo: number,
    fLo: number,
    dLo: number,
    hi: number,
    fHi: number,
    dHi: number,
    f0: number,
    slope0: number,
    slack: number,
    armijo: (a: number, fa: number) => boolean,
  ): number | null {
    while (this.evals < MAX_LINE_EVALS) {
      const a = interpolate(lo, fLo, dLo, hi, fHi, dHi);
      const fa = this.evaluate(a);
      const da = dot(this.g, this.dir);
      if (!Number.isFinite(fa) || !armijo(a, fa) || fa > fLo + slack) {
        hi = a;
        fHi = fa;
        dHi = da;
      } else {
        if (Math.abs(da) <= -C2 * slope0) return fa;
        if (da * (hi - lo) >= 0) {
          hi = lo;
          fHi = fLo;
          dHi = dLo;
        }
        lo = a;
        fLo = fa;
        dLo = da;
      }
      if (Math.abs(hi - lo) <= 1e-16 * Math.max(1, Math.abs(lo))) break;
    }
    // No strong Wolfe point within the budget: settle for the best decrease found, if any.
    if (lo > 0 && fLo <= f0) return this.evaluate(lo);
    return null;
  }

  private evaluate(a: number): number {
    this.evals++;
    const { x, base, dir } = this;
    for (let i = 0; i < x.length; i++) x[i] = base[i]! + a * dir[i]!;
    return this.objective.valueAndGradient(x, this.g);
  }
}

/** Minimiser of the cubic through (lo, fLo, dLo) and (hi, fHi, dHi), kept well inside the interval. */
function interpolate(lo: number, fLo: number, dLo: number, hi: number, fHi: number, dHi: number): number {
  const left = Math.min(lo, hi);
  const width = Math.abs(hi - lo);
  const bisect = (lo + hi) / 2;
  if (!Number.isFinite(fHi) || !Number.isFinite(dHi)) return lo + (hi - lo) * 0.25;
  const d1 = dLo + dHi - (3 * (fLo - fHi)) / (lo - hi);
  const disc = d1 * d1 - dLo * dHi;
  if (!(disc >= 0)) return bisect;
  const d2 = Math.sign(hi - lo) * Math.sqrt(disc);
  const a = hi - (hi - lo) * ((dHi + d2 - d1) / (dHi - dLo + 2 * d2));
  if (!Number.isFinite(a) || a < left + 0.1 * width || a > left + 0.9 * width) return bisect;
  return a;
}
