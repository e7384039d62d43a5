import { DataError, type Schema } from '@fb/core';

/**
 * Check a prediction batch: whole rows of the schema's width, every value finite. Returns the row count.
 * Domains are not enforced: a query slightly outside an attribute's range is still answerable.
 */
export function batchRows(schema: Schema, x: Float64Array): number {
  const n = batchShape(schema, x);
  if (nanIfNotFinite(x) !== 0) throw notFiniteError(schema, x);
  return n;
}

/**
 * The row count of a batch of whole rows of the schema's width, without the finiteness check: for a
 * model that checks the values in its own pass over them (the sum of v * 0 over the batch is 0 exactly
 * when every value is finite) and throws `notFiniteError` otherwise.
 */
export function batchShape(schema: Schema, x: Float64Array): number {
  const d = schema.attributes.length;
  if (!(x instanceof Float64Array)) throw new DataError('DATA_SHAPE', 'a batch must be a Float64Array');
  if (x.length % d !== 0) {
    throw new DataError(
      'DATA_SHAPE',
      `a batch of ${x.length} values is not a whole number of rows of width ${d}`,
    );
  }
  return x.length / d;
}

/** The error naming a batch's first NaN or infinite value (x must hold one). */
export function notFiniteError(schema: Schema, x: Float64Array): DataError {
  const d = schema.attributes.length;
  const bad = x.findIndex((v) => !Number.isFinite(v));
  const row = Math.floor(bad / d);
  const name = schema.attributes[bad % d]!.name;
  return new DataError(
    'DATA_NOT_FINITE',
    `row ${row}, attribute "${name}": value ${x[bad]} is not a finite number`,
    { attribute: name, row },
  );
}

/**
 * 0 when every value of x is finite, else NaN: v * 0 is 0 for every finite v and NaN otherwise, so a
 * batch is scanned without a branch per value. The loop is the function's last statement: code after a
 * long loop, not yet run when V8 optimises the loop, sends the function back to the interpreter when
 * first reached. The leading values that do not fill a group of four come first for the same reason.
 */
function nanIfNotFinite(x: Float64Array): number {
  let a0 = 0;
  let k = 0;
  for (const head = x.length & 3; k < head; k++) a0 += x[k]! * 0;
  for (; k < x.length; k += 4) a0 += x[k]! * 0 + x[k + 1]! * 0 + (x[k + 2]! * 0 + x[k + 3]! * 0);
  return a0;
}
