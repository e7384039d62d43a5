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

describe('RowIndex.getOrAddAll', () => {
  it.each<[string, (rng: ReturnType<typeof createRng>) => number]>([
    ['random reals', (rng) => rng.uniform(-5, 5)],
    ['few values (many repeats)', (rng) => rng.int(0, 3)],
    [
      '-0, 0, NaNs of two payloads and others',
      (rng) => [-0, 0, Number.NaN, Math.sqrt(-1), 2, 1e-300][rng.int(0, 5)]!,
    ],
  ])('numbers batches like a Map of row strings on %s', (_, draw) => {
    const width = 4;
    const rng = createRng(5);
    // A batch at an offset in a larger buffer, so that its 32-bit view starts past the buffer's start.
    const buffer = new Float64Array(1 + 200 * width);
    const idx = new RowIndex(width, 2);
    const oracle = new Map<string, number>();
    const ids = new Int32Array(200);
    let mismatches = 0;
    for (let t = 0; t < 300; t++) {
      const n = rng.int(1, 200);
      const x = buffer.subarray(1, 1 + n * width);
      for (let k = 0; k < x.length; k++) x[k] = draw(rng);
      const before = oracle.size;
      const added = idx.getOrAddAll(x, n, ids);
      for (let i = 0; i < n; i++) {
        const key = Array.from(x.subarray(i * width, (i + 1) * width), String).join();
        if (!oracle.has(key)) oracle.set(key, oracle.size);
        if (ids[i] !== oracle.get(key)) mismatches++;
        if (idx.find(x, i * width) !== ids[i]) mismatches++;
      }
      if (added !== oracle.size - before) mismatches++;
    }
    expect(mismatches).toBe(0);
    expect(idx.size).toBe(oracle.size);
  });

  it('keeps every row exact as its store widens from bytes to 32-bit integers to doubles', () => {
    const idx = new RowIndex(2, 1);
    // Bytes first, across several chunks; then values that need 32 bits, then doubles.
    const rows: number[][] = [];
    for (let i = 0; i < 3000; i++) rows.push([(i % 256) - 128, i % 7]);
    rows.push([127, -128], [128, 0], [-129, 5], [2 ** 31 - 1, -(2 ** 31)]);
    for (let i = 0; i < 3000; i++) rows.push([i * 1000, -i]);
    rows.push([0.5, 1], [2 ** 31, 0], [Number.NaN, 3], [1e300, -0]);
    for (let i = 0; i < 100; i++) rows.push([i + 0.25, i]);
    const ids = rows.map((r) => idx.getOrAdd(r));
    const expected = new Map<string, number>();
    for (const r of rows) {
      const key = r.map(String).join();
      if (!expected.has(key)) expected.set(key, expected.size);
    }
    expect(ids).toEqual(rows.map((r) => expected.get(r.map(String).join())));
    expect(idx.size).toBe(expected.size);
    // Every row reads back as it went in (-0 as 0), and is found again under its id.
    let wrong = 0;
    rows.forEach((r, k) => {
      const back = Array.from(idx.row(ids[k]!));
      if (back.map(String).join() !== r.map((v) => String(v === 0 ? 0 : v)).join()) wrong++;
      if (idx.find(r) !== ids[k]) wrong++;
    });
    expect(wrong).toBe(0);
    expect(idx.find([0.5, 2])).toBe(-1);
    expect(idx.find([-129, 4])).toBe(-1);
  });

  it('copies a stored row into a given array', () => {
    const idx = new RowIndex(3);
    idx.getOrAdd([4, 5, 6]);
    const out = new Float64Array(3);
    expect(idx.row(0, out)).toBe(out);
    expect(Array.from(out)).toEqual([4, 5, 6]);
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
