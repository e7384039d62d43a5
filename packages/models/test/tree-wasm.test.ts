import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataError, Rng } from '@fb/core';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs helper of the build script, without types
import { compileWat } from '../scripts/wat.mjs';
import { FeatureBinner } from '../src/binning.js';
import { TreeBuilder, type TreeKernels } from '../src/tree-builder.js';
import { BINNING_WASM } from '../src/wasm/binning-wasm.js';
import { TREE_WASM } from '../src/wasm/tree-wasm.js';
import { wasmApi } from '../src/wasm-api.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The module on a fresh memory, with regions laid out by `take` (bytes, 8-aligned). */
function instance() {
  const wasm = wasmApi!;
  const memory = new wasm.Memory({ initial: 4 });
  const k = new wasm.Instance(new wasm.Module(Buffer.from(TREE_WASM, 'base64')), {
    env: { memory },
  }).exports as TreeKernels;
  let end = 8;
  const take = (bytes: number) => {
    const at = end;
    end += Math.ceil(bytes / 8) * 8;
    return at;
  };
  return { k, buffer: memory.buffer, take };
}

describe('the split search kernels (src/wasm/tree.wat)', () => {
  it('is the module tree.wat compiles to', async () => {
    const wat = readFileSync(path.join(here, '../src/wasm/tree.wat'), 'utf8');
    const bytes: Uint8Array = await compileWat(wat, 'tree.wat');
    expect(Buffer.from(bytes).toString('base64')).toBe(TREE_WASM);
  });

  it('the binning kernels are the module binning.wat compiles to', async () => {
    const wat = readFileSync(path.join(here, '../src/wasm/binning.wat'), 'utf8');
    const bytes: Uint8Array = await compileWat(wat, 'binning.wat');
    expect(Buffer.from(bytes).toString('base64')).toBe(BINNING_WASM);
  });

  it('collect lists the rows of positive weight with their classes, class weights and total', () => {
    const { k, buffer, take } = instance();
    const rw = Float64Array.of(1, 0, 2.5, -1, 0.25, 3);
    const y = Int32Array.of(0, 1, 2, 1, 2, 0);
    const n = rw.length;
    const at = {
      rw: take(8 * n),
      y: take(4 * n),
      idx: take(4 * n),
      wv: take(8 * n),
      yv: take(4 * n),
      cls: take(32),
    };
    new Float64Array(buffer, at.rw, n).set(rw);
    new Int32Array(buffer, at.y, n).set(y);
    const m = k.collect(at.rw, at.y, n, at.idx, at.wv, at.yv, 3, at.cls);
    expect(m).toBe(4);
    expect(Array.from(new Int32Array(buffer, at.idx, m))).toEqual([0, 2, 4, 5]);
    expect(Array.from(new Float64Array(buffer, at.wv, m))).toEqual([1, 2.5, 0.25, 3]);
    expect(Array.from(new Int32Array(buffer, at.yv, m))).toEqual([0, 2, 2, 0]);
    expect(Array.from(new Float64Array(buffer, at.cls, 4))).toEqual([4, 0, 2.75, 6.75]);
  });

  it('dense and sparse histograms agree with a count by hand, and clear leaves zeros', () => {
    const rng = Rng.create('tree-wasm-histograms');
    const { k, buffer, take } = instance();
    const n = 500;
    const K = 3;
    const nb = 40;
    const at = {
      bins: take(n),
      idx: take(4 * n),
      yv: take(4 * n),
      wv: take(8 * n),
      hc: take(4 * nb),
      hw: take(8 * nb * K),
      touched: take(4 * nb),
    };
    const bins = new Uint8Array(buffer, at.bins, n);
    const idx = new Int32Array(buffer, at.idx, n);
    const yv = new Int32Array(buffer, at.yv, n);
    const wv = new Float64Array(buffer, at.wv, n);
    const hc = new Int32Array(buffer, at.hc, nb);
    const hw = new Float64Array(buffer, at.hw, nb * K);
    const touched = new Int32Array(buffer, at.touched, nb);
    for (let i = 0; i < n; i++) {
      bins[i] = rng.int(0, nb - 1);
      idx[i] = rng.int(0, n - 1);
      yv[i] = rng.int(0, K - 1);
      wv[i] = rng.uniform(0, 3);
    }
    for (const [start, end] of [
      [0, n],
      [100, 112],
      [7, 8],
    ] as const) {
      const count = new Int32Array(nb);
      const weight = new Float64Array(nb * K);
      for (let i = start; i < end; i++) {
        const b = bins[idx[i]!]!;
        count[b]!++;
        weight[b * K + yv[i]!]! += wv[i]!;
      }
      const occupiedByHand = Array.from(count.keys()).filter((b) => count[b]! > 0);
      for (const mode of ['dense', 'sparse'] as const) {
        let occupied: number;
        if (mode === 'dense') {
          k.addRows(at.bins, at.idx, at.yv, at.wv, start, end, K, at.hc, at.hw);
          occupied = k.occupied(at.hc, nb, at.touched);
        } else {
          occupied = k.sparse(at.bins, at.idx, at.yv, at.wv, start, end, K, at.hc, at.hw, at.touched);
        }
        expect(Array.from(touched.subarray(0, occupied))).toEqual(occupiedByHand);
        expect(Array.from(hc)).toEqual(Array.from(count));
        expect(Array.from(hw)).toEqual(Array.from(weight));
        k.clear(at.touched, occupied, K, at.hc, at.hw);
        expect(hc.every((v) => v === 0) && hw.every((v) => v === 0)).toBe(true);
      }
    }
  });

  it('scanGini finds the split an exhaustive search finds, and keeps a better one found before', () => {
    const rng = Rng.create('tree-wasm-gini');
    const { k, buffer, take } = instance();
    const K = 2;
    const nb = 12;
    const at = {
      hc: take(4 * nb),
      hw: take(8 * nb * K),
      touched: take(4 * nb),
      parent: take(8 * K),
      cum: take(16 * K),
      best: take(8),
    };
    const hc = new Int32Array(buffer, at.hc, nb);
    const hw = new Float64Array(buffer, at.hw, nb * K);
    const touched = new Int32Array(buffer, at.touched, nb);
    const parent = new Float64Array(buffer, at.parent, K);
    const cum = new Float64Array(buffer, at.cum, 2 * K);
    const best = new Float64Array(buffer, at.best, 1);
    for (let trial = 0; trial < 50; trial++) {
      parent.fill(0);
      let count = 0;
      for (let b = 0; b < nb; b++) {
        touched[b] = b;
        hc[b] = rng.int(1, 6);
        count += hc[b]!;
        for (let c = 0; c < K; c++) {
          hw[b * K + c] = rng.int(0, hc[b]!);
          parent[c]! += hw[b * K + c]!;
        }
      }
      const W = parent[0]! + parent[1]!;
      const minLeaf = rng.int(1, 8);
      // Every split point with at least minLeaf rows a side and weight on both: Gini score by hand.
      let want = -1;
      let wantScore = Number.NEGATIVE_INFINITY;
      for (let s = 0; s < nb - 1; s++) {
        let cl = 0;
        const left = [0, 0];
        for (let b = 0; b <= s; b++) {
          cl += hc[b]!;
          for (let c = 0; c < K; c++) left[c]! += hw[b * K + c]!;
        }
        const wl = left[0]! + left[1]!;
        const wr = W - wl;
        if (cl < minLeaf || count - cl < minLeaf || !(wl > 0 && wr > 0)) continue;
        const score =
          (left[0]! ** 2 + left[1]! ** 2) / wl +
          ((parent[0]! - left[0]!) ** 2 + (parent[1]! - left[1]!) ** 2) / wr;
        if (score > wantScore + 1e-12) {
          wantScore = score;
          want = s;
        }
      }
      best[0] = Number.NEGATIVE_INFINITY;
      const found = k.scanGini(
        at.touched,
        nb,
        at.hc,
        at.hw,
        K,
        at.parent,
        W,
        count,
        minLeaf,
        at.cum,
        at.best,
      );
      expect(found).toBe(want);
      if (want < 0) continue;
      expect(best[0]).toBeCloseTo(wantScore, 12);
      let l0 = 0;
      for (let b = 0; b <= want; b++) l0 += hw[b * K]!;
      expect(cum[K]).toBe(l0);
      // A score already better than any of this feature's: nothing found, best kept.
      best[0] = wantScore + 1;
      expect(k.scanGini(at.touched, nb, at.hc, at.hw, K, at.parent, W, count, minLeaf, at.cum, at.best)).toBe(
        -1,
      );
      expect(best[0]).toBe(wantScore + 1);
    }
  });

  it('searchFeatures finds the split an exhaustive search over the features in its order finds', () => {
    const rng = Rng.create('tree-wasm-search');
    const { k, buffer, take } = instance();
    // More rows than one of addRowsAll's chunks of 1,024: nodes of all rows span two or three chunks.
    const n = 2600;
    const d = 4;
    const K = 3;
    const nBins = Int32Array.of(5, 40, 2, 17);
    const maxBins = 40;
    const at = {
      order: take(4 * d),
      nBins: take(4 * d),
      bins: take(d * n),
      idx: take(4 * n),
      yv: take(4 * n),
      wv: take(8 * n),
      hcAll: take(4 * d * maxBins),
      hwAll: take(8 * d * maxBins * K),
      hc: take(4 * maxBins),
      hw: take(8 * maxBins * K),
      touched: take(4 * maxBins),
      parent: take(8 * K),
      cum: take(16 * K),
      best: take(8),
      out: take(12),
      left: take(8 * K),
    };
    new Int32Array(buffer, at.nBins, d).set(nBins);
    const order = new Int32Array(buffer, at.order, d);
    const bins = new Uint8Array(buffer, at.bins, d * n);
    const idx = new Int32Array(buffer, at.idx, n);
    const yv = new Int32Array(buffer, at.yv, n);
    const wv = new Float64Array(buffer, at.wv, n);
    const parent = new Float64Array(buffer, at.parent, K);
    const best = new Float64Array(buffer, at.best, 1);
    const out = new Int32Array(buffer, at.out, 3);
    const left = new Float64Array(buffer, at.left, K);
    for (let trial = 0; trial < 40; trial++) {
      for (let f = 0; f < d; f++) for (let i = 0; i < n; i++) bins[f * n + i] = rng.int(0, nBins[f]! - 1);
      for (let i = 0; i < n; i++) {
        idx[i] = i;
        yv[i] = rng.int(0, K - 1);
        wv[i] = rng.int(1, 4);
      }
      order.set(rng.shuffle(Int32Array.from({ length: d }, (_, f) => f)));
      // A node of many rows (dense histograms), of fewer rows than the widest feature has bins (sparse), or
      // of every row with all histograms filled at once.
      const start = rng.int(0, 50);
      const end = trial % 3 === 1 ? start + rng.int(4, 30) : rng.int(200, n);
      const all = trial % 3 === 2 && end - start >= maxBins ? 1 : 0;
      const minLeaf = rng.int(1, 10);
      parent.fill(0);
      for (let i = start; i < end; i++) parent[yv[i]!]! += wv[i]!;
      const W = parent.reduce((a, b) => a + b, 0);
      // By hand: per feature in the order, every split between occupied bins; the first strictly best wins.
      let want = { feature: -1, bin: -1, next: -1, score: Number.NEGATIVE_INFINITY, left: [] as number[] };
      for (const f of order) {
        const count = new Array(nBins[f]!).fill(0);
        const weight = Array.from({ length: nBins[f]! }, () => new Array(K).fill(0));
        for (let i = start; i < end; i++) {
          const b = bins[f * n + idx[i]!]!;
          count[b]++;
          weight[b]![yv[i]!] += wv[i]!;
        }
        const occupied = count.flatMap((c, b) => (c > 0 ? [b] : []));
        let cl = 0;
        const cum = new Array(K).fill(0);
        for (let s = 0; s + 1 < occupied.length; s++) {
          const b = occupied[s]!;
          cl += count[b];
          for (let c = 0; c < K; c++) cum[c] += weight[b]![c];
          if (cl < minLeaf) continue;
          if (end - start - cl < minLeaf) break;
          const wl = cum.reduce((a, v) => a + v, 0);
          const wr = W - wl;
          if (!(wl > 0 && wr > 0)) continue;
          let sl = 0;
          let sr = 0;
          for (let c = 0; c < K; c++) {
            sl += cum[c] * cum[c];
            sr += (parent[c]! - cum[c]) * (parent[c]! - cum[c]);
          }
          const score = sl / wl + sr / wr;
          if (score > want.score)
            want = { feature: f, bin: b, next: occupied[s + 1]!, score, left: [...cum] };
        }
      }
      best[0] = Number.NEGATIVE_INFINITY;
      const found = k.searchFeatures(
        at.order,
        d,
        at.nBins,
        at.bins,
        n,
        at.idx,
        at.yv,
        at.wv,
        start,
        end,
        K,
        all,
        at.hcAll,
        at.hwAll,
        4 * maxBins,
        8 * maxBins * K,
        at.hc,
        at.hw,
        at.touched,
        at.parent,
        W,
        minLeaf,
        at.cum,
        at.best,
        at.out,
        at.left,
      );
      expect(found).toBe(want.feature);
      // Every histogram is left empty for the next node.
      expect(new Int32Array(buffer, at.hcAll, d * maxBins).every((v) => v === 0)).toBe(true);
      expect(new Int32Array(buffer, at.hc, maxBins).every((v) => v === 0)).toBe(true);
      if (want.feature < 0) continue;
      expect(Array.from(out)).toEqual([want.feature, want.bin, want.next]);
      expect(best[0]).toBe(want.score);
      expect(Array.from(left)).toEqual(want.left);
    }
  });

  it('partition puts the rows with bin <= the split bin first, weights and classes alongside', () => {
    const rng = Rng.create('tree-wasm-partition');
    const { k, buffer, take } = instance();
    const n = 300;
    const at = { bins: take(n), idx: take(4 * n), wv: take(8 * n), yv: take(4 * n) };
    const bins = new Uint8Array(buffer, at.bins, n);
    const idx = new Int32Array(buffer, at.idx, n);
    const wv = new Float64Array(buffer, at.wv, n);
    const yv = new Int32Array(buffer, at.yv, n);
    for (let i = 0; i < n; i++) bins[i] = rng.int(0, 9);
    for (const [start, end, bin] of [
      [0, n, 4],
      [50, 90, 0],
      [10, 11, 9],
      [20, 60, 9],
    ] as const) {
      for (let i = 0; i < n; i++) {
        idx[i] = n - 1 - i;
        wv[i] = idx[i]! / 7;
        yv[i] = idx[i]! % 3;
      }
      const before = Array.from(idx.subarray(start, end)).sort((a, b) => a - b);
      const mid = k.partition(at.bins, at.idx, at.wv, at.yv, start, end, bin);
      const goesLeft = before.filter((r) => bins[r]! <= bin).length;
      expect(mid).toBe(start + goesLeft);
      for (let i = start; i < end; i++) {
        expect(bins[idx[i]!]! <= bin).toBe(i < mid);
        expect(wv[i]).toBe(idx[i]! / 7);
        expect(yv[i]).toBe(idx[i]! % 3);
      }
      expect(Array.from(idx.subarray(start, end)).sort((a, b) => a - b)).toEqual(before);
      expect(idx[start - 1] ?? -1).toBe(start > 0 ? n - start : -1);
    }
  });
});

describe('TreeBuilder memory', () => {
  it('refuses a table too large for WebAssembly memory with a DataError naming the sizes', () => {
    const n = 2 ** 29;
    const binner = FeatureBinner.fromParts({
      nBins: Int32Array.of(2),
      edges: [Float64Array.of(0.5)],
      lower: [Float64Array.of(0, 1)],
      upper: [Float64Array.of(0, 1)],
      exact: [true],
    });
    // The bins array's length is what is copied; a short one keeps the test small.
    const data = { binner, bins: new Uint8Array(8), n, y: new Int32Array(8), nClasses: 2 };
    expect(() => new TreeBuilder(data)).toThrow(DataError);
    expect(() => new TreeBuilder(data)).toThrow(/536870912 rows of 1 features need \d+ bytes/);
  });
});
