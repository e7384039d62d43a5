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
  /** Level αⱼ the slice was tested at (null when it was not tested: φ < ε). */
  level: number | null;
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
    problematic: false,
  };
}

/**
 * Decide which slices are problematic: φ ≥ ε, then significance under α-investing, tested in the
 * given order. Slices below ε are not tested (they spend no wealth).
 */
export function testInOrder(slices: EvaluatedSlice[], epsilon: number, investing: AlphaInvesting): void {
  for (const s of slices) {
    if (s.effectSize === null || !(s.effectSize >= epsilon)) continue;
    const { level, rejected } = investing.test(s.pValue ?? 1);
    s.level = level;
    s.problematic = rejected;
  }
}
