import { describe, expect, it } from 'vitest';
import { createRng, GrowableArray, RowIndex } from '../src/index.js';

describe('RowIndex', () => {
  it('gives dense ids in insertion order and finds them again', () => {
    const idx = new RowIndex(2);
    expect(idx.size).toBe(0);
    expect(idx.find([1, 2])).toBe(-1);
    expect(idx.getOrAdd([1, 2])).toBe(0);
    expect(idx.getOrAdd([2, 1])).toBe(1);
    expect(idx.getOrAdd([1, 2])).toBe(0);
    expect(idx.getOrAdd([1.5, 2])).toBe(2);
    expect(idx.size).toBe(3);
    expect(idx.find([2, 1])).toBe(1);
    expect(idx.find([2, 2])).toBe(-1);
    expect(Array.from(idx.row(2))).toEqual([1.5, 2]);
  });

  it('reads rows at an offset inside a larger array', () => {
    const idx = new RowIndex(3);
    const batch = Float64Array.of(9, 9, 1, 2, 3, 4, 5, 6);
    expect(idx.getOrAdd(batch, 2)).toBe(0);
    expect(idx.getOrAdd(batch, 5)).toBe(1);
    expect(idx.find([1, 2, 3])).toBe(0);
    expect(idx.find(Float64Array.of(0, 4, 5, 6), 1)).toBe(1);
  });

  it('treats -0 and 0 as the same value', () => {
    const idx = new RowIndex(2);
    const id = idx.getOrAdd([0, -0]);
    expect(idx.find([-0, 0])).toBe(id);
    expect(idx.getOrAdd([-0, -0])).toBe(id);
    expect(idx.size).toBe(1);
  });

  it('handles zero-width rows as a single key', () => {
    const idx = new RowIndex(0);
    expect(idx.getOrAdd([])).toBe(0);
    expect(idx.getOrAdd([])).toBe(0);
    expect(idx.size).toBe(1);
  });

  it('rejects a bad width', () => {
    expect(() => new RowIndex(-1)).toThrow(RangeError);
    expect(() => new RowIndex(1.5)).toThrow(RangeError);
  });

  it('agrees with a Map of string keys over 100k random rows, growing far past its initial capacity', () => {
    const width = 3;
    const idx = new RowIndex(width, 4);
    const oracle = new Map<string, number>();
    const rng = createRng(21);
    const values = [-0, 0, 1, 2, 3, 0.1, 0.2, 0.30000000000000004, 1e-300, -1e300, 7.5];
    const row = new Float64Array(width);
    let mismatches = 0;
    for (let t = 0; t < 100_000; t++) {
      // Mostly a 1331-row space (many repeats) plus fresh random reals.
      for (let j = 0; j < width; j++) row[j] = t % 3 === 0 ? rng.uniform(-10, 10) : rng.choice(values);
      const key = Array.from(row, String).join(',');
      const known = oracle.get(key);
      const found = idx.find(row);
      const id = idx.getOrAdd(row);
      if (known === undefined) {
        oracle.set(key, oracle.size);
        if (found !== -1) mismatches++;
      } else if (found !== known) mismatches++;
      if (id !== oracle.get(key)) mismatches++;
    }
    expect(mismatches).toBe(0);
    expect(idx.size).toBe(oracle.size);
    expect(idx.size).toBeGreaterThan(30_000);
    // Count mismatches rather than asserting per row: one expect per row makes this test slow.
    let stored = 0;
    for (const [key, id] of oracle) {
      const parts = key.split(',').map(Number);
      // The stored row is the first one added (it may hold -0 where the key says 0).
      if (Array.from(idx.row(id), String).join(',') !== key) stored++;
      if (idx.find(parts) !== id) stored++;
    }
    expect(stored).toBe(0);
  });
});

describe('GrowableArray', () => {
  it('keeps its contents when it grows', () => {
    const g = new GrowableArray((n) => new Int32Array(n), 2);
    g.ensure(2).set([7, 8]);
    const grown = g.ensure(9);
    expect(grown.length).toBeGreaterThanOrEqual(9);
    expect(Array.from(grown.subarray(0, 2))).toEqual([7, 8]);
    expect(g.array).toBe(grown);
    expect(g.ensure(3)).toBe(grown);
  });
});
