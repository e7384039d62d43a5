import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from '@fb/core';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs helper of the build script, without types
import { compileWat } from '../scripts/wat.mjs';
import { CellLists } from '../src/cell-lists.js';
import { CELLS_WASM } from '../src/wasm/cells-wasm.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Lists of T cells below `size`, with values of mixed magnitudes (so the order of additions shows). */
function randomLists(rng: Rng, lists: number, T: number, size: number) {
  const index = new Int32Array(lists * T);
  const value = new Float64Array(lists * T);
  const other = new Float64Array(lists * T);
  for (let t = 0; t < index.length; t++) {
    index[t] = rng.int(0, size - 1);
    value[t] = (rng.next() - 0.5) * 10 ** rng.int(0, 8);
    other[t] = (rng.next() - 0.5) * 10 ** rng.int(-4, 4);
  }
  return { index, value, other };
}

function filled(lists: CellLists, data: ReturnType<typeof randomLists>, bases: Int32Array, w: Float64Array) {
  lists.reserve(bases.length);
  lists.index.set(data.index);
  if (lists.value.length > 0) lists.value.set(data.value);
  if (lists.other.length > 0) lists.other.set(data.other);
  lists.bases.set(bases);
  lists.weights.set(w);
  return lists;
}

describe('CellLists (src/wasm/cells.wat)', () => {
  it('is the module cells.wat compiles to', async () => {
    const wat = readFileSync(path.join(here, '../src/wasm/cells.wat'), 'utf8');
    const bytes: Uint8Array = await compileWat(wat, 'cells.wat');
    expect(Buffer.from(bytes).toString('base64')).toBe(CELLS_WASM);
  });

  it('runs on WebAssembly here, and on JavaScript when asked', () => {
    expect(new CellLists({ lists: 1, T: 1, size: 1, kind: 'unit' }).wasm).toBe(true);
    expect(new CellLists({ lists: 1, T: 1, size: 1, kind: 'unit', kernels: 'js' }).wasm).toBe(false);
  });

  it('sums hand-computed cases', () => {
    for (const kernels of ['auto', 'js'] as const) {
      // Lists: 0 → cells (0, 2), 1 → cells (2, 2); rows: list 1 (w 3), list 0 (w 0.5), list 1 (w −1).
      const unit = new CellLists({ lists: 2, T: 2, size: 4, kind: 'unit', kernels });
      unit.reserve(3);
      unit.index.set([0, 2, 2, 2]);
      unit.bases.set([2, 0, 2]);
      unit.weights.set([3, 0.5, -1]);
      const out = new Float64Array(4).fill(99);
      unit.sum(3, out);
      expect(Array.from(out)).toEqual([0.5, 0, 3 + 3 + 0.5 - 1 - 1, 0]);
      unit.sum(1, out);
      expect(Array.from(out)).toEqual([0, 0, 6, 0]);

      const scaled = new CellLists({ lists: 2, T: 2, size: 3, kind: 'scaled', kernels });
      scaled.reserve(2);
      scaled.index.set([0, 1, 1, 2]);
      scaled.value.set([2, -1, 4, 0.25]);
      scaled.bases.set([0, 2]);
      scaled.weights.set([3, 2]);
      const grad = new Float64Array(3);
      scaled.sum(2, grad);
      expect(Array.from(grad)).toEqual([6, -3 + 8, 0.5]);
      // With add, the sums go onto what out holds.
      scaled.sum(2, grad, true);
      expect(Array.from(grad)).toEqual([12, 10, 1]);

      // Pairs: (w · value) · other per entry.
      const pairs = new CellLists({ lists: 1, T: 2, size: 2, kind: 'pairs', kernels });
      pairs.reserve(2);
      pairs.index.set([1, 1]);
      pairs.value.set([2, 3]);
      pairs.other.set([5, -1]);
      pairs.bases.set([0, 0]);
      pairs.weights.set([1, 0.5]);
      const cell = new Float64Array(2);
      pairs.sum(2, cell);
      expect(Array.from(cell)).toEqual([0, 10 - 3 + 5 - 1.5]);
      const dots = new Float64Array(2);
      scaled.dots(2, Float64Array.of(1, 10, 100), 0.5, dots);
      expect(Array.from(dots)).toEqual([0.5 + 2 - 10, 0.5 + 40 + 25]);
    }
  });

  it('gives the bits of the row-order loops, on WebAssembly and on JavaScript', () => {
    const rng = Rng.create('cell-lists-bits');
    for (let trial = 0; trial < 20; trial++) {
      const nLists = 1 + rng.int(0, 50);
      const T = 1 + rng.int(0, 12);
      const size = 1 + rng.int(0, 40);
      const rows = rng.int(0, 400);
      const data = randomLists(rng, nLists, T, size);
      const bases = Int32Array.from({ length: rows }, () => rng.int(0, nLists - 1) * T);
      const w = Float64Array.from({ length: rows }, () => (rng.next() - 0.3) * 10 ** rng.int(0, 6));
      // The reference: each row in order, each entry of its list in order, one addition each.
      const unit = new Float64Array(size);
      const scaled = new Float64Array(size);
      const paired = new Float64Array(size);
      for (let r = 0; r < rows; r++) {
        for (let t = bases[r]!; t < bases[r]! + T; t++) {
          unit[data.index[t]!] += w[r]!;
          scaled[data.index[t]!] += w[r]! * data.value[t]!;
          paired[data.index[t]!] += w[r]! * data.value[t]! * data.other[t]!;
        }
      }
      const x = Float64Array.from({ length: size }, () => rng.next() * 2 - 1);
      const dots = new Float64Array(nLists);
      for (let q = 0; q < nLists; q++) {
        let s = -0.75;
        for (let t = q * T; t < q * T + T; t++) s += x[data.index[t]!]! * data.value[t]!;
        dots[q] = s;
      }
      for (const kernels of ['auto', 'js'] as const) {
        const plain = filled(
          new CellLists({ lists: nLists, T, size, kind: 'unit', kernels }),
          data,
          bases,
          w,
        );
        const withValues = filled(
          new CellLists({ lists: nLists, T, size, kind: 'scaled', kernels }),
          data,
          bases,
          w,
        );
        const withPairs = filled(
          new CellLists({ lists: nLists, T, size, kind: 'pairs', kernels }),
          data,
          bases,
          w,
        );
        const out = new Float64Array(size);
        plain.sum(rows, out);
        expect(out).toEqual(unit);
        withValues.sum(rows, out);
        expect(out).toEqual(scaled);
        withPairs.sum(rows, out);
        expect(out).toEqual(paired);
        const got = new Float64Array(nLists);
        withValues.dots(nLists, x, -0.75, got);
        expect(got).toEqual(dots);
      }
    }
  });

  it('keeps the lists and makes new row views when it grows, and refuses rows it has no room for', () => {
    const lists = new CellLists({ lists: 3, T: 2, size: 5, kind: 'scaled' });
    lists.reserve(1);
    lists.index.set([0, 1, 2, 3, 4, 0]);
    lists.value.set([1, 2, 3, 4, 5, 6]);
    const old = lists.bases;
    // About 1.5 MB of rows: past the first memory pages.
    lists.reserve(200_000);
    // The old view is detached (length 0); the new one has room.
    expect(old.length).toBe(0);
    expect(lists.bases.length).toBe(200_000);
    expect(Array.from(lists.index)).toEqual([0, 1, 2, 3, 4, 0]);
    expect(Array.from(lists.value)).toEqual([1, 2, 3, 4, 5, 6]);
    lists.bases.fill(4);
    lists.weights.fill(1);
    const out = new Float64Array(5);
    lists.sum(200_000, out, true);
    expect(Array.from(out)).toEqual([200_000 * 6, 0, 0, 0, 200_000 * 5]);
    expect(() => lists.sum(200_001, out)).toThrow(RangeError);
    const unit = new CellLists({ lists: 1, T: 1, size: 1, kind: 'unit' });
    expect(() => unit.dots(1, new Float64Array(1), 0, new Float64Array(1))).toThrow(
      /needs lists with values/,
    );
  });
});
