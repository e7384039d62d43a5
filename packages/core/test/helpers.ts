import { expect } from 'vitest';
import { type Classifier, defineSchema, type FairbenchError, type Schema } from '../src/index.js';

type ErrorClass = abstract new (...args: never[]) => FairbenchError;

/** The error `fn` throws; fails the test when it does not throw. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to throw');
}

/** Assert that `fn` throws `cls` with `code` (and these details, if given); returns the error. */
export function expectError(
  fn: () => unknown,
  cls: ErrorClass,
  code: string,
  details?: Record<string, unknown>,
): FairbenchError {
  const e = thrown(fn);
  expect(e).toBeInstanceOf(cls);
  const err = e as FairbenchError;
  expect(err.code).toBe(code);
  if (details) expect(err.details).toMatchObject(details);
  return err;
}

export async function expectRejection(
  p: Promise<unknown>,
  cls: ErrorClass,
  code: string,
  details?: Record<string, unknown>,
): Promise<FairbenchError> {
  let e: unknown;
  try {
    await p;
  } catch (err) {
    e = err;
  }
  expect(e).toBeInstanceOf(cls);
  const err = e as FairbenchError;
  expect(err.code).toBe(code);
  if (details) expect(err.details).toMatchObject(details);
  return err;
}

/**
 * The hand-made audit schema: two protected attributes (sex: 2 values, race: 3 values) interleaved
 * with two non-protected ones (age: ordinal 0..4, income: continuous 0..100).
 */
export const SEX = 0;
export const AGE = 1;
export const RACE = 2;
export const INCOME = 3;
export const auditSchema: Schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'age', kind: 'ordinal', protected: false, min: 0, max: 4, step: 1 },
    { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
    { name: 'income', kind: 'continuous', protected: false, min: 0, max: 100 },
  ],
  outcome: { name: 'approved', labels: ['no', 'yes'], favorable: 1 },
});

/** The hand-written rule: approve when income + 10 (sex = m) + 5 (race = c) reaches 50. */
export function ruleLabel(row: ArrayLike<number>): number {
  const score = row[INCOME]! + (row[SEX] === 1 ? 10 : 0) + (row[RACE] === 2 ? 5 : 0);
  return score >= 50 ? 1 : 0;
}

/** A classifier applying `label` to each row, recording every batch it receives. */
export class SpyModel implements Classifier {
  readonly nFeatures: number;
  readonly nClasses = 2;
  readonly description = 'spy';
  readonly batches: number[][][] = [];
  private readonly label: (row: ArrayLike<number>) => number;
  constructor(nFeatures: number, label: (row: ArrayLike<number>) => number) {
    this.nFeatures = nFeatures;
    this.label = label;
  }
  predict(x: Float64Array): Int32Array {
    const d = this.nFeatures;
    const rows: number[][] = [];
    const out = new Int32Array(x.length / d);
    for (let i = 0; i < out.length; i++) {
      const row = Array.from(x.subarray(i * d, (i + 1) * d));
      rows.push(row);
      out[i] = this.label(row);
    }
    this.batches.push(rows);
    return out;
  }
  /** Every row the model was asked about, in order. */
  get rowsSeen(): number[][] {
    return this.batches.flat();
  }
}

/** Row-major Float64Array from rows. */
export function rowsOf(rows: readonly (readonly number[])[]): Float64Array {
  return Float64Array.from(rows.flat());
}
