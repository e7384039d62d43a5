import type { Dataset } from '@fb/core';

/** The outcome rates DivExplorer compares; `custom` is the caller's vector. */
export type Metric =
  | 'fpr'
  | 'fnr'
  | 'error'
  | 'accuracy'
  | 'positive-rate'
  | 'label-rate'
  | 'score'
  | 'custom';

export type OutcomeKind = 'boolean' | 'quantitative';

/**
 * One outcome per row, NaN where the row does not count (DivExplorer's encoding of rates): the false
 * positive rate is 1 for a false positive, 0 for a true negative and NaN for rows whose label is
 * favourable; the favourable label is the positive class.
 */
export function outcomeValues(
  metric: Exclude<Metric, 'custom' | 'score'>,
  dataset: Dataset,
  predicted: Int32Array | null,
): Float64Array {
  const fav = dataset.schema.outcome.favorable;
  const out = new Float64Array(dataset.n);
  for (let i = 0; i < dataset.n; i++) {
    const pos = dataset.y[i] === fav;
    if (metric === 'label-rate') {
      out[i] = pos ? 1 : 0;
      continue;
    }
    const predPos = predicted![i] === fav;
    const correct = predicted![i] === dataset.y[i];
    if (metric === 'fpr') out[i] = pos ? Number.NaN : predPos ? 1 : 0;
    else if (metric === 'fnr') out[i] = pos ? (predPos ? 0 : 1) : Number.NaN;
    else if (metric === 'error') out[i] = correct ? 0 : 1;
    else if (metric === 'accuracy') out[i] = correct ? 1 : 0;
    else out[i] = predPos ? 1 : 0;
  }
  return out;
}

/** Slots one outcome takes in the per-row statistics: [positives, negatives] or [count, Σx, Σx²]. */
export const slots = (kind: OutcomeKind) => (kind === 'boolean' ? 2 : 3);

/**
 * Per-row statistics for several outcomes, laid out one outcome after the other, so that summing rows
 * gives each pattern's counts (boolean) or count and moments (quantitative) over its non-NaN rows.
 */
export function rowStatistics(
  outcomes: { kind: OutcomeKind; values: Float64Array }[],
  n: number,
): Float64Array {
  const S = outcomes.reduce((acc, o) => acc + slots(o.kind), 0);
  const stats = new Float64Array(n * S);
  let off = 0;
  for (const { kind, values } of outcomes) {
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      if (Number.isNaN(v)) continue;
      const at = i * S + off;
      if (kind === 'boolean') stats[at + (v === 1 ? 0 : 1)] = 1;
      else {
        stats[at] = 1;
        stats[at + 1] = v;
        stats[at + 2] = v * v;
      }
    }
    off += slots(kind);
  }
  return stats;
}
