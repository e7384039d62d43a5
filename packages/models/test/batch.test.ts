import { DataError } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { batchRows } from '../src/batch.js';
import { mixedSchema } from './fixtures.js';

describe('batchRows', () => {
  const d = mixedSchema.attributes.length;

  it('counts the rows of a finite batch', () => {
    expect(batchRows(mixedSchema, new Float64Array(7 * d).fill(1))).toBe(7);
    expect(batchRows(mixedSchema, new Float64Array(0))).toBe(0);
  });

  it('names the first value that is not finite, wherever it sits in the batch', () => {
    // 1001 rows: the scan runs four values at a time, so place bad values in every position of four and
    // in the remainder after the last whole group.
    const n = 1001;
    for (const at of [0, 1, 2, 3, 2001, n * d - 1]) {
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
        const x = new Float64Array(n * d).fill(0.5);
        x[at] = bad;
        // A later bad value must not be the one reported.
        if (at + 1 < x.length) x[x.length - 1] = Number.NaN;
        let error: unknown;
        try {
          batchRows(mixedSchema, x);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(DataError);
        expect(error).toMatchObject({
          code: 'DATA_NOT_FINITE',
          details: { row: Math.floor(at / d), attribute: mixedSchema.attributes[at % d]!.name },
        });
      }
    }
  });
});
