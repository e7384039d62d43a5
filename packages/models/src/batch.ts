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
  for (let k = 0; k < x.length; k++) {
    if (!Number.isFinite(x[k]!)) {
      const row = Math.floor(k / d);
      const name = schema.attributes[k % d]!.name;
      throw new DataError(
        'DATA_NOT_FINITE',
        `row ${row}, attribute "${name}": value ${x[k]} is not a finite number`,
        {
          attribute: name,
          row,
        },
      );
    }
  }
  return x.length / d;
}
