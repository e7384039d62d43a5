import { studentTUpperTail } from '@fb/core';

/** Sufficient statistics of a loss sample: count, Σℓ and Σℓ². */
export interface LossMoments {
  n: number;
  sum: number;
  sumSq: number;
}

/** Mean and population variance (ddof 0) of a sample from its moments. */
function meanVar(m: LossMoments): { mean: number; variance: number } {
  const mean = m.sum / m.n;
  return { mean, variance: Math.max(0, m.sumSq / m.n - mean * mean) };
}

/** The slice's counterpart: every row outside it. */
export function complement(all: LossMoments, slice: LossMoments): LossMoments {
  return { n: all.n - slice.n, sum: all.sum - slice.sum, sumSq: all.sumSq - slice.sumSq };
}

/**
 * Effect size of a slice against its counterpart (Cohen's d with the pooled standard deviation of the
 * paper): φ = √2·(μ_S − μ_S′)/√(σ_S² + σ_S′²), population variances. Positive when the slice's loss is
 * higher. Null when either side is empty; ±∞ when both variances are 0 and the means differ.
 */
export function effectSize(slice: LossMoments, counterpart: LossMoments): number | null {
  if (slice.n === 0 || counterpart.n === 0) return null;
  const a = meanVar(slice);
  const b = meanVar(counterpart);
  const diff = a.mean - b.mean;
  const pooled = a.variance + b.variance;
  if (pooled === 0) return diff === 0 ? 0 : diff > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return (Math.SQRT2 * diff) / Math.sqrt(pooled);
}

export interface WelchTest {
  t: number;
  df: number;
  /** One-sided p-value of H₁: the slice's mean loss is higher than its counterpart's. */
  pValue: number;
}

/**
 * Welch's unequal-variance t-test of the slice's loss against its counterpart's, one-sided (a slice is
 * problematic only when its loss is higher), with sample variances and Welch–Satterthwaite degrees of
 * freedom. Null when a side has fewer than 2 rows.
 */
export function welchTest(slice: LossMoments, counterpart: LossMoments): WelchTest | null {
  if (slice.n < 2 || counterpart.n < 2) return null;
  const sampleVar = (m: LossMoments) => Math.max(0, (m.sumSq - (m.sum * m.sum) / m.n) / (m.n - 1));
  const va = sampleVar(slice) / slice.n;
  const vb = sampleVar(counterpart) / counterpart.n;
  const diff = slice.sum / slice.n - counterpart.sum / counterpart.n;
  const se2 = va + vb;
  if (se2 === 0) {
    return {
      t: diff === 0 ? 0 : diff * Number.POSITIVE_INFINITY,
      df: slice.n + counterpart.n - 2,
      pValue: diff > 0 ? 0 : 1,
    };
  }
  const t = diff / Math.sqrt(se2);
  const df = (se2 * se2) / ((va * va) / (slice.n - 1) + (vb * vb) / (counterpart.n - 1));
  // The upper tail itself: 1 − CDF(t) rounds to 0 once the CDF is within 1e-16 of 1.
  return { t, df, pValue: studentTUpperTail(t, df) };
}
