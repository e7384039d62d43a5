import {
  betaQuantile,
  normalQuantile as coreNormalQuantile,
  incompleteBeta,
  logGamma,
  normalCdf,
  studentTCdf,
  studentTQuantile,
} from '@fb/core';

// The distributions live in @fb/core (one home for the statistics every package uses); the study's
// names for them are kept here.
export { incompleteBeta, logGamma, normalCdf, studentTCdf, studentTQuantile };

/** Quantile of the standard normal distribution (core's); throws a RangeError unless 0 < p < 1. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`quantile level must be in (0, 1), got ${p}`);
  return coreNormalQuantile(p);
}

export interface MeanInterval {
  n: number;
  mean: number;
  /** Bounds of the two-sided Student t interval (equal to the mean when n < 2). */
  lo: number;
  hi: number;
}

/**
 * Mean and Student t confidence interval of independent values (e.g. one per seed). `range` clips
 * the interval to the values' possible range (e.g. [0, 1] for rates).
 */
export function meanInterval(
  values: readonly number[],
  level = 0.95,
  range: readonly [number, number] = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY],
): MeanInterval {
  const n = values.length;
  if (n === 0) return { n, mean: Number.NaN, lo: Number.NaN, hi: Number.NaN };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { n, mean, lo: mean, hi: mean };
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  const half = studentTQuantile(1 - (1 - level) / 2, n - 1) * Math.sqrt(variance / n);
  return { n, mean, lo: Math.max(range[0], mean - half), hi: Math.min(range[1], mean + half) };
}

/** Checks a count `k` of successes out of `n` trials (fractional `k` allowed for ties counted half). */
function checkCount(k: number, n: number): void {
  if (!(Number.isInteger(n) && n >= 0))
    throw new RangeError(`trials must be a non-negative integer, got ${n}`);
  if (!(k >= 0 && k <= n)) throw new RangeError(`successes must lie in [0, ${n}], got ${k}`);
}

/**
 * Wilson score interval of a proportion `k / n` (`k` may be fractional, e.g. ties counted half).
 * Throws a RangeError when `k` is outside [0, n] or `n` is not a non-negative integer.
 */
export function wilsonInterval(k: number, n: number, level = 0.95): { rate: number; lo: number; hi: number } {
  checkCount(k, n);
  if (n === 0) return { rate: Number.NaN, lo: Number.NaN, hi: Number.NaN };
  const z = normalQuantile(1 - (1 - level) / 2);
  const p = k / n;
  const denom = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  // centre ∓ half without cancellation: (centre − half)(centre + half) = p² / denom, and likewise
  // for 1 − p, so that 0 of n gives exactly 0 and n of n exactly 1.
  const q = 1 - p;
  return {
    rate: p,
    lo: Math.max(0, (p * p) / denom / (centre + half)),
    hi: Math.min(1, 1 - (q * q) / denom / (1 - centre + half)),
  };
}

/**
 * Clopper-Pearson (exact binomial) interval of `k` successes in `n` trials: "0 of 30" gives
 * [0, 0.116], never [0, 0]. Integer `k` only.
 */
export function clopperPearson(k: number, n: number, level = 0.95): { rate: number; lo: number; hi: number } {
  checkCount(k, n);
  if (!Number.isInteger(k)) throw new RangeError(`successes must be an integer, got ${k}`);
  if (n === 0) return { rate: Number.NaN, lo: Number.NaN, hi: Number.NaN };
  const alpha = 1 - level;
  const lo = k === 0 ? 0 : betaQuantile(alpha / 2, k, n - k + 1);
  const hi = k === n ? 1 : betaQuantile(1 - alpha / 2, k + 1, n - k);
  return { rate: k / n, lo, hi };
}

export interface SignedRankTest {
  /** Pairs with a non-zero difference (zeros are dropped, as Wilcoxon does). */
  n: number;
  /** Sum of the ranks of positive differences (x > y). */
  wPlus: number;
  /**
   * Two-sided p-value: exact for n ≤ 50 (the permutation distribution of the signed mid-ranks, ties
   * included), else normal with tie and continuity correction.
   */
  pValue: number;
  /** One-sided p-value of the alternative "x tends to exceed y" (same method as `pValue`). */
  pGreater: number;
  exact: boolean;
  /** Median of the differences x − y over all pairs. */
  medianDifference: number;
}

