import type { Dataset } from './dataset.js';
import { DataError } from './errors.js';
import type { Condition } from './result-types.js';
import { isDiscrete } from './schema.js';
import { memberMask } from './subgroup.js';

export interface BoundingConditions {
  /**
   * Per attribute, the values (discrete) or the closed range (continuous) the masked rows take; an attribute
   * whose masked rows take every value seen in the data is left unconstrained.
   */
  conditions: Condition[];
  /** Rows satisfying the conditions (a superset of the masked rows). */
  size: number;
  /** Whether the conditions select exactly the masked rows. */
  exact: boolean;
}

/**
 * The smallest conjunction of attribute conditions containing the rows of `mask` (1 = in; at least one):
 * the box their values span over `attributes` (indices into the schema; default every attribute). It is
 * the masked set itself exactly when every row in the box is masked (`exact`).
 */
export function boundingConditions(
  dataset: Dataset,
  mask: Uint8Array,
  attributes?: readonly number[],
): BoundingConditions {
  const { n, d, x, schema } = dataset;
  if (mask.length !== n) {
    throw new DataError('DATA_SHAPE', `the mask holds ${mask.length} values, the dataset ${n} rows`);
  }
  let count = 0;
  for (let i = 0; i < n; i++) count += mask[i] ? 1 : 0;
  if (count === 0) throw new DataError('DATA_EMPTY_GROUP', 'the mask selects no row to bound');
  const conditions: Condition[] = [];
  for (const j of attributes ?? schema.attributes.keys()) {
    const a = schema.attributes[j]!;
    const seen = new Set<number>();
    const taken = new Set<number>();
    for (let i = 0; i < n; i++) {
      const v = x[i * d + j]!;
      seen.add(v);
      if (mask[i]) taken.add(v);
    }
    const values = [...taken].sort((u, v) => u - v);
    if (isDiscrete(a)) {
      if (taken.size < seen.size) conditions.push({ attribute: a.name, values });
      continue;
    }
    const [min, max] = [values[0]!, values[values.length - 1]!];
    if ([...seen].some((v) => v < min || v > max)) {
      conditions.push({ attribute: a.name, min, max, maxInclusive: true });
    }
  }
  const box = memberMask(dataset, conditions);
  let size = 0;
  for (let i = 0; i < n; i++) size += box[i]!;
  return { conditions, size, exact: size === count };
}
