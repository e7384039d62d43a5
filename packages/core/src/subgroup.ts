import type { Dataset } from './dataset.js';
import { DataError } from './errors.js';
import type { Condition } from './result-types.js';
import { attributeIndex, type Schema } from './schema.js';

/**
 * A test of whether the row at `x[off..]` (schema order) satisfies every condition; attributes are
 * resolved once, so the test is cheap to call per row. An empty conjunction matches every row.
 */
export function conditionMatcher(
  schema: Schema,
  conditions: readonly Condition[],
): (x: ArrayLike<number>, off: number) => boolean {
  const tests = conditions.map((c): ((x: ArrayLike<number>, off: number) => boolean) => {
    const j = attributeIndex(schema, c.attribute);
    if ('values' in c) {
      if (c.values.length === 0) {
        throw new DataError('DATA_EMPTY_GROUP', `condition on "${c.attribute}" lists no values`, {
          attribute: c.attribute,
        });
      }
      const set = new Set(c.values);
      return (x, off) => set.has(x[off + j]!);
    }
    const { min, max, maxInclusive } = c;
    return maxInclusive
      ? (x, off) => x[off + j]! >= min && x[off + j]! <= max
      : (x, off) => x[off + j]! >= min && x[off + j]! < max;
  });
  return (x, off) => {
    for (const t of tests) if (!t(x, off)) return false;
    return true;
  };
}

/** 1 for each row of `ds` that satisfies all conditions (an empty conjunction matches every row). */
export function memberMask(ds: Dataset, conditions: readonly Condition[]): Uint8Array {
  const matches = conditionMatcher(ds.schema, conditions);
  const mask = new Uint8Array(ds.n);
  for (let i = 0; i < ds.n; i++) mask[i] = matches(ds.x, i * ds.d) ? 1 : 0;
  return mask;
}

/** Number of rows of `ds` that satisfy all conditions. */
export function countMembers(ds: Dataset, conditions: readonly Condition[]): number {
  const mask = memberMask(ds, conditions);
  let n = 0;
  for (let i = 0; i < mask.length; i++) n += mask[i]!;
  return n;
}

/** The ascending indices of the rows a mask marks (a finding's `members`). */
export function maskRows(mask: ArrayLike<number>): number[] {
  const rows: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i]) rows.push(i);
  return rows;
}
