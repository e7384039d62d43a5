import { describe, expect, it } from 'vitest';
import {
  boundingConditions,
  conditionMatcher,
  createDataset,
  createRng,
  DataError,
  memberMask,
} from '../src/index.js';
import { AGE, auditSchema, expectError, INCOME, RACE, rowsOf, SEX } from './helpers.js';

// sex, age, race, income
const dataset = createDataset({
  schema: auditSchema,
  x: rowsOf([
    [0, 0, 0, 10],
    [0, 1, 1, 20],
    [1, 2, 2, 30],
    [1, 3, 0, 40],
    [0, 4, 1, 50],
    [1, 4, 2, 60],
  ]),
  y: [0, 0, 1, 1, 0, 1],
});
const mask = (...rows: number[]) =>
  Uint8Array.from({ length: dataset.n }, (_, i) => (rows.includes(i) ? 1 : 0));

describe('boundingConditions', () => {
  it('bounds masked rows by their values and ranges, leaving covered attributes free', () => {
    // Rows 2 and 3: sex m (all of the m rows), age 2..3, race {a, c}, income 30..40.
    const box = boundingConditions(dataset, mask(2, 3));
    expect(box.conditions).toEqual([
      { attribute: 'sex', values: [1] },
      { attribute: 'age', values: [2, 3] },
      { attribute: 'race', values: [0, 2] },
      { attribute: 'income', min: 30, max: 40, maxInclusive: true },
    ]);
    expect(box).toMatchObject({ size: 2, exact: true });
  });

  it('reports the box size and inexactness when it holds unmasked rows', () => {
    // Rows 1 and 5 take both sexes (free), age {1, 4}, race {b, c} and income 20..60.
    const box = boundingConditions(dataset, mask(1, 5));
    expect(box.conditions).toEqual([
      { attribute: 'age', values: [1, 4] },
      { attribute: 'race', values: [1, 2] },
      { attribute: 'income', min: 20, max: 60, maxInclusive: true },
    ]);
    // Row 4 (age 4, race b, income 50) is in the box too.
    expect(box).toMatchObject({ size: 3, exact: false });
  });

  it('restricts the conditions to the given attributes', () => {
    const box = boundingConditions(dataset, mask(2, 3), [RACE, SEX]);
    expect(box.conditions).toEqual([
      { attribute: 'race', values: [0, 2] },
      { attribute: 'sex', values: [1] },
    ]);
    // m and race a or c: rows 2, 3, 5.
    expect(box).toMatchObject({ size: 3, exact: false });
  });

  it('gives the empty conjunction for a mask spanning every value', () => {
    expect(boundingConditions(dataset, mask(0, 1, 2, 3, 4, 5))).toEqual({
      conditions: [],
      size: 6,
      exact: true,
    });
  });

  it('is the smallest box containing the mask: brute-force cross-check', () => {
    const rng = createRng('bounding');
    const n = 60;
    const data = createDataset({
      schema: auditSchema,
      x: rowsOf(
        Array.from({ length: n }, () => [rng.int(0, 1), rng.int(0, 4), rng.int(0, 2), rng.int(0, 20) * 5]),
      ),
      y: new Int32Array(n),
    });
    for (let trial = 0; trial < 20; trial++) {
      const m = Uint8Array.from({ length: n }, () => (rng.bernoulli(0.15) ? 1 : 0));
      if (!m.some((v) => v === 1)) m[0] = 1;
      const box = boundingConditions(data, m);
      const inBox = memberMask(data, box.conditions);
      const matches = conditionMatcher(data.schema, box.conditions);
      for (let i = 0; i < n; i++) if (m[i]) expect(inBox[i]).toBe(1);
      // Minimal: every listed value and both range ends are taken by a masked row; an attribute left free
      // has masked rows covering every value (discrete) or the whole range (continuous) seen in the data.
      for (const j of [SEX, AGE, RACE, INCOME]) {
        const a = data.schema.attributes[j]!;
        const column = (rows: number[]) => rows.map((i) => data.x[i * data.d + j]!);
        const masked = new Set(column([...Array(n).keys()].filter((i) => m[i])));
        const seen = new Set(column([...Array(n).keys()]));
        const c = box.conditions.find((q) => q.attribute === a.name);
        if (c && 'values' in c) {
          for (const v of c.values) expect(masked.has(v)).toBe(true);
        } else if (c) {
          expect(masked.has(c.min) && masked.has(c.max)).toBe(true);
        } else if (j === INCOME) {
          expect(Math.min(...masked)).toBe(Math.min(...seen));
          expect(Math.max(...masked)).toBe(Math.max(...seen));
        } else {
          expect(masked.size).toBe(seen.size);
        }
      }
      let size = 0;
      let exact = true;
      for (let i = 0; i < n; i++) {
        if (!matches(data.x, i * data.d)) continue;
        size++;
        if (!m[i]) exact = false;
      }
      expect(box.size).toBe(size);
      expect(box.exact).toBe(exact);
    }
  });

  it('rejects an empty or mis-sized mask', () => {
    expectError(() => boundingConditions(dataset, mask()), DataError, 'DATA_EMPTY_GROUP');
    expectError(() => boundingConditions(dataset, new Uint8Array(3)), DataError, 'DATA_SHAPE');
  });
});
