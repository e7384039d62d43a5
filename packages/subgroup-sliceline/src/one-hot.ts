import type { RecodedTable } from './encoding.js';

/**
 * The one-hot matrix X₂ (n x l, l = Σ arity) of a recoded table in CSR form. Every row has exactly one
 * non-zero per feature, so the row pointer is implicit (row i owns entries [i·m, i·m + m)) and all values
 * are 1: only the column indices are stored.
 */
export interface OneHotMatrix {
  readonly n: number;
  readonly m: number;
  readonly l: number;
  /** First one-hot column of each feature; offsets[m] = l. */
  readonly offsets: Int32Array;
  /** Feature of each one-hot column. */
  readonly featureOf: Int32Array;
  /** CSR column indices, n x m. */
  readonly columns: Int32Array;
}

export function oneHot(table: RecodedTable): OneHotMatrix {
  const { n, m, codes, attributes } = table;
  const offsets = new Int32Array(m + 1);
  for (let j = 0; j < m; j++) offsets[j + 1] = offsets[j]! + attributes[j]!.arity;
  const l = offsets[m]!;
  const featureOf = new Int32Array(l);
  for (let j = 0; j < m; j++) featureOf.fill(j, offsets[j]!, offsets[j + 1]!);
  const columns = new Int32Array(n * m);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) columns[i * m + j] = offsets[j]! + codes[i * m + j]!;
  }
  return { n, m, l, offsets, featureOf, columns };
}

/** Column statistics of X₂ against an error vector: colSums, eᵀX₂ and the column maxima of X₂∘e. */
export function columnStatistics(
  x2: OneHotMatrix,
  e: Float64Array,
): { size: Float64Array; error: Float64Array; maxError: Float64Array } {
  const size = new Float64Array(x2.l);
  const error = new Float64Array(x2.l);
  const maxError = new Float64Array(x2.l);
  const { n, m, columns } = x2;
  for (let i = 0; i < n; i++) {
    const ei = e[i]!;
    for (let k = i * m, end = k + m; k < end; k++) {
      const c = columns[k]!;
      size[c]!++;
      error[c]! += ei;
      if (ei > maxError[c]!) maxError[c] = ei;
    }
  }
  return { size, error, maxError };
}
