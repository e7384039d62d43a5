import { describe, expect, it } from 'vitest';
import {
  createDataset,
  createRng,
  type Dataset,
  type DiscreteAttribute,
  type DiscretiseMethod,
  defineSchema,
  discretiseAttribute,
  discretiseDataset,
  memberMask,
  OptionsError,
} from '../src/index.js';
import { expectError } from './helpers.js';

const schema = defineSchema({
  attributes: [
    { name: 'u', kind: 'continuous', protected: false, min: 0, max: 10 },
    { name: 'grade', kind: 'ordinal', protected: false, min: 0, max: 9, step: 1 },
    { name: 'colour', kind: 'categorical', protected: true, categories: ['r', 'g', 'b', 'k', 'w'] },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

/** A dataset over `schema` with the given columns. */
function columns(u: number[], grade: number[], colour: number[]): Dataset {
  const n = u.length;
  const x = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    x[i * 3] = u[i]!;
    x[i * 3 + 1] = grade[i]!;
    x[i * 3 + 2] = colour[i]!;
  }
  return createDataset({ schema, x, y: new Int32Array(n) });
}

// Sorted u: 1 2 3 3 3 5 7 9 (first ranks 0 1 2 5 6 7).
const U = [5, 1, 3, 3, 3, 9, 7, 2];
const GRADE = [0, 1, 2, 3, 4, 4, 3, 0];
const COLOUR = [0, 2, 2, 0, 4, 3, 2, 0];
const ds = columns(U, GRADE, COLOUR);

/** Asserts that every level's condition, and every union of levels, selects exactly its rows. */
function expectExactConditions(data: Dataset, a: DiscreteAttribute): void {
  a.levels.forEach((level, k) => {
    expect(Array.from(memberMask(data, [level]))).toEqual(Array.from(a.codes, (c) => (c === k ? 1 : 0)));
  });
  for (let bits = 1; bits < 1 << a.arity; bits++) {
    const set = Int32Array.from({ length: a.arity }, (_, k) => k).filter((k) => bits & (1 << k));
    const expected = Array.from(a.codes, (c) => (bits & (1 << c) ? 1 : 0));
    expect(Array.from(memberMask(data, [a.condition(set)]))).toEqual(expected);
  }
}

describe('discretiseAttribute, rank method', () => {
  it('puts each distinct value in bin ⌊first rank · bins / n⌋', () => {
    // bins = 4: ⌊r/2⌋ gives 1,2 -> 0; 3 -> 1; 5 -> 2; 7,9 -> 3.
    const a = discretiseAttribute(ds, 0, { maxLevels: 20, bins: 4 });
    expect(a.binned).toBe(true);
    expect(a.ordered).toBe(true);
    expect(Array.from(a.codes)).toEqual([2, 0, 1, 1, 1, 3, 3, 0]);
    expect(Array.from(a.counts)).toEqual([2, 3, 1, 2]);
    expect(a.levels).toEqual([
      { attribute: 'u', min: 1, max: 2, maxInclusive: true },
      { attribute: 'u', min: 3, max: 3, maxInclusive: true },
      { attribute: 'u', min: 5, max: 5, maxInclusive: true },
      { attribute: 'u', min: 7, max: 9, maxInclusive: true },
    ]);
    // bins = 3: ⌊3r/8⌋ gives ranks 0,1,2 -> 0; 5 -> 1; 6,7 -> 2.
    const b = discretiseAttribute(ds, 0, { maxLevels: 20, bins: 3 });
    expect(Array.from(b.codes)).toEqual([1, 0, 0, 0, 0, 2, 2, 0]);
    expect(b.levels.map((c) => ('min' in c ? [c.min, c.max] : null))).toEqual([
      [1, 3],
      [5, 5],
      [7, 9],
    ]);
  });

  it('keeps tied rows together and drops the bins ties leave empty', () => {
    const tied = columns([0, 0, 0, 0, 0, 0, 1, 2], GRADE, COLOUR);
    // First ranks 0, 6, 7 with bins = 4: bins 0, 3, 3; bins 1 and 2 are empty.
    const a = discretiseAttribute(tied, 0, { maxLevels: 20, bins: 4 });
    expect(a.arity).toBe(2);
    expect(Array.from(a.codes)).toEqual([0, 0, 0, 0, 0, 0, 1, 1]);
    expect(a.levels[1]).toEqual({ attribute: 'u', min: 1, max: 2, maxInclusive: true });
  });

  it('gives a constant column one level', () => {
    const constant = columns([4.5, 4.5, 4.5], [7, 7, 7], [1, 1, 1]);
    for (const method of ['rank', 'cuts'] as const) {
      const a = discretiseAttribute(constant, 0, { maxLevels: 20, bins: 4, method });
      expect(a.arity).toBe(1);
      expect(a.levels).toEqual([{ attribute: 'u', min: 4.5, max: 4.5, maxInclusive: true }]);
      expect(Array.from(a.codes)).toEqual([0, 0, 0]);
    }
    const g = discretiseAttribute(constant, 1, { maxLevels: 20, bins: 4 });
    expect(g.levels).toEqual([{ attribute: 'grade', values: [7] }]);
  });
});

describe('discretiseAttribute, cuts method', () => {
  it('cuts at the values of ranks ⌊b·n/bins⌋ and levels half-open intervals between cuts', () => {
    // Ranks 2, 4, 6 hold 3, 3, 7: the repeated 3 is dropped, so the cuts are 3 and 7.
    const a = discretiseAttribute(ds, 0, { maxLevels: 20, bins: 4, method: 'cuts' });
    expect(Array.from(a.codes)).toEqual([1, 0, 1, 1, 1, 2, 2, 0]);
    expect(a.levels).toEqual([
      { attribute: 'u', min: 1, max: 3, maxInclusive: false },
      { attribute: 'u', min: 3, max: 7, maxInclusive: false },
      { attribute: 'u', min: 7, max: 9, maxInclusive: true },
    ]);
  });

  it('drops a cut equal to the minimum', () => {
    // Ranks 2, 4, 6 hold 0, 0, 1: only the cut 1 leaves rows below it.
    const tied = columns([0, 0, 0, 0, 0, 0, 1, 2], GRADE, COLOUR);
    const a = discretiseAttribute(tied, 0, { maxLevels: 20, bins: 4, method: 'cuts' });
    expect(Array.from(a.codes)).toEqual([0, 0, 0, 0, 0, 0, 1, 1]);
    expect(a.levels).toEqual([
      { attribute: 'u', min: 0, max: 1, maxInclusive: false },
      { attribute: 'u', min: 1, max: 2, maxInclusive: true },
    ]);
  });

  it('differs from the rank method when a cut falls inside a run of ties', () => {
    // Sorted 1 2 2 3, bins = 2: the cut is the value at rank 2 (2), so 2 joins the upper level;
    // under the rank method 2's first row has rank 1 and it stays in the lower bin.
    const small = columns([1, 2, 2, 3], [0, 0, 0, 0], [0, 0, 0, 0]);
    const cuts = discretiseAttribute(small, 0, { maxLevels: 20, bins: 2, method: 'cuts' });
    const rank = discretiseAttribute(small, 0, { maxLevels: 20, bins: 2, method: 'rank' });
    expect(Array.from(cuts.codes)).toEqual([0, 1, 1, 1]);
    expect(Array.from(rank.codes)).toEqual([0, 0, 0, 1]);
  });
});

describe('discretiseAttribute, one level per value', () => {
  it('keeps discrete attributes with at most maxLevels observed values, in ascending order', () => {
    // grade takes 0..4 (5 values); colour takes 0, 2, 3, 4 (g never occurs).
    const g = discretiseAttribute(ds, 1, { maxLevels: 5, bins: 2 });
    expect(g.binned).toBe(false);
    expect(g.ordered).toBe(true);
    expect(Array.from(g.codes)).toEqual(GRADE);
    expect(g.levels.map((c) => ('values' in c ? c.values : null))).toEqual([[0], [1], [2], [3], [4]]);
    const c = discretiseAttribute(ds, 2, { maxLevels: 5, bins: 2 });
    expect(c.ordered).toBe(false);
    expect(Array.from(c.codes)).toEqual([0, 1, 1, 0, 3, 2, 1, 0]);
    expect(c.levels).toEqual([0, 2, 3, 4].map((v) => ({ attribute: 'colour', values: [v] })));
    expect(Array.from(c.counts)).toEqual([3, 3, 1, 1]);
  });

  it('bins a discrete attribute with more values, and a categorical one unless told not to', () => {
    expect(discretiseAttribute(ds, 1, { maxLevels: 4, bins: 2 }).binned).toBe(true);
    const c = discretiseAttribute(ds, 2, { maxLevels: 3, bins: 2 });
    expect(c.binned).toBe(true);
    expect(c.ordered).toBe(true);
    // Colour codes sorted: 0 0 0 2 2 2 3 4; first ranks 0, 3, 6, 7 -> bins 0, 0, 1, 1.
    expect(c.levels).toEqual([
      { attribute: 'colour', min: 0, max: 2, maxInclusive: true },
      { attribute: 'colour', min: 3, max: 4, maxInclusive: true },
    ]);
    const kept = discretiseAttribute(ds, 2, { maxLevels: 3, bins: 2, binCategorical: false });
    expect(kept.binned).toBe(false);
    expect(kept.arity).toBe(4);
  });
});

describe('condition of a set of levels', () => {
  it('is an interval for a run of bins and the covered values otherwise', () => {
    const a = discretiseAttribute(ds, 0, { maxLevels: 20, bins: 4 });
    expect(a.condition([1, 2, 3])).toEqual({ attribute: 'u', min: 3, max: 9, maxInclusive: true });
    expect(a.condition([0, 2])).toEqual({ attribute: 'u', values: [1, 2, 5] });
    const cuts = discretiseAttribute(ds, 0, { maxLevels: 20, bins: 4, method: 'cuts' });
    expect(cuts.condition([0, 1])).toEqual({ attribute: 'u', min: 1, max: 7, maxInclusive: false });
  });

  it('lists values of an unbinned attribute, or gives an interval for an ordered run when asked', () => {
    const g = discretiseAttribute(ds, 1, { maxLevels: 20, bins: 2 });
    expect(g.condition([1, 2, 3])).toEqual({ attribute: 'grade', values: [1, 2, 3] });
    const ranged = discretiseAttribute(ds, 1, { maxLevels: 20, bins: 2, valueRanges: true });
    expect(ranged.condition([1, 2, 3])).toEqual({ attribute: 'grade', min: 1, max: 3, maxInclusive: true });
    expect(ranged.condition([2])).toEqual({ attribute: 'grade', values: [2] });
    expect(ranged.condition([0, 2])).toEqual({ attribute: 'grade', values: [0, 2] });
    const colour = discretiseAttribute(ds, 2, { maxLevels: 20, bins: 2, valueRanges: true });
    expect(colour.condition([0, 1])).toEqual({ attribute: 'colour', values: [0, 2] });
  });

  it('selects exactly the rows of its levels, for every method and union', () => {
    const rng = createRng('discretise');
    const n = 300;
    const u: number[] = [];
    const grade: number[] = [];
    const colour: number[] = [];
    for (let i = 0; i < n; i++) {
      // Heavy ties on u: a third of the rows share 5.
      u.push(rng.next() < 1 / 3 ? 5 : Math.round(rng.next() * 100) / 10);
      grade.push(rng.int(0, 9));
      colour.push(rng.int(0, 4));
    }
    const data = columns(u, grade, colour);
    for (const method of ['rank', 'cuts'] as DiscretiseMethod[]) {
      for (const valueRanges of [false, true]) {
        for (let j = 0; j < 3; j++) {
          for (const maxLevels of [3, 20]) {
            const a = discretiseAttribute(data, j, { maxLevels, bins: 5, method, valueRanges });
            expect(a.arity).toBeLessThanOrEqual(Math.max(5, maxLevels));
            expect(Array.from(a.counts).every((c) => c > 0)).toBe(true);
            expectExactConditions(data, a);
          }
        }
      }
    }
  });
});

describe('discretiseDataset', () => {
  it('discretises the listed columns in order and lays the codes out row-major', () => {
    const whole = discretiseDataset(ds, { maxLevels: 4, bins: 2 });
    expect(whole.attributes.map((a) => a.attribute)).toEqual(['u', 'grade', 'colour']);
    const some = discretiseDataset(ds, { maxLevels: 4, bins: 2 }, [2, 0]);
    expect(some.attributes.map((a) => a.column)).toEqual([2, 0]);
    for (let i = 0; i < ds.n; i++) {
      for (let k = 0; k < 3; k++) expect(whole.codes[i * 3 + k]).toBe(whole.attributes[k]!.codes[i]);
      expect(some.codes[i * 2]).toBe(whole.codes[i * 3 + 2]);
      expect(some.codes[i * 2 + 1]).toBe(whole.codes[i * 3]);
    }
  });

  it('polls a stop callback before each attribute: the same levels when it never stops, null when it does', () => {
    const whole = discretiseDataset(ds, { maxLevels: 4, bins: 2 });
    let polls = 0;
    const polled = discretiseDataset(ds, { maxLevels: 4, bins: 2 }, undefined, () => {
      polls++;
      return false;
    });
    expect(polls).toBe(3);
    expect(Array.from(polled!.codes)).toEqual(Array.from(whole.codes));
    expect(polled!.attributes.map((a) => a.levels)).toEqual(whole.attributes.map((a) => a.levels));
    polls = 0;
    expect(discretiseDataset(ds, { maxLevels: 4, bins: 2 }, [2, 0, 1], () => ++polls === 2)).toBeNull();
    expect(polls).toBe(2);
  });

  it('rejects a bad bin count or column', () => {
    expectError(() => discretiseDataset(ds, { maxLevels: 4, bins: 0 }), OptionsError, 'OPTIONS_INVALID', {
      option: '/bins',
    });
    expectError(() => discretiseAttribute(ds, 3, { maxLevels: 4, bins: 2 }), OptionsError, 'OPTIONS_INVALID');
  });
});
