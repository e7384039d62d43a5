import { describe, expect, it } from 'vitest';
import { createRng, normalCdf, Rng, RngError } from '../src/index.js';
import { remainder } from '../src/rng.js';
import { expectError } from './helpers.js';

const N = 100_000;

function draws(rng: Rng, n: number): number[] {
  return Array.from({ length: n }, () => rng.nextU32());
}

/** Pearson chi-square statistic of observed counts against expected counts. */
function chiSquare(observed: ArrayLike<number>, expected: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < observed.length; i++) s += (observed[i]! - expected[i]!) ** 2 / expected[i]!;
  return s;
}

function meanVar(xs: readonly number[]): [number, number] {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1);
  return [mean, variance];
}

// --- an independent xoshiro128** (Blackman & Vigna reference algorithm) on a 4-word state ---
const u32 = (x: number): number => x >>> 0;
const rotl = (x: number, k: number): number => u32((x << k) | (x >>> (32 - k)));
const rotr = (x: number, k: number): number => rotl(x, 32 - k);

function xoshiroStep(s: number[]): number {
  const result = u32(Math.imul(rotl(u32(Math.imul(s[1]!, 5)), 7), 9));
  const t = u32(s[1]! << 9);
  s[2] = u32(s[2]! ^ s[0]!);
  s[3] = u32(s[3]! ^ s[1]!);
  s[1] = u32(s[1]! ^ s[2]!);
  s[0] = u32(s[0]! ^ s[3]!);
  s[2] = u32(s[2]! ^ t);
  s[3] = rotl(s[3]!, 11);
  return result;
}

/** Multiplicative inverse of an odd number modulo 2^32 (Newton iteration). */
function inverseMod32(a: number): number {
  let x = a;
  for (let i = 0; i < 5; i++) x = u32(Math.imul(x, u32(2 - Math.imul(a, x))));
  return x;
}

/**
 * Recover the full xoshiro128** state from four consecutive outputs: the output function is
 * invertible (gives s1 at each step), and three steps of the linear state update give s0, s2, s3.
 */
function stateFromOutputs(out: readonly number[]): number[] {
  const inv9 = inverseMod32(9);
  const inv5 = inverseMod32(5);
  const [b0, b1, b2, b3] = out.map((o) => u32(Math.imul(rotr(u32(Math.imul(o, inv9)), 7), inv5))) as [
    number,
    number,
    number,
    number,
  ];
  const aXorC = u32(b0 ^ b1);
  const dXorC = u32(b2 ^ b1 ^ b0 ^ (b0 << 9));
  const c1 = u32(aXorC ^ (b0 << 9));
  const d1 = u32(b3 ^ b2 ^ b1 ^ c1 ^ (b1 << 9));
  const d = u32(rotr(d1, 11) ^ b0);
  const c = u32(dXorC ^ d);
  const a = u32(aXorC ^ c);
  return [a, b0, c, d];
}

describe('xoshiro128** core', () => {
  it('the reference implementation in this test gives the published first outputs from state {1,2,3,4}', () => {
    // Worked by hand from the algorithm: 11520 = rotl(2*5, 7) * 9, then 0, then 5927040.
    const s = [1, 2, 3, 4];
    expect([xoshiroStep(s), xoshiroStep(s), xoshiroStep(s)]).toEqual([11520, 0, 5927040]);
  });

  it('nextU32 follows xoshiro128**: the state recovered from four outputs predicts the next thousand', () => {
    for (const seed of [0, 1, 42, 'adult']) {
      const rng = createRng(seed);
      const first = draws(rng, 4);
      const state = stateFromOutputs(first);
      const replay = [...state];
      expect(draws({ nextU32: () => xoshiroStep(replay) } as Rng, 4)).toEqual(first);
      const predicted = Array.from({ length: 1000 }, () => xoshiroStep(replay));
      expect(draws(rng, 1000)).toEqual(predicted);
    }
  });

  it('nextU32 gives 32-bit unsigned integers with every bit balanced', () => {
    const rng = createRng(7);
    const ones = new Float64Array(32);
    let valid = true;
    for (let i = 0; i < N; i++) {
      const v = rng.nextU32();
      valid &&= Number.isInteger(v) && v >= 0 && v < 2 ** 32;
      for (let b = 0; b < 32; b++) ones[b]! += (v >>> b) & 1;
    }
    expect(valid).toBe(true);
    // Each bit is Bernoulli(1/2): sd of the count is sqrt(N)/2 ~ 158; allow 6 sd.
    for (let b = 0; b < 32; b++) expect(Math.abs(ones[b]! - N / 2)).toBeLessThan(6 * 158);
  });

  it('has no short cycle: consecutive output pairs do not repeat within 1e5 draws', () => {
    const rng = createRng(3);
    const seen = new Set<string>();
    let prev = rng.nextU32();
    for (let i = 0; i < N; i++) {
      const v = rng.nextU32();
      seen.add(`${prev},${v}`);
      prev = v;
    }
    expect(seen.size).toBe(N);
  });
});

