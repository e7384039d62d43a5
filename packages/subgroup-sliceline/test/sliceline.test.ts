import { createRng, RunController } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { oneHot, score, scoreUpperBound, sliceLine } from '../src/index.js';
import { bruteForce, randomTable } from './brute-force.js';

const ctl = () => new RunController({ seed: 1 });

/** "feature=code&..." of a slice found by sliceLine, for comparison with the brute force. */
function keyOf(x2: ReturnType<typeof oneHot>, predicates: Int32Array): string {
  return Array.from(predicates, (c) => {
    const f = x2.featureOf[c]!;
    return `${f}=${c - x2.offsets[f]!}`;
  }).join('&');
}

describe('score', () => {
  it('matches the formula on a hand-computed slice', () => {
    // 20 of 100 rows with 10 errors, 25 errors overall: ē = 0.25, (10/20)/0.25 − 1 = 1, 100/20 − 1 = 4.
    expect(score(20, 10, 0.25, 0.9, 100)).toBeCloseTo(0.9 * 1 - 0.1 * 4, 12);
    expect(score(0, 0, 0.25, 0.9, 100)).toBe(Number.NEGATIVE_INFINITY);
  });

  it('bounds the score of every sub-slice consistent with the parent bounds', () => {
    const rng = createRng('ub');
    for (let trial = 0; trial < 2000; trial++) {
      const n = 1000;
      const eAvg = rng.uniform(0.05, 0.5);
      const alpha = rng.uniform(0.05, 1);
      const minSup = rng.int(1, 50);
      const ssUb = rng.int(minSup, 400);
      const smUb = rng.uniform(0.1, 3);
      const seUb = rng.uniform(0, ssUb * smUb);
      const ub = scoreUpperBound(ssUb, seUb, smUb, eAvg, minSup, alpha, n);
      // Any slice with minSup <= ss <= ssUb, se <= min(seUb, ss·smUb).
      const ss = rng.int(minSup, ssUb);
      const se = rng.uniform(0, Math.min(seUb, ss * smUb));
      expect(score(ss, se, eAvg, alpha, n)).toBeLessThanOrEqual(ub + 1e-12);
    }
  });
});

describe('sliceLine against brute-force enumeration', () => {
  const cases = [
    {
      name: 'binary errors, α 0.95',
      n: 300,
      arities: [3, 4, 2, 3, 4],
      alpha: 0.95,
      k: 5,
      maxL: 3,
      minSup: 5,
      real: false,
    },
    {
      name: 'binary errors, α 0.5, k 10',
      n: 400,
      arities: [2, 3, 3, 4],
      alpha: 0.5,
      k: 10,
      maxL: 4,
      minSup: 10,
      real: false,
    },
    {
      name: 'real errors, α 0.8',
      n: 250,
      arities: [4, 3, 3, 2, 2],
      alpha: 0.8,
      k: 8,
      maxL: 3,
      minSup: 3,
      real: true,
    },
    {
      name: 'real errors, maxL 2, large minSup',
      n: 500,
      arities: [5, 5, 4],
      alpha: 0.99,
      k: 4,
      maxL: 2,
      minSup: 40,
      real: true,
    },
    {
      // Far more valid slices per level than 4k: the top-k takes them in several batches.
      name: 'real errors, k 2, α 0.99, minSup 2',
      n: 400,
      arities: [3, 3, 4, 2],
      alpha: 0.99,
      k: 2,
      maxL: 4,
      minSup: 2,
      real: true,
    },
  ];
  for (const c of cases) {
    it(`finds the exact top-k (${c.name})`, async () => {
      for (let rep = 0; rep < 4; rep++) {
        const table = randomTable(c.n, c.arities, `${c.name}-${rep}`);
        const rng = createRng(`errors-${c.name}-${rep}`);
        const e = new Float64Array(c.n);
        // Errors more frequent where f0 = 0 and f1 = 1, so that deeper slices matter.
        for (let i = 0; i < c.n; i++) {
          const hot = table.codes[i * c.arities.length] === 0 && table.codes[i * c.arities.length + 1] === 1;
          const p = hot ? 0.6 : 0.2;
          e[i] = c.real ? (rng.bernoulli(p) ? rng.uniform(0.1, 2) : 0) : rng.bernoulli(p) ? 1 : 0;
        }
        const x2 = oneHot(table);
        const res = await sliceLine(
          x2,
          e,
          { k: c.k, alpha: c.alpha, maxLevel: c.maxL, minSupport: c.minSup },
          ctl(),
        );
        const brute = bruteForce(table, e, c.alpha, c.maxL, c.minSup);
        expect(res.complete).toBe(true);
        expect(res.top.length).toBe(Math.min(c.k, brute.length));
        const want = brute.slice(0, c.k).map((s) => s.score);
        res.top.forEach((s, t) => {
          expect(s.score).toBeCloseTo(want[t]!, 10);
        });
        // Each reported slice is what it claims: its statistics match a direct recount.
        const byKey = new Map(brute.map((s) => [s.key, s]));
        for (const s of res.top) {
          const b = byKey.get(keyOf(x2, s.predicates))!;
          expect(b).toBeDefined();
          expect(s.size).toBe(b.size);
          expect(s.error).toBeCloseTo(b.error, 10);
        }
      }
    });
  }

  it('prunes: evaluates far fewer slices than the lattice holds', async () => {
    const arities = [4, 4, 4, 4, 4, 4];
    const table = randomTable(2000, arities, 'prune');
    const rng = createRng('prune-e');
    const e = Float64Array.from({ length: 2000 }, () => (rng.bernoulli(0.1) ? 1 : 0));
    const res = await sliceLine(oneHot(table), e, { k: 5, alpha: 0.95, maxLevel: 4, minSupport: 20 }, ctl());
    const evaluated = res.levels.reduce((acc, l) => acc + l.evaluated, 0);
    // 24 + 15·16 + 20·64 + 15·256 slices of at most 4 predicates.
    const lattice = 24 + 15 * 16 + 20 * 64 + 15 * 256;
    expect(evaluated).toBeLessThan(lattice / 2);
    expect(res.levels.slice(1).some((l) => l.scorePruned > 0)).toBe(true);
    expect(res.levels.slice(1).some((l) => l.missingParents > 0)).toBe(true);
  });

  it('returns nothing when there is no error', async () => {
    const table = randomTable(100, [2, 3], 'none');
    const res = await sliceLine(
      oneHot(table),
      new Float64Array(100),
      { k: 3, alpha: 0.9, maxLevel: 2, minSupport: 1 },
      ctl(),
    );
    expect(res.top).toEqual([]);
  });
});

describe('planted slice', () => {
  it('recovers a planted 3-predicate slice as the top slice', async () => {
    const arities = [3, 4, 5, 3, 4, 6];
    const n = 20_000;
    const table = randomTable(n, arities, 'planted');
    const rng = createRng('planted-e');
    const m = arities.length;
    const e = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const inSlice =
        table.codes[i * m + 1] === 2 && table.codes[i * m + 3] === 0 && table.codes[i * m + 5] === 4;
      e[i] = rng.bernoulli(inSlice ? 0.7 : 0.08) ? 1 : 0;
    }
    const x2 = oneHot(table);
    const res = await sliceLine(x2, e, { k: 5, alpha: 0.95, maxLevel: 3, minSupport: 10 }, ctl());
    expect(keyOf(x2, res.top[0]!.predicates)).toBe('1=2&3=0&5=4');
  });
});
