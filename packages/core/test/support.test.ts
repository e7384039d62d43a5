import { describe, expect, it } from 'vitest';
import { createDataset, DataSupport, defineSchema } from '../src/index.js';

// Columns: a (values 1, 3, 7), b = 10 a (so a and b determine each other), c = a > 2 (c is a function
// of a and of b, neither of them of c), g a protected category independent of the rest, and w a
// continuous attribute with 120 distinct values from 0.5 to 60.
const schema = defineSchema({
  attributes: [
    { name: 'a', kind: 'ordinal', protected: false, min: 0, max: 9, step: 1 },
    { name: 'b', kind: 'ordinal', protected: false, min: 0, max: 90, step: 10 },
    { name: 'c', kind: 'categorical', protected: false, categories: ['no', 'yes'] },
    { name: 'g', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'w', kind: 'continuous', protected: false, min: 0, max: 100 },
  ],
  outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
});
const as = [1, 3, 7];
const rows: number[][] = Array.from({ length: 120 }, (_, i) => {
  const a = as[i % 3]!;
  return [a, 10 * a, a > 2 ? 1 : 0, (i >> 1) % 2, 0.5 * (i + 1)];
});
const support = new DataSupport(createDataset({ schema, x: rows.flat(), y: rows.map((_, i) => i % 2) }));
const row = (...v: number[]) => Float64Array.from(v);

describe('DataSupport', () => {
  it('finds the functional dependencies between few-valued attributes, and only those', () => {
    const pairs = support.dependencies.map((d) => `${d.from}->${d.to}`).sort();
    // a <-> b, a -> c, b -> c; g varies within every value of a, b and c; w has too many values.
    expect(pairs).toEqual(['0->1', '0->2', '1->0', '1->2']);
  });

  it('holds an input whose values the rows hold and whose dependencies hold', () => {
    expect(support.contains([3, 30, 1, 0, 12.5])).toBe(true);
    expect(support.contains([3, 30, 1, 1, 12.5])).toBe(true); // g free
    expect(support.contains([2, 20, 0, 0, 12.5])).toBe(false); // a = 2 is no row's value
    expect(support.contains([3, 10, 1, 0, 12.5])).toBe(false); // b = 10 goes with a = 1
    expect(support.contains([3, 30, 0, 0, 12.5])).toBe(false); // a = 3 goes with c = yes
    expect(support.contains([3, 30, 1, 0, 12.3])).toBe(true); // w within its range 0.5-60
    expect(support.contains([3, 30, 1, 0, 60.5])).toBe(false);
  });

  it('moves to the next held value and carries the attributes it determines', () => {
    const r = row(3, 30, 1, 0, 12.5);
    expect(support.move(r, 0, 1, 1)).toBe(true);
    expect(Array.from(r)).toEqual([7, 70, 1, 0, 12.5]);
    expect(support.move(r, 0, 1, 1)).toBe(false); // 7 is the largest value
    expect(Array.from(r)).toEqual([7, 70, 1, 0, 12.5]);
    expect(support.move(r, 1, -1, 10)).toBe(true); // b 70 -> 30, a with it, c stays yes
    expect(Array.from(r)).toEqual([3, 30, 1, 0, 12.5]);
    expect(support.move(r, 0, -1, 1)).toBe(true); // a 3 -> 1: b 10, c no
    expect(Array.from(r)).toEqual([1, 10, 0, 0, 12.5]);
  });

  it('refuses a move that would break a dependency on the moved attribute, leaving the input', () => {
    // c determines neither a nor b, which both determine it: c cannot move alone.
    const r = row(3, 30, 1, 1, 12.5);
    expect(support.move(r, 2, -1, 1)).toBe(false);
    expect(Array.from(r)).toEqual([3, 30, 1, 1, 12.5]);
  });

  it('moves a many-valued continuous attribute by its step within the rows\u2019 range', () => {
    const r = row(3, 30, 1, 0, 59);
    expect(support.move(r, 4, 1, 0.75)).toBe(true);
    expect(r[4]).toBe(59.75);
    expect(support.move(r, 4, 1, 0.75)).toBe(true);
    expect(r[4]).toBe(60);
    expect(support.move(r, 4, 1, 0.75)).toBe(false);
  });
});