describe('seeding and forking', () => {
  it('the same seed gives the same sequence', () => {
    expect(draws(createRng(42), 500)).toEqual(draws(Rng.create(42), 500));
    expect(draws(createRng('run-a'), 500)).toEqual(draws(createRng('run-a'), 500));
  });

  it('different seeds give different sequences', () => {
    const firsts = new Set<number>();
    for (let seed = 0; seed < 200; seed++) firsts.add(createRng(seed).nextU32());
    expect(firsts.size).toBe(200);
    expect(draws(createRng('a'), 10)).not.toEqual(draws(createRng('b'), 10));
  });

  it('fork(label) does not depend on how many draws the parent made', () => {
    const fresh = createRng(9);
    const used = createRng(9);
    draws(used, 1234);
    used.normal();
    expect(draws(used.fork('local'), 300)).toEqual(draws(fresh.fork('local'), 300));
  });

  it('equal labels give equal streams; different labels, seeds or depths differ', () => {
    const root = createRng(5);
    expect(draws(root.fork('x'), 50)).toEqual(draws(root.fork('x'), 50));
    expect(draws(root.fork('x'), 50)).not.toEqual(draws(root.fork('y'), 50));
    expect(draws(root.fork('x'), 50)).not.toEqual(draws(createRng(6).fork('x'), 50));
    expect(draws(root.fork('x'), 50)).not.toEqual(draws(root, 50));
    expect(draws(root.fork('x').fork('y'), 50)).toEqual(draws(createRng(5).fork('x').fork('y'), 50));
    expect(draws(root.fork('x').fork('y'), 50)).not.toEqual(draws(root.fork('y').fork('x'), 50));
    expect(root.fork('x').fork('y').path).toBe('5/x/y');
  });

  it('a fork and its parent are uncorrelated', () => {
    const a = createRng(11);
    const b = a.fork('child');
    const xs = Array.from({ length: 20_000 }, () => a.next());
    const ys = Array.from({ length: 20_000 }, () => b.next());
    const [mx, vx] = meanVar(xs);
    const [my, vy] = meanVar(ys);
    let cov = 0;
    for (let i = 0; i < xs.length; i++) cov += (xs[i]! - mx) * (ys[i]! - my);
    const r = cov / (xs.length - 1) / Math.sqrt(vx * vy);
    // sd of r under independence is 1/sqrt(n) ~ 0.007.
    expect(Math.abs(r)).toBeLessThan(0.04);
  });

  it('rejects seeds that are not non-negative safe integers or strings', () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 60, null, {}]) {
      expectError(() => createRng(bad as number), RngError, 'RNG_INVALID_ARGUMENT');
    }
  });
});

