import { DataError, type Dataset, OptionsError } from '@fb/core';
import { subgroupsOf } from '@fb/metrics';

export interface ReweighingOptions {
  /** Attributes whose value combinations form the groups. Default: the protected attributes. */
  protectedAttributes?: readonly string[];
  /**
   * `demographic_parity` (default): Kamiran & Calders, w(a, y) = P(a) P(y) / P(a, y), so that group and
   * label are independent in the weighted data. `equalized_odds`: w(a, y) = P(y) / (k P(a, y)) over
   * k groups, so that within each label every group carries the same total weight.
   */
  target?: 'demographic_parity' | 'equalized_odds';
}

/**
 * Per-row training weights (mean 1) that remove the dependence between the protected groups and the
 * label (Kamiran & Calders, KAIS 2012), for any number of intersectional groups and labels.
 */
export function reweighing(ds: Dataset, options: ReweighingOptions = {}): Float64Array {
  const target = options.target ?? 'demographic_parity';
  if (target !== 'demographic_parity' && target !== 'equalized_odds') {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `target must be demographic_parity or equalized_odds, got ${String(target)}`,
      { option: '/target' },
    );
  }
  if (ds.n === 0) throw new DataError('DATA_EMPTY', 'the dataset has no rows');
  const groups = subgroupsOf(ds, options.protectedAttributes);
  const k = groups.keys.length;
  const labels = ds.schema.outcome.labels.length;
  const joint = new Float64Array(k * labels);
  const byLabel = new Float64Array(labels);
  for (let i = 0; i < ds.n; i++) {
    joint[groups.codes[i]! * labels + ds.y[i]!]!++;
    byLabel[ds.y[i]!]!++;
  }
  const w = new Float64Array(ds.n);
  let sum = 0;
  for (let i = 0; i < ds.n; i++) {
    const g = groups.codes[i]!;
    const y = ds.y[i]!;
    const pJoint = joint[g * labels + y]! / ds.n;
    const pY = byLabel[y]! / ds.n;
    w[i] = target === 'demographic_parity' ? ((groups.sizes[g]! / ds.n) * pY) / pJoint : pY / (k * pJoint);
    sum += w[i]!;
  }
  const scale = ds.n / sum;
  for (let i = 0; i < ds.n; i++) w[i]! *= scale;
  return w;
}
