/**
 * Expectation-based scan statistics (Zhang & Neill 2016, §3) and the bisection scheme used to
 * maximise them over the odds multiplier q.
 *
 * Under H1(S) the odds of yᵢ = 1 for i ∈ S are q·pᵢ/(1 − pᵢ). For a set of records with observed
 * sum Y and expectations p, a score function gives F(q), the log-likelihood ratio against q = 1.
 */

export type Scoring = 'bernoulli' | 'poisson';

/** `positive`: observed above expected (q > 1); `negative`: observed below expected (q < 1). */
export type ScanDirection = 'positive' | 'negative';

/** F(q) (without penalty) and q·dF/dq for one set of records. */
export interface ScoreEvaluator {
  /** The unpenalised log-likelihood ratio F(q). */
  f(q: number): number;
  /** q·dF/dq, which has the sign of the slope (q > 0). */
  qSlope(q: number): number;
}

/** Bisection bracket for q and the stopping width (the reference scheme). */
export const Q_LOWER = 1e-3;
export const Q_UPPER = 1e3;
export const Q_TOLERANCE = 1e-3;

/** Bernoulli: F(q) = Y·ln q − Σ ln(1 − pᵢ + q·pᵢ). */
export function bernoulliScore(observedSum: number, expectations: Float64Array, q: number): number {
  let s = 0;
  for (let i = 0; i < expectations.length; i++) {
    const p = expectations[i]!;
    s += Math.log(1 - p + q * p);
  }
  return observedSum * Math.log(q) - s;
}

/** Poisson: F(q) = Y·ln q + Σ pᵢ·(1 − q). */
export function poissonScore(observedSum: number, expectations: Float64Array, q: number): number {
  return observedSum * Math.log(q) + sum(expectations) * (1 - q);
}

function sum(a: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]!;
  return s;
}

function bernoulliEvaluator(observedSum: number, p: Float64Array): ScoreEvaluator {
  return {
    f: (q) => bernoulliScore(observedSum, p, q),
    qSlope(q) {
      let s = 0;
      for (let i = 0; i < p.length; i++) {
        const qp = q * p[i]!;
        s += qp / (1 - p[i]! + qp);
      }
      return observedSum - s;
    },
  };
}

function poissonEvaluator(observedSum: number, p: Float64Array): ScoreEvaluator {
  // The Poisson statistic depends on the expectations only through their sum.
  const e = sum(p);
  return {
    f: (q) => observedSum * Math.log(q) + e * (1 - q),
    qSlope: (q) => observedSum - q * e,
  };
}

/** The evaluator of `scoring` for records with observed sum `observedSum` and expectations `p`. */
export function scoreEvaluator(scoring: Scoring, observedSum: number, p: Float64Array): ScoreEvaluator {
  return scoring === 'bernoulli' ? bernoulliEvaluator(observedSum, p) : poissonEvaluator(observedSum, p);
}

/**
 * q̂ = argmax F(q), by bisection on the sign of q·dF/dq over [1e-3, 1e3] until the bracket is at
 * most 1e-3 wide (the midpoint is returned), then clamped to 1 when it lies on the wrong side of 1
 * for `direction`, so that F(q̂) ≥ 0.
 */
export function maximizeQ(ev: ScoreEvaluator, direction: ScanDirection): number {
  let lo = Q_LOWER;
  let hi = Q_UPPER;
  while (hi - lo > Q_TOLERANCE) {
    const mid = (lo + hi) / 2;
    if (ev.qSlope(mid) > 0) lo = mid;
    else hi = mid;
  }
  const q = (lo + hi) / 2;
  if ((direction === 'positive' && q < 1) || (direction === 'negative' && q > 1)) return 1;
  return q;
}

/** The root of F(q) − penalty in [1e-3, q̂] (F increases there). */
export function lowerRoot(ev: ScoreEvaluator, penalty: number, qHat: number): number {
  let lo = Q_LOWER;
  let hi = qHat;
  while (hi - lo > Q_TOLERANCE) {
    const mid = (lo + hi) / 2;
    if (ev.f(mid) - penalty > 0) hi = mid;
    else lo = mid;
  }
  return (lo + hi) / 2;
}

/** The root of F(q) − penalty in [q̂, 1e3] (F decreases there). */
export function upperRoot(ev: ScoreEvaluator, penalty: number, qHat: number): number {
  let lo = qHat;
  let hi = Q_UPPER;
  while (hi - lo > Q_TOLERANCE) {
    const mid = (lo + hi) / 2;
    if (ev.f(mid) - penalty > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Where a set of records scores positively: q̂ and the interval (qMin, qMax) clipped to the direction. */
export interface PositiveInterval {
  qHat: number;
  qMin: number;
  qMax: number;
}

/**
 * q̂ and the interval of q on which F(q) − penalty > 0, clipped to q ≥ 1 (positive) or q ≤ 1
 * (negative); null when F(q̂) − penalty ≤ 0 or the interval lies wholly on the wrong side of 1.
 */
export function positiveInterval(
  ev: ScoreEvaluator,
  penalty: number,
  direction: ScanDirection,
): PositiveInterval | null {
  const qHat = maximizeQ(ev, direction);
  if (!(ev.f(qHat) - penalty > 0)) return null;
  let qMin = lowerRoot(ev, penalty, qHat);
  let qMax = upperRoot(ev, penalty, qHat);
  if (direction === 'positive') {
    if (qMax < 1) return null;
    if (qMin < 1) qMin = 1;
  } else {
    if (qMin > 1) return null;
    if (qMax > 1) qMax = 1;
  }
  return { qHat, qMin, qMax };
}

/** Scores are reported to 4 decimals, as the reference implementation rounds subset scores. */
export function roundScore(score: number): number {
  const r = Math.round(score * 1e4) / 1e4;
  // Math.round gives -0 for small negatives, which a JSON round trip would turn into 0.
  return r === 0 ? 0 : r;
}