describe('distributions', () => {
  it('next() is in [0, 1) with mean 1/2 and variance 1/12', () => {
    const rng = createRng(1);
    const xs = Array.from({ length: N }, () => rng.next());
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const [mean, variance] = meanVar(xs);
    // sd of the mean ~ 0.0009, of the variance ~ 0.00024.
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.005);
    expect(Math.abs(variance - 1 / 12)).toBeLessThan(0.0015);
  });

  it('uniform(lo, hi) scales into [lo, hi)', () => {
    const rng = createRng(2);
    const xs = Array.from({ length: N }, () => rng.uniform(-3, 5));
    expect(xs.every((x) => x >= -3 && x < 5)).toBe(true);
    const [mean, variance] = meanVar(xs);
    expect(Math.abs(mean - 1)).toBeLessThan(0.04);
    expect(Math.abs(variance - 64 / 12)).toBeLessThan(0.1);
    expect(rng.uniform(2, 2)).toBe(2);
  });

  it('int(0, 6) hits both ends and is unbiased (chi-square)', () => {
    const rng = createRng(3);
    const counts = new Float64Array(7);
    let valid = true;
    for (let i = 0; i < N; i++) {
      const v = rng.int(0, 6);
      valid &&= Number.isInteger(v) && v >= 0 && v <= 6;
      counts[v]!++;
    }
    expect(valid).toBe(true);
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[6]).toBeGreaterThan(0);
    // df = 6: the 0.999 quantile is 22.5.
    expect(chiSquare(counts, new Float64Array(7).fill(N / 7))).toBeLessThan(30);
  });

  it('int is unbiased for a span that does not divide 2^32 unevenly at the top', () => {
    // span 3 * 2^30: plain modulo would make the low third twice as likely.
    const rng = createRng(4);
    const span = 3 * 2 ** 30;
    const counts = new Float64Array(3);
    for (let i = 0; i < 30_000; i++) counts[Math.floor(rng.int(0, span - 1) / 2 ** 30)]!++;
    expect(chiSquare(counts, [10_000, 10_000, 10_000])).toBeLessThan(20);
  });

  it('int handles a single value, negative ranges and spans beyond 2^32', () => {
    const rng = createRng(5);
    expect(rng.int(7, 7)).toBe(7);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) seen.add(rng.int(-2, 2));
    expect([...seen].sort((a, b) => a - b)).toEqual([-2, -1, 0, 1, 2]);
    for (let i = 0; i < 1000; i++) {
      const v = rng.int(0, 2 ** 40);
      expect(Number.isInteger(v) && v >= 0 && v <= 2 ** 40).toBe(true);
    }
  });

  it('remainder (of intsBelow) equals % for 32-bit draws, random and at the edges, over small and huge divisors', () => {
    const rng = createRng('remainder');
    const divisors = [
      1,
      2,
      3,
      7,
      10,
      300,
      6000,
      65_535,
      65_537,
      1_000_003,
      2 ** 31 - 1,
      2 ** 31,
      2 ** 31 + 1,
    ];
    divisors.push(2 ** 32 - 5, 2 ** 32 - 1, 2 ** 32);
    for (let i = 0; i < 40; i++) divisors.push(rng.int(1, 2 ** 32));
    const wrong: string[] = [];
    let checked = 0;
    for (const n of divisors) {
      const edges = [0, 1, n - 1, n, n + 1, 2 * n - 1, 2 * n, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32 - n];
      const draws = edges.filter((r) => r >= 0 && r < 2 ** 32);
      for (let k = 0; k < 2000; k++) draws.push(rng.nextU32());
      // Multiples of n and their neighbours, where a quotient one off would show.
      for (let k = 0; k < 200; k++) {
        const m = rng.int(0, Math.floor((2 ** 32 - 1) / n)) * n;
        for (const r of [m - 1, m, m + 1]) if (r >= 0 && r < 2 ** 32) draws.push(r);
      }
      checked += draws.length;
      for (const r of draws) if (remainder(r, n, 1 / n) !== r % n) wrong.push(`${r} % ${n}`);
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(100_000);
  });

  it('intsBelow(n) draws what int(0, n - 1) draws, call for call, for spans small and near 2^31', () => {
    // 2^30 + 2^29 + 1 rejects about one 32-bit draw in four.
    for (const n of [1, 2, 7, 1000, 45_211, 2 ** 30 + 2 ** 29 + 1, 0x7fffffff, 0x80000000]) {
      const a = Rng.create(`ints-${n}`);
      const b = Rng.create(`ints-${n}`);
      const out = new Int32Array(5000).fill(-1);
      a.intsBelow(n, out, 4000);
      for (let i = 0; i < 4000; i++) expect(out[i]).toBe(b.int(0, n - 1));
      expect(out[4000]).toBe(-1);
      // Both streams are at the same place afterwards.
      expect(a.nextU32()).toBe(b.nextU32());
    }
    expect(() => Rng.create(1).intsBelow(0, new Int32Array(1))).toThrow(RngError);
    expect(() => Rng.create(1).intsBelow(2.5, new Int32Array(1))).toThrow(RngError);
    expect(() => Rng.create(1).intsBelow(3, new Int32Array(1), 2)).toThrow(RngError);
  });

  it('normals() draws what normal() draws, call for call, across the polar pairs and the spare', () => {
    const a = Rng.create('normals');
    const b = Rng.create('normals');
    const out = new Float64Array(64).fill(-99);
    // Odd and even lengths, empty ranges, offsets, and normal() between batches: a batch may start or end
    // in the middle of a pair, and the spare must pass between the two methods either way.
    for (const [from, to, between] of [
      [0, 7, 0],
      [3, 3, 1],
      [5, 6, 0],
      [10, 40, 1],
      [0, 1, 2],
      [1, 2, 0],
      [0, 64, 3],
    ] as const) {
      out.fill(-99);
      a.normals(out, from, to);
      for (let i = 0; i < 64; i++) expect(out[i]).toBe(i >= from && i < to ? b.normal() : -99);
      for (let k = 0; k < between; k++) expect(a.normal()).toBe(b.normal());
    }
    expect(a.nextU32()).toBe(b.nextU32());
    const whole = new Float64Array(9);
    Rng.create(5).normals(whole);
    const one = Rng.create(5);
    expect(Array.from(whole)).toEqual(Array.from({ length: 9 }, () => one.normal()));
    expect(() => a.normals(out, -1, 2)).toThrow(RngError);
    expect(() => a.normals(out, 5, 4)).toThrow(RngError);
    expect(() => a.normals(out, 0, 65)).toThrow(RngError);
    expect(() => a.normals(out, 0.5, 2)).toThrow(RngError);
  });

  it('zigguratNormals() draws the standard normal: KS, a chi-square on fine bins, the tail beyond its base', () => {
    const n = 400_000;
    const z = new Float64Array(n);
    const rng = Rng.create('ziggurat');
    // In pieces of uneven lengths, as callers draw a row's coordinates.
    for (let from = 0; from < n; from += 37) rng.zigguratNormals(z, from, Math.min(n, from + 37));
    const sorted = Float64Array.from(z).sort();
    let ks = 0;
    for (let i = 0; i < n; i++) {
      const f = normalCdf(sorted[i]!);
      ks = Math.max(ks, Math.abs(f - i / n), Math.abs(f - (i + 1) / n));
    }
    // Kolmogorov's 0.1% critical value: 1.95 / sqrt(n).
    expect(ks * Math.sqrt(n)).toBeLessThan(1.95);
    // 200 bins over [-4, 4] and the two tails: the wedges' tests and the layers' edges show here.
    const bins = 200;
    const counts = new Float64Array(bins + 2);
    for (const x of z) counts[x < -4 ? 0 : x >= 4 ? bins + 1 : 1 + Math.floor(((x + 4) / 8) * bins)]!++;
    let chi = 0;
    for (let b = 0; b < bins + 2; b++) {
      const lo = b === 0 ? 0 : normalCdf(-4 + ((b - 1) * 8) / bins);
      const hi = b === bins + 1 ? 1 : normalCdf(-4 + (b * 8) / bins);
      const expected = n * (hi - lo);
      chi += (counts[b]! - expected) ** 2 / expected;
    }
    // 201 degrees of freedom: the 99.9% point is about 201 + 3.09 sqrt(402) = 263.
    expect(chi).toBeLessThan(263);
    // Beyond 3.4426 the draws come from the tail sampler: P(|Z| > 3.4426) = 5.76e-4.
    const p = 2 * normalCdf(-3.442619855899);
    const tail = z.filter((x) => Math.abs(x) > 3.442619855899).length;
    expect(Math.abs(tail - n * p)).toBeLessThan(4 * Math.sqrt(n * p));
  });

  it('zigguratNormals() is the same values for the same seed, fills only its range, refuses bad ranges', () => {
    const a = new Float64Array(50).fill(-99);
    const b = new Float64Array(50).fill(-99);
    Rng.create(3).zigguratNormals(a, 10, 40);
    const r = Rng.create(3);
    r.zigguratNormals(b, 10, 25);
    r.zigguratNormals(b, 25, 40);
    expect(Array.from(b)).toEqual(Array.from(a));
    expect(a.slice(0, 10).every((v) => v === -99) && a.slice(40).every((v) => v === -99)).toBe(true);
    expect(a.slice(10, 40).every((v) => v !== -99 && Number.isFinite(v))).toBe(true);
    // It draws from the same stream: the draws after it depend on it.
    const c = Rng.create(3);
    c.zigguratNormals(new Float64Array(30));
    expect(c.nextU32()).not.toBe(Rng.create(3).nextU32());
    expect(() => r.zigguratNormals(a, -1, 2)).toThrow(RngError);
    expect(() => r.zigguratNormals(a, 5, 4)).toThrow(RngError);
    expect(() => r.zigguratNormals(a, 0, 51)).toThrow(RngError);
  });

  it('normal() has mean 0, sd 1 and the normal mass within one sd', () => {
    const rng = createRng(6);
    const xs = Array.from({ length: N }, () => rng.normal());
    const [mean, variance] = meanVar(xs);
    expect(Math.abs(mean)).toBeLessThan(0.02);
    expect(Math.abs(Math.sqrt(variance) - 1)).toBeLessThan(0.015);
    const within = xs.filter((x) => Math.abs(x) < 1).length / N;
    expect(Math.abs(within - 0.6827)).toBeLessThan(0.008);
    const ys = Array.from({ length: N }, () => rng.normal(10, 3));
    const [m2, v2] = meanVar(ys);
    expect(Math.abs(m2 - 10)).toBeLessThan(0.06);
    expect(Math.abs(Math.sqrt(v2) - 3)).toBeLessThan(0.05);
  });

  it('bernoulli(p) has frequency p', () => {
    const rng = createRng(7);
    let hits = 0;
    for (let i = 0; i < N; i++) if (rng.bernoulli(0.3)) hits++;
    expect(Math.abs(hits / N - 0.3)).toBeLessThan(0.008);
    expect(rng.bernoulli(0)).toBe(false);
    expect(rng.bernoulli(1)).toBe(true);
  });

  it('weightedIndex draws in proportion to the weights and never picks a zero weight', () => {
    const rng = createRng(8);
    const weights = [1, 0, 3, 6];
    const counts = new Float64Array(4);
    for (let i = 0; i < N; i++) counts[rng.weightedIndex(weights)]!++;
    expect(counts[1]).toBe(0);
    const observed = [counts[0]!, counts[2]!, counts[3]!];
    expect(chiSquare(observed, [N * 0.1, N * 0.3, N * 0.6])).toBeLessThan(20);
    expect(rng.weightedIndex(Float64Array.of(0, 0, 2))).toBe(2);
  });

  it('choice picks every element uniformly', () => {
    const rng = createRng(9);
    const counts = new Map<string, number>();
    for (let i = 0; i < 30_000; i++) {
      const c = rng.choice(['a', 'b', 'c']);
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(
      chiSquare(
        ['a', 'b', 'c'].map((k) => counts.get(k) ?? 0),
        [10_000, 10_000, 10_000],
      ),
    ).toBeLessThan(20);
  });
});

