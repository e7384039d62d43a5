import { DataError, type Schema } from '@fb/core';

/**
 * Check a prediction batch: whole rows of the schema's width, every value finite. Returns the row count.
 * Domains are not enforced: a query slightly outside an attribute's range is still answerable.
 */
export function batchRows(schema: Schema, x: Float64Array): number {
  const d = schema.attributes.length;
  if (!(x instanceof Float64Array)) throw new DataError('DATA_SHAPE', 'a batch must be a Float64Array');
  if (x.length % d !== 0) {
    throw new DataError(
      'DATA_SHAPE',
      `a batch of ${x.length} values is not a whole number of rows of width ${d}`,
    );
  }
  const bad = firstNonFinite(x);
  if (bad >= 0) {
    const row = Math.floor(bad / d);
    const name = schema.attributes[bad % d]!.name;
    throw new DataError(
      'DATA_NOT_FINITE',
      `row ${row}, attribute "${name}": value ${x[bad]} is not a finite number`,
      { attribute: name, row },
    );
  }
  return x.length / d;
}

/**
 * The index of the first NaN or infinite value of x, or -1. A batch is scanned without a branch per
 * value (v * 0 is 0 for every finite v and NaN otherwise); only a batch with a bad value is searched.
 */
function firstNonFinite(x: Float64Array): number {
  let a0 = 0;
  let a1 = 0;
  let a2 = 0;
  let a3 = 0;
  let k = 0;
  for (; k + 3 < x.length; k += 4) {
    a0 += x[k]! * 0;
    a1 += x[k + 1]! * 0;
    a2 += x[k + 2]! * 0;
    a3 += x[k + 3]! * 0;
  }
  for (; k < x.length; k++) a0 += x[k]! * 0;
  if (a0 + a1 + a2 + a3 === 0) return -1;
  return x.findIndex((v) => !Number.isFinite(v));
}
