import { createRng, RunController } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { fpGrowth } from '../src/index.js';

/** Random transactions with one item per attribute (item ids offset per attribute) and 2 stats per row. */
function randomData(n: number, arities: number[], seed: string) {
  const rng = createRng(seed);
  const m = arities.length;
  const offsets = arities.map((_, j) => arities.slice(0, j).reduce((a, b) => a + b, 0));
  const transactions = new Int32Array(n * m);
  const stats = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      // Skewed values so that supports differ.
      const v = Math.min(arities[j]! - 1, Math.floor(rng.next() ** 2 * arities[j]!));
      transactions[i * m + j] = offsets[j]! + v;
    }
    stats[2 * i] = rng.bernoulli(0.3) ? 1 : 0;
    stats[2 * i + 1] = rng.uniform(0, 5);
  }
  return { transactions, stats, m, nItems: arities.reduce((a, b) => a + b, 0), offsets };
}

/** Every itemset (one value per chosen attribute) with its support and stat sums, by direct counting. */
function bruteForce(
  transactions: Int32Array,
  stats: Float64Array,
  m: number,
  arities: number[],
  offsets: number[],
  minCount: number,
  maxLength: number,
) {
  const n = transactions.length / m;
  const out = new Map<string, { support: number; s0: number; s1: number }>();
  const recurse = (from: number, items: number[]) => {
    if (items.length > 0) {
      let support = 0;
      let s0 = 0;
      let s1 = 0;
      for (let i = 0; i < n; i++) {
        let ok = true;
        for (const it of items) {
          let has = false;
          for (let j = 0; j < m; j++) if (transactions[i * m + j] === it) has = true;
          ok &&= has;
        }
        if (ok) {
          support++;
          s0 += stats[2 * i]!;
          s1 += stats[2 * i + 1]!;
        }
      }
      if (support < minCount) return; // supersets are rarer still
      out.set(items.join(','), { support, s0, s1 });
    }
    if (items.length === maxLength) return;
    for (let j = from; j < m; j++)
      for (let v = 0; v < arities[j]!; v++) recurse(j + 1, [...items, offsets[j]! + v]);
  };
  recurse(0, []);
  return out;
}

describe('fpGrowth', () => {
  const cases = [
    { arities: [3, 4, 2, 3], n: 400, minCount: 20, maxLength: 10 },
    { arities: [2, 2, 3, 3, 4], n: 300, minCount: 3, maxLength: 10 },
    { arities: [5, 3, 4], n: 500, minCount: 1, maxLength: 2 },
  ];
  for (const c of cases) {
    it(`finds exactly the frequent itemsets with their sums (${c.arities}, min count ${c.minCount}, max length ${c.maxLength})`, async () => {
      const { transactions, stats, m, nItems, offsets } = randomData(c.n, c.arities, `fp-${c.arities}`);
      const res = (await fpGrowth(
        transactions,
        m,
        nItems,
        stats,
        2,
        c.minCount,
        c.maxLength,
        new RunController(),
      ))!;
      const want = bruteForce(transactions, stats, m, c.arities, offsets, c.minCount, c.maxLength);
      expect(res.count).toBe(want.size);
      for (let p = 0; p < res.count; p++) {
        const key = Array.from(res.items.subarray(res.offsets[p]!, res.offsets[p + 1]!)).join(',');
        const w = want.get(key);
        expect(w, key).toBeDefined();
        expect(res.support[p]).toBe(w!.support);
        expect(res.stats[2 * p]).toBeCloseTo(w!.s0, 9);
        expect(res.stats[2 * p + 1]).toBeCloseTo(w!.s1, 9);
      }
    });
  }

  it('returns null when stopped', async () => {
    const { transactions, stats, m, nItems } = randomData(300, [4, 4, 4, 4], 'stop');
    const pre = new AbortController();
    pre.abort();
    const ctl = new RunController({ signal: pre.signal });
    expect(await fpGrowth(transactions, m, nItems, stats, 2, 1, 10, ctl)).toBeNull();
  });
});