describe('permutations and samples', () => {
  it('shuffle returns the same array holding a permutation of its items', () => {
    const rng = createRng(10);
    const items = Array.from({ length: 100 }, (_, i) => i);
    const out = rng.shuffle(items);
    expect(out).toBe(items);
    expect([...out].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(out).not.toEqual(Array.from({ length: 100 }, (_, i) => i));
    const typed = rng.shuffle(Int32Array.from([5, 6, 7, 8]));
    expect(Array.from(typed).sort()).toEqual([5, 6, 7, 8]);
  });

  it('shuffle makes all 6 orders of 3 items equally likely', () => {
    const rng = createRng(11);
    const counts = new Map<string, number>();
    for (let i = 0; i < 60_000; i++) {
      const key = rng.shuffle(['a', 'b', 'c']).join('');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    // df = 5: the 0.999 quantile is 20.5.
    expect(chiSquare([...counts.values()], new Array(6).fill(10_000))).toBeLessThan(25);
  });

  it.each([
    ['sparse', 1000, 10],
    ['dense', 10, 8],
    ['full', 12, 12],
    ['empty', 5, 0],
  ])('sampleIndices (%s path) gives k distinct indices in range', (_, n, k) => {
    const rng = createRng(12);
    for (let t = 0; t < 50; t++) {
      const s = rng.sampleIndices(n, k);
      expect(s).toBeInstanceOf(Int32Array);
      expect(s.length).toBe(k);
      expect(new Set(s).size).toBe(k);
      for (const i of s) expect(i >= 0 && i < n).toBe(true);
    }
  });

  it.each([
    ['sparse', 40, 3],
    ['dense', 8, 5],
  ])('sampleIndices (%s path) includes each index with probability k/n', (_, n, k) => {
    const rng = createRng(13);
    const trials = 20_000;
    const counts = new Float64Array(n);
    for (let t = 0; t < trials; t++) for (const i of rng.sampleIndices(n, k)) counts[i]!++;
    const p = k / n;
    const sd = Math.sqrt(trials * p * (1 - p));
    for (let i = 0; i < n; i++) expect(Math.abs(counts[i]! - trials * p)).toBeLessThan(6 * sd);
  });

  it('sample returns distinct elements of the array', () => {
    const rng = createRng(14);
    const items = ['a', 'b', 'c', 'd', 'e'];
    const s = rng.sample(items, 3);
    expect(new Set(s).size).toBe(3);
    for (const v of s) expect(items).toContain(v);
  });
});

describe('argument errors', () => {
  const rng = createRng(0);
  it.each([
    ['uniform hi < lo', () => rng.uniform(2, 1)],
    ['uniform NaN', () => rng.uniform(0, Number.NaN)],
    ['int non-integer', () => rng.int(0.5, 3)],
    ['int hi < lo', () => rng.int(3, 1)],
    ['bernoulli p > 1', () => rng.bernoulli(1.5)],
    ['bernoulli NaN', () => rng.bernoulli(Number.NaN)],
    ['normal sd < 0', () => rng.normal(0, -1)],
    ['choice empty', () => rng.choice([])],
    ['weights negative', () => rng.weightedIndex([1, -1])],
    ['weights NaN', () => rng.weightedIndex([1, Number.NaN])],
    ['weights infinite', () => rng.weightedIndex([1, Number.POSITIVE_INFINITY])],
    ['weights all zero', () => rng.weightedIndex([0, 0])],
    ['weights empty', () => rng.weightedIndex([])],
    ['sampleIndices k > n', () => rng.sampleIndices(3, 4)],
    ['sampleIndices negative', () => rng.sampleIndices(3, -1)],
    ['sampleIndices non-integer', () => rng.sampleIndices(3.5, 1)],
    ['sample k > length', () => rng.sample([1, 2], 3)],
  ])('%s → RngError RNG_INVALID_ARGUMENT', (_, fn) => {
    expectError(fn, RngError, 'RNG_INVALID_ARGUMENT');
  });
});
