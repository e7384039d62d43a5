import { DataError } from '@fb/core';

/** Check sample weights: one finite, non-negative weight per row, with a positive sum. Returns the sum. */
export function checkWeights(w: unknown, n: number): number {
  if (!(w instanceof Float64Array))
    throw new DataError('DATA_SHAPE', 'sample weights must be a Float64Array');
  if (w.length !== n) throw new DataError('DATA_SHAPE', `${w.length} sample weights for ${n} rows`);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const v = w[i]!;
    if (!Number.isFinite(v)) {
      throw new DataError('DATA_NOT_FINITE', `row ${i}: sample weight ${v} is not a finite number`, {
        row: i,
      });
    }
    if (v < 0)
      throw new DataError('DATA_OUT_OF_DOMAIN', `row ${i}: sample weight ${v} is negative`, { row: i });
    total += v;
  }
  if (!(total > 0)) throw new DataError('DATA_EMPTY', 'the sample weights sum to zero');
  return total;
}
