import type { Dataset, Schema } from '@fb/core';
import { type Subgroups, subgroupsOf } from '@fb/metrics';

/**
 * Subgroups of a batch of query rows (n x d over `schema`), as `subgroupsOf` forms them for a dataset:
 * wrapped models use it to find each row's group by its protected values.
 */
export function groupsOfRows(schema: Schema, x: Float64Array, attributes?: readonly string[]): Subgroups {
  const d = schema.attributes.length;
  const n = x.length / d;
  const view: Dataset = { schema, n, d, x, y: new Int32Array(n) };
  return subgroupsOf(view, attributes);
}
