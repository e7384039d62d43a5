import type { Dataset } from './dataset.js';
import { DataError } from './errors.js';
import type { Condition } from './result-types.js';
import { attributeIndex } from './schema.js';

/** Whether row `i` of `ds` satisfies every condition. */
function compile(
  ds: Dataset,
  conditions: readonly Condition[],
): ((x: Float64Array, off: number) => boolean)[] {
  return conditions.map((c) => {
    const j = attributeIndex(ds.schema, c.attribute);
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
}

/** 1 for each row of `ds` that satisfies all conditions (an empty conjunction matches every row). */
export function memberMask(ds: Dataset, conditions: readonly Condition[]): Uint8Array {
  const tests = compile(ds, conditions);
  const mask = new Uint8Array(ds.n);
  for (let i = 0; i < ds.n; i++) {
    const off = i * ds.d;
    let ok = 1;
    for (const t of tests) {
      if (!t(ds.x, off)) {
        ok = 0;
        break;
      }
    }
    mask[i] = ok;
  }
  return mask;
}

/** Number of rows of `ds` that satisfy all conditions. */
export function countMembers(ds: Dataset, conditions: readonly Condition[]): number {
  const mask = memberMask(ds, conditions);
  let n = 0;
  for (let i = 0; i < mask.length; i++) n += mask[i]!;
  return n;
}
