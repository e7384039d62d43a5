import { describe, expect, it } from 'vitest';
import {
  assertAuditable,
  checkDataset,
  checkRows,
  createDataset,
  createRng,
  DataError,
  type Dataset,
  datasetFingerprint,
  datasetFromRecords,
  defineSchema,
  inDomain,
  rowCount,
  SchemaError,
  subsetRows,
} from '../src/index.js';
import { auditSchema, expectError } from './helpers.js';

// Rows of (sex, age, race, income).
const rows = [
  [0, 1, 0, 45],
  [1, 2, 1, 20],
  [1, 0, 0, 38.5],
];
const labels = [0, 1, 1];

function make(x: readonly number[] = rows.flat(), y: readonly number[] = labels): Dataset {
  return createDataset({ schema: auditSchema, x, y, name: 'toy' });
}

describe('createDataset', () => {
  it('builds a frozen row-major dataset', () => {
    const ds = make();
    expect(ds.n).toBe(3);
    expect(ds.d).toBe(4);
    expect(ds.x).toBeInstanceOf(Float64Array);
    expect(ds.y).toBeInstanceOf(Int32Array);
    expect(Array.from(ds.x.subarray(8, 12))).toEqual([1, 0, 0, 38.5]);
    expect(Array.from(ds.y)).toEqual(labels);
    expect(ds.name).toBe('toy');
    expect(Object.isFrozen(ds)).toBe(true);
  });

  it('rejects a row width that does not divide x, and a label count that does not match', () => {
    expectError(() => make([...rows.flat(), 1]), DataError, 'DATA_SHAPE');
    expectError(() => make(rows.flat(), [0, 1]), DataError, 'DATA_SHAPE');
  });

  it('rejects NaN and infinities, naming the row and attribute', () => {
    const x = rows.flat();
    x[1 * 4 + 3] = Number.NaN;
    const e = expectError(() => make(x), DataError, 'DATA_NOT_FINITE', { row: 1, attribute: 'income' });
    expect(e.message).toContain('row 1');
    expect(e.message).toContain('"income"');
    const y = rows.flat();
    y[2 * 4 + 1] = Number.NEGATIVE_INFINITY;
    expectError(() => make(y), DataError, 'DATA_NOT_FINITE', { row: 2, attribute: 'age' });
  });

  it.each([
    ['a category code past the end', 0, 2, 'sex'],
    ['a fractional category code', 2, 0.5, 'race'],
    ['a value off the ordinal grid', 1, 1.5, 'age'],
    ['a value above the ordinal max', 1, 5, 'age'],
    ['a continuous value below min', 3, -0.01, 'income'],
  ])('rejects %s, naming the row and attribute', (_, j, v, name) => {
    const x = rows.flat();
    x[2 * 4 + j] = v;
    expectError(() => make(x), DataError, 'DATA_OUT_OF_DOMAIN', { row: 2, attribute: name });
  });

  it('rejects outcome codes that are not label codes', () => {
    expectError(() => make(rows.flat(), [0, 2, 1]), DataError, 'DATA_OUT_OF_DOMAIN', {
      row: 1,
      attribute: 'approved',
    });
    expectError(() => make(rows.flat(), [0, 0.5, 1]), DataError, 'DATA_OUT_OF_DOMAIN', { row: 1 });
    expectError(() => make(rows.flat(), [-1, 0, 1]), DataError, 'DATA_OUT_OF_DOMAIN', { row: 0 });
    const typed = () => createDataset({ schema: auditSchema, x: rows.flat(), y: Int32Array.of(0, 1, 5) });
    const e = expectError(typed, DataError, 'DATA_OUT_OF_DOMAIN', { row: 2, attribute: 'approved' });
    expect(e.message).toContain('outcome 5');
  });

  it('validates the schema too', () => {
    expectError(
      () => createDataset({ schema: { ...auditSchema, attributes: [] }, x: [], y: [] }),
      SchemaError,
      'SCHEMA_INVALID',
    );
  });
});

