import { DataError, defineSchema } from '@fb/core';
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
    // The scan runs four values at a time after the values that do not fill a group of four: place bad
    // values in every position of four, in that head, and last.
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

  it('checks the head of a batch whose length is not a multiple of four', () => {
    // Width 3, 5 rows: 15 values, of which the first three come before the groups of four.
    const schema = defineSchema({
      attributes: ['a', 'b', 'c'].map((name) => ({
        name,
        kind: 'continuous' as const,
        protected: name === 'a',
        min: 0,
        max: 1,
      })),
      outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
    });
    expect(batchRows(schema, new Float64Array(15).fill(0.25))).toBe(5);
    for (let at = 0; at < 15; at++) {
      const x = new Float64Array(15).fill(0.25);
      x[at] = Number.NEGATIVE_INFINITY;
      expect(() => batchRows(schema, x)).toThrow(
        expect.objectContaining({
          code: 'DATA_NOT_FINITE',
          details: { row: Math.floor(at / 3), attribute: ['a', 'b', 'c'][at % 3] },
        }),
      );
    }
  });
});
