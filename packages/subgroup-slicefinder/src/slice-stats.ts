import type { AlphaInvesting } from './alpha-investing.js';
import { complement, effectSize, type LossMoments, welchTest } from './statistics.js';

/** A slice as both searches report it: its rows' statistics and the outcome of its tests. */
export interface EvaluatedSlice {
  size: number;
  meanLoss: number;
  counterpartMeanLoss: number;
  /** φ, or null when the slice or its counterpart is empty. */
  effectSize: number | null;
  t: number | null;
  df: number | null;
  pValue: number | null;
  /** Level αⱼ the slice was tested at (null when it was not tested: too small, or no p-value). */
  level: number | null;
  /** Significant under α-investing (whatever its effect size). */
  rejected: boolean;
  /** φ ≥ ε and significant under α-investing. */
  problematic: boolean;
}

export function moments(loss: Float64Array, rows: Int32Array): LossMoments {
  let sum = 0;
  let sumSq = 0;
  for (let r = 0; r < rows.length; r++) {
    const l = loss[rows[r]!]!;
    sum += l;
    sumSq += l * l;
  }
  return { n: rows.length, sum, sumSq };
}

/** Effect size and Welch statistics of a slice against the rest of the data. */
export function describeSlice(all: LossMoments, slice: LossMoments): EvaluatedSlice {
  const other = complement(all, slice);
  const phi = effectSize(slice, other);
  const test = welchTest(slice, other);
  return {
    size: slice.n,
    meanLoss: slice.sum / slice.n,
    counterpartMeanLoss: other.n > 0 ? other.sum / other.n : Number.NaN,
    effectSize: phi,
    t: test?.t ?? null,
    df: test?.df ?? null,
    pValue: test?.pValue ?? null,
    level: null,
    rejected: false,
    problematic: false,
  };
}

/**
 * Decide which slices are problematic. Every slice of at least `minSize` rows with a p-value is tested
 * under α-investing in the given order, whatever its effect size: choosing the slices to test by their
 * φ, computed from the same losses, invalidates their p-values (under a loss independent of every
 * attribute most runs then report slices). Smaller slices are not tested: Welch's t is a large-sample
 * test, and a handful of rows sharing one loss value has a sample variance of 0 and a p-value of 0.
 * A slice is problematic when its test rejects and φ ≥ ε; a rejection with a smaller effect still
 * counts as a discovery for the wealth.
 */
export function testInOrder(
  slices: EvaluatedSlice[],
  epsilon: number,
  minSize: number,
  investing: AlphaInvesting,
): void {
  for (const s of slices) {
    if (s.pValue === null || s.size < minSize) continue;
    const { level, rejected } = investing.test(s.pValue);
    s.level = level;
    s.rejected = rejected;
    s.problematic = rejected && s.effectSize !== null && s.effectSize >= epsilon;
  }
}