/** Mid-ranks (1-based) of `values`, ties sharing their average rank. */
function midRanks(values: readonly number[]): { ranks: number[]; ties: number[] } {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  const ties: number[] = [];
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    const rank = (i + j + 2) / 2;
    for (let k = i; k <= j; k++) ranks[order[k]![1]] = rank;
    if (j > i) ties.push(j - i + 1);
    i = j + 1;
  }
  return { ranks, ties };
}

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Wilcoxon signed-rank test of paired samples `x` and `y` (two-sided). */
export function wilcoxonSignedRank(x: readonly number[], y: readonly number[]): SignedRankTest {
  if (x.length !== y.length) throw new RangeError('paired samples must have the same length');
  const all = x.map((v, i) => v - y[i]!);
  const diffs = all.filter((v) => v !== 0);
  const n = diffs.length;
  const medianDifference = median(all);
  if (n === 0) return { n, wPlus: 0, pValue: 1, pGreater: 1, exact: true, medianDifference };
  const { ranks, ties } = midRanks(diffs.map(Math.abs));
  const wPlus = diffs.reduce((acc, v, i) => (v > 0 ? acc + ranks[i]! : acc), 0);
  if (n <= 50) {
    // Exact null distribution: every sign assignment of the mid-ranks is equally likely. Mid-ranks
    // are multiples of 1/2, so sums of doubled ranks are integers: count subsets by that sum.
    const doubled = ranks.map((r) => Math.round(2 * r));
    const max = doubled.reduce((a, b) => a + b, 0);
    const counts = new Float64Array(max + 1);
    counts[0] = 1;
    for (const r of doubled) for (let s = max; s >= r; s--) counts[s]! += counts[s - r]!;
    const total = 2 ** n;
    const w2 = Math.round(2 * wPlus);
    let lower = 0;
    for (let s = 0; s <= w2; s++) lower += counts[s]!;
    let upper = 0;
    for (let s = w2; s <= max; s++) upper += counts[s]!;
    return {
      n,
      wPlus,
      pValue: Math.min(1, (2 * Math.min(lower, upper)) / total),
      pGreater: Math.min(1, upper / total),
      exact: true,
      medianDifference,
    };
  }
  const mean = (n * (n + 1)) / 4;
  const tieTerm = ties.reduce((acc, t) => acc + t ** 3 - t, 0) / 48;
  const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24 - tieTerm);
  const z = sd === 0 ? 0 : Math.max(0, Math.abs(wPlus - mean) - 0.5) / sd;
  const zGreater = sd === 0 ? 0 : (wPlus - mean - 0.5) / sd;
  return {
    n,
    wPlus,
    pValue: Math.min(1, 2 * (1 - normalCdf(z))),
    pGreater: 1 - normalCdf(zGreater),
    exact: false,
    medianDifference,
  };
}

/**
 * Paired concordance of an alarm: over units (seeds) that each give one score with the planted bias
 * (`planted[i]`) and one on the same unit without it (`nulls[i]`, its own no-bias twin), the share
 * of units whose planted score is higher, ties counted half. It is the AUC of the paired design (0.5
 * = no reaction to the bias), with a Wilson interval over the units and an exact two-sided sign-test
 * p-value (ties dropped).
 */
export function pairedConcordance(
  planted: readonly number[],
  nulls: readonly number[],
  level = 0.95,
): { auc: number; lo: number; hi: number; n: number; pValue: number } {
  if (planted.length !== nulls.length) throw new RangeError('paired samples must have the same length');
  const n = planted.length;
  let above = 0;
  let below = 0;
  for (let i = 0; i < n; i++) {
    if (planted[i]! > nulls[i]!) above++;
    else if (planted[i]! < nulls[i]!) below++;
  }
  const ties = n - above - below;
  const w = wilsonInterval(above + ties / 2, n, level);
  return { auc: w.rate, lo: w.lo, hi: w.hi, n, pValue: signTest(above, below) };
}

/** Exact two-sided sign test of `a` positive against `b` negative differences. */
export function signTest(a: number, b: number): number {
  const m = a + b;
  if (m === 0) return 1;
  const k = Math.min(a, b);
  // P(X <= k) for X ~ Binomial(m, 1/2), summed in the log domain.
  let logTerm = -m * Math.LN2;
  let tail = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log((m - i + 1) / i);
    tail += Math.exp(logTerm);
  }
  return Math.min(1, 2 * tail);
}

/** Holm's step-down adjustment of p-values (controls the family-wise error rate). */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], k) => {
    running = Math.max(running, Math.min(1, (m - k) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/** Empirical quantile with linear interpolation between order statistics (type 7). */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(s.length - 1, lo + 1);
  return s[lo]! + (h - lo) * (s[hi]! - s[lo]!);
}
