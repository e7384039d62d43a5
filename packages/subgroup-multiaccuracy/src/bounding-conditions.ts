import { type Condition, type Dataset, isDiscrete, memberMask } from '@fb/core';

/**
 * The smallest conjunction of attribute conditions containing the rows of `mask`: per attribute, the values
 * (discrete) or the closed range (continuous) they take, omitted when that covers every value in the data.
 * Returns it with the number of rows satisfying it and whether those are exactly the masked rows.
 */
export function boundingConditions(
  dataset: Dataset,
  mask: Uint8Array,
): { conditions: Condition[]; size: number; exact: boolean } {
  const { n, d, x, schema } = dataset;
  const conditions: Condition[] = [];
  let count = 0;
  for (let i = 0; i < n; i++) count += mask[i]!;
  schema.attributes.forEach((a, j) => {
    const seen = new Set<number>();
    const taken = new Set<number>();
    for (let i = 0; i < n; i++) {
      seen.add(x[i * d + j]!);
      if (mask[i]) taken.add(x[i * d + j]!);
    }
    const values = [...taken].sort((u, v) => u - v);
    if (isDiscrete(a)) {
      if (taken.size < seen.size) conditions.push({ attribute: a.name, values });
      return;
    }
    const [min, max] = [values[0]!, values[values.length - 1]!];
    if ([...seen].some((v) => v < min || v > max))
      conditions.push({ attribute: a.name, min, max, maxInclusive: true });
  });
  const box = memberMask(dataset, conditions);
  let size = 0;
  for (let i = 0; i < n; i++) size += box[i]!;
  return { conditions, size, exact: size === count };
}