describe('datasetFromRecords', () => {
  const rec = (over: Record<string, unknown> = {}) => ({
    sex: 'm',
    age: 3,
    race: 'c',
    income: 61.5,
    approved: 'yes',
    ...over,
  });

  it('turns category and outcome labels into codes and accepts codes and numeric strings', () => {
    const ds = datasetFromRecords(
      auditSchema,
      [rec(), rec({ sex: 0, race: 1, income: '12.25', approved: 0 })],
      'r',
    );
    expect(Array.from(ds.x)).toEqual([1, 3, 2, 61.5, 0, 3, 1, 12.25]);
    expect(Array.from(ds.y)).toEqual([1, 0]);
    expect(ds.name).toBe('r');
  });

  it('rejects a missing attribute or outcome column', () => {
    const { age: _age, ...noAge } = rec();
    expectError(() => datasetFromRecords(auditSchema, [rec(), noAge]), DataError, 'DATA_MISSING_COLUMN', {
      attribute: 'age',
      row: 1,
    });
    const { approved: _a, ...noOutcome } = rec();
    expectError(() => datasetFromRecords(auditSchema, [noOutcome]), DataError, 'DATA_MISSING_COLUMN', {
      attribute: 'approved',
    });
    // An inherited property is not a column.
    const inherited = Object.assign(Object.create({ sex: 'f' }), {
      age: 1,
      race: 'a',
      income: 3,
      approved: 'no',
    });
    expectError(() => datasetFromRecords(auditSchema, [inherited]), DataError, 'DATA_MISSING_COLUMN', {
      attribute: 'sex',
    });
  });

  it('rejects an extra column, naming it', () => {
    const e = expectError(
      () => datasetFromRecords(auditSchema, [rec({ zip: 1 })]),
      DataError,
      'DATA_EXTRA_COLUMN',
      {
        attribute: 'zip',
        row: 0,
      },
    );
    expect(e.message).toContain('"zip"');
  });

  it('rejects an own __proto__ key as an extra column without polluting Object.prototype', () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const record = JSON.parse(
      '{"__proto__": {"polluted": 1}, "sex": "m", "age": 3, "race": "c", "income": 5, "approved": "no"}',
    ) as Record<string, unknown>;
    expect(Object.hasOwn(record, '__proto__')).toBe(true);
    expectError(() => datasetFromRecords(auditSchema, [record]), DataError, 'DATA_EXTRA_COLUMN', {
      attribute: '__proto__',
    });
    const scalar = JSON.parse(
      '{"sex": "m", "age": 3, "race": "c", "income": 5, "approved": "no", "__proto__": 1}',
    ) as Record<string, unknown>;
    expectError(() => datasetFromRecords(auditSchema, [scalar]), DataError, 'DATA_EXTRA_COLUMN', {
      attribute: '__proto__',
    });
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('rejects unknown categories and outcome labels, including names of Object.prototype members', () => {
    expectError(
      () => datasetFromRecords(auditSchema, [rec({ race: 'd' })]),
      DataError,
      'DATA_UNKNOWN_CATEGORY',
      {
        attribute: 'race',
      },
    );
    expectError(
      () => datasetFromRecords(auditSchema, [rec({ sex: 'toString' })]),
      DataError,
      'DATA_UNKNOWN_CATEGORY',
      { attribute: 'sex' },
    );
    expectError(
      () => datasetFromRecords(auditSchema, [rec({ approved: 'constructor' })]),
      DataError,
      'DATA_UNKNOWN_CATEGORY',
      { attribute: 'approved' },
    );
  });

  it('rejects values that are not numbers', () => {
    for (const bad of [null, true, '', undefined]) {
      expectError(
        () => datasetFromRecords(auditSchema, [rec({ income: bad })]),
        DataError,
        'DATA_NOT_FINITE',
        {
          attribute: 'income',
        },
      );
    }
    expectError(
      () => datasetFromRecords(auditSchema, [rec({ income: 'abc' })]),
      DataError,
      'DATA_NOT_FINITE',
    );
    expectError(() => datasetFromRecords(auditSchema, [rec({ age: 9 })]), DataError, 'DATA_OUT_OF_DOMAIN');
    expectError(() => datasetFromRecords(auditSchema, [null as never]), DataError, 'DATA_SHAPE');
  });
});

describe('assertAuditable', () => {
  it('rejects an empty dataset and a single-class outcome, accepts two classes', () => {
    expectError(() => assertAuditable(make([], [])), DataError, 'DATA_EMPTY');
    expectError(() => assertAuditable(make(rows.flat(), [1, 1, 1])), DataError, 'DATA_SINGLE_CLASS', {
      attribute: 'approved',
    });
    expect(() => assertAuditable(make())).not.toThrow();
  });
});

describe('subsetRows', () => {
  it('copies the chosen rows in order, repeats allowed', () => {
    const ds = make();
    const sub = subsetRows(ds, [2, 0, 2]);
    expect(sub.n).toBe(3);
    expect(Array.from(sub.x)).toEqual([...rows[2]!, ...rows[0]!, ...rows[2]!]);
    expect(Array.from(sub.y)).toEqual([1, 0, 1]);
    expect(sub.schema).toBe(ds.schema);
    expect(sub.name).toBe('toy');
    sub.x[3] = 99;
    expect(ds.x[11]).toBe(38.5);
  });

  it('rejects an index outside the dataset', () => {
    expectError(() => subsetRows(make(), [0, 3]), DataError, 'DATA_SHAPE');
    expectError(() => subsetRows(make(), [-1]), DataError, 'DATA_SHAPE');
    expectError(() => subsetRows(make(), [0.5]), DataError, 'DATA_SHAPE');
    expectError(() => subsetRows(make(), [Number.NaN]), DataError, 'DATA_SHAPE');
  });
});

describe('datasetFingerprint', () => {
  it('is 16 hex digits, stable for equal content and independent of the name', () => {
    const a = datasetFingerprint(make());
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(datasetFingerprint(make())).toBe(a);
    expect(datasetFingerprint(createDataset({ schema: auditSchema, x: rows.flat(), y: labels }))).toBe(a);
  });

  it('changes when one value, one label, the row order or the schema changes', () => {
    const base = datasetFingerprint(make());
    const x = rows.flat();
    x[3] = 45.000001;
    expect(datasetFingerprint(make(x))).not.toBe(base);
    expect(datasetFingerprint(make(rows.flat(), [1, 1, 1]))).not.toBe(base);
    expect(datasetFingerprint(make([...rows[1]!, ...rows[0]!, ...rows[2]!], [1, 0, 1]))).not.toBe(base);
    const renamed = { ...auditSchema, outcome: { ...auditSchema.outcome, name: 'granted' } };
    expect(datasetFingerprint(createDataset({ schema: renamed, x: rows.flat(), y: labels }))).not.toBe(base);
  });
});

describe('checkDataset and rowCount', () => {
  const handBuilt = () => ({
    schema: auditSchema,
    n: 3,
    d: 4,
    x: Float64Array.from(rows.flat()),
    y: Int32Array.from(labels),
    name: 'hand',
  });

  it('accepts a hand-built dataset and returns a validated frozen one', () => {
    const ds = checkDataset(handBuilt());
    expect(ds.n).toBe(3);
    expect(ds.name).toBe('hand');
    expect(Object.isFrozen(ds)).toBe(true);
  });

  it('rejects objects that only look like datasets', () => {
    expectError(() => checkDataset(null), DataError, 'DATA_SHAPE');
    expectError(() => checkDataset({ ...handBuilt(), x: rows.flat() }), DataError, 'DATA_SHAPE');
    expectError(() => checkDataset({ ...handBuilt(), y: labels }), DataError, 'DATA_SHAPE');
    expectError(() => checkDataset({ ...handBuilt(), n: 4 }), DataError, 'DATA_SHAPE');
    expectError(() => checkDataset({ ...handBuilt(), d: 3 }), DataError, 'DATA_SHAPE');
    const nan = handBuilt();
    nan.x[5] = Number.NaN;
    expectError(() => checkDataset(nan), DataError, 'DATA_NOT_FINITE', { row: 1, attribute: 'age' });
    expectError(
      () => checkDataset({ ...handBuilt(), y: Int32Array.of(0, 0, 0) }),
      DataError,
      'DATA_SINGLE_CLASS',
    );
    expectError(
      () => checkDataset({ ...handBuilt(), schema: { attributes: [] } }),
      SchemaError,
      'SCHEMA_INVALID',
    );
  });

  it('rowCount checks a batch width', () => {
    expect(rowCount(auditSchema, new Float64Array(12))).toBe(3);
    expectError(() => rowCount(auditSchema, new Float64Array(10)), DataError, 'DATA_SHAPE');
  });
});

describe('checkRows', () => {
  const schema = defineSchema({
    attributes: [
      { name: 'colour', kind: 'categorical', protected: true, categories: ['red', 'green', 'blue'] },
      { name: 'age', kind: 'ordinal', protected: false, min: 17, max: 90, step: 1 },
      { name: 'dose', kind: 'ordinal', protected: false, min: 0.1, max: 1.1, step: 0.25 },
      { name: 'income', kind: 'continuous', protected: false, min: -5, max: 1e6 },
    ],
    outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
  });
  const candidates = [
    [0, 1, 2, 2.5, -1, 3, -0, Number.NaN],
    [17, 90, 50, 50.5, 16, 91, 40 + 1e-12, Number.POSITIVE_INFINITY],
    [0.1, 0.35, 1.1, 0.6, 0.2, 1.35, 0.85 + 1e-12, Number.NEGATIVE_INFINITY],
    [-5, 0, 1e6, 123.456, -5.01, 1e6 + 1, Number.MAX_VALUE, Number.NaN],
  ];

  it('accepts or rejects a batch as inDomain does value by value, naming the first bad value', () => {
    const rng = createRng(8);
    const n = 6;
    let agreed = 0;
    for (let t = 0; t < 3000; t++) {
      const x = new Float64Array(n * 4);
      // Mostly good batches, so that both answers occur often.
      for (let k = 0; k < x.length; k++) {
        const pool = candidates[k % 4]!;
        x[k] = rng.uniform(0, 1) < 0.97 ? pool[rng.int(0, 2)]! : pool[rng.int(0, pool.length - 1)]!;
      }
      // The first bad value in attribute order, then row order, by inDomain alone.
      let expected: string | null = null;
      for (let j = 0; j < 4 && expected === null; j++) {
        for (let i = 0; i < n && expected === null; i++) {
          if (!inDomain(schema.attributes[j]!, x[i * 4 + j]!))
            expected = `row ${i}, attribute "${schema.attributes[j]!.name}"`;
        }
      }
      let got: string | null = null;
      try {
        checkRows(schema, x, n);
      } catch (e) {
        expect(e).toBeInstanceOf(DataError);
        got = (e as Error).message.split(':')[0]!;
      }
      if (got === expected) agreed++;
    }
    expect(agreed).toBe(3000);
  });
});
