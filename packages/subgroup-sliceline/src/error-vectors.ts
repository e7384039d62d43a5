import type { Dataset } from '@fb/core';

/** The error vectors a run can scan; `custom` is the caller's own vector (option `errorVector`). */
export type ErrorType = 'misclassification' | 'false-positive' | 'false-negative' | 'custom';

/**
 * Per-row 0/1 errors of predictions against the labels, with the favourable label as the positive
 * class: a false positive is a favourable prediction for a row whose label is not favourable, a false
 * negative the reverse, a misclassification any prediction differing from the label.
 */
export function predictionErrors(
  dataset: Dataset,
  predicted: Int32Array,
  type: Exclude<ErrorType, 'custom'>,
): Float64Array {
  const fav = dataset.schema.outcome.favorable;
  const e = new Float64Array(dataset.n);
  for (let i = 0; i < dataset.n; i++) {
    const y = dataset.y[i]!;
    const p = predicted[i]!;
    if (type === 'misclassification') e[i] = p !== y ? 1 : 0;
    else if (type === 'false-positive') e[i] = p === fav && y !== fav ? 1 : 0;
    else e[i] = p !== fav && y === fav ? 1 : 0;
  }
  return e;
}
