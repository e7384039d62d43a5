import { describe, expect, it } from 'vitest';
import {
  AlphaInvesting,
  type EvaluatedSlice,
  effectSize,
  type LossMoments,
  slicefinder,
  testInOrder,
  welchTest,
} from '../src/index.js';

const momentsOf = (xs: number[]): LossMoments => ({
  n: xs.length,
  sum: xs.reduce((a, b) => a + b, 0),
  sumSq: xs.reduce((a, b) => a + b * b, 0),
});

describe('effect size', () => {
  it('is √2·(μ_S − μ_S′)/√(σ_S² + σ_S′²) with population variances', () => {
    // Slice {1, 3}: μ 2, σ² 1. Counterpart {0, 0, 2, 2}: μ 1, σ² 1. φ = √2·1/√2 = 1.
    expect(effectSize(momentsOf([1, 3]), momentsOf([0, 0, 2, 2]))).toBeCloseTo(1, 12);
    expect(effectSize(momentsOf([0, 0, 2, 2]), momentsOf([1, 3]))).toBeCloseTo(-1, 12);
    expect(effectSize(momentsOf([]), momentsOf([1, 2]))).toBeNull();
  });
});

describe("Welch's test", () => {
  it('matches the hand-computed statistic, degrees of freedom and one-sided p-value', () => {
    const a = [3, 4, 5, 6, 7]; // mean 5, s² 2.5
    const b = [1, 2, 3, 2, 1, 3, 2, 2]; // mean 2, s² = 4/7
    const res = welchTest(momentsOf(a), momentsOf(b))!;
    const va = 2.5 / 5;
    const vb = 4 / 7 / 8;
    expect(res.t).toBeCloseTo(3 / Math.sqrt(va + vb), 10);
    expect(res.df).toBeCloseTo((va + vb) ** 2 / (va ** 2 / 4 + vb ** 2 / 7), 10);
    expect(res.pValue).toBeLessThan(0.01);
    expect(res.pValue).toBeGreaterThan(0);
  });

  it('gives p = P(T > t): 0.0367 for t = 2 on 10 degrees of freedom (table value)', () => {
    // Two samples of 6 with equal variances give df = 10; scale the shift so that t = 2.
    const base = [0, 1, 2, 3, 4, 5];
    const s2 = 3.5;
    const shift = 2 * Math.sqrt((2 * s2) / 6);
    const res = welchTest(momentsOf(base.map((x) => x + shift)), momentsOf(base))!;
    expect(res.t).toBeCloseTo(2, 10);
    expect(res.df).toBeCloseTo(10, 10);
    expect(res.pValue).toBeCloseTo(0.03669, 4);
  });

  it('is one-sided: a slice with lower loss gets a large p-value', () => {
    const res = welchTest(momentsOf([0, 0.1, 0.2, 0.1]), momentsOf([1, 1.2, 0.9, 1.1, 1.3]))!;
    expect(res.t).toBeLessThan(0);
    expect(res.pValue).toBeGreaterThan(0.99);
  });
});

describe('α-investing', () => {
  it('follows the hand-traced wealth and levels', () => {
    const ai = new AlphaInvesting(0.05);
    // Test 1: level min(0.05/2, 0.05/1.05) = 0.025; p = 0.01 is rejected, W = 0.1, k* = 1.
    expect(ai.test(0.01)).toEqual({ level: 0.025, rejected: true });
    expect(ai.wealth).toBeCloseTo(0.1, 15);
    // Test 2: level min(0.1/2, 0.1/1.1) = 0.05; p = 0.5 is accepted, W = 0.1 − 0.05/0.95.
    expect(ai.test(0.5)).toEqual({ level: 0.05, rejected: false });
    const w = 0.1 - 0.05 / 0.95;
    expect(ai.wealth).toBeCloseTo(w, 15);
    // Test 3: level W/(1 + 3 − 1) = W/3.
    const third = ai.test(0.9);
    expect(third.level).toBeCloseTo(w / 3, 15);
    expect(ai.wealth).toBeCloseTo(w - w / 3 / (1 - w / 3), 15);
    expect(ai.discoveries).toBe(1);
  });

  it('never lets the wealth go negative, however many nulls are accepted', () => {
    const ai = new AlphaInvesting(0.1);
    for (let j = 0; j < 1000; j++) ai.test(1);
    expect(ai.wealth).toBeGreaterThanOrEqual(0);
    expect(ai.nextLevel()).toBeGreaterThanOrEqual(0);
  });
});

describe('p-values far in the tail', () => {
  it('keep their size instead of rounding 1 − CDF to 0', () => {
    // Two samples of 50 with variance 1 and means 5 apart: t ≈ 25 on ≈ 98 df, P(T > t) ≈ 1e-44.
    const a = Array.from({ length: 50 }, (_, i) => 5 + (i % 2 ? 1 : -1));
    const b = Array.from({ length: 50 }, (_, i) => (i % 2 ? 1 : -1));
    const res = welchTest(momentsOf(a), momentsOf(b))!;
    expect(res.pValue).toBeGreaterThan(0);
    expect(res.pValue).toBeLessThan(1e-30);
  });
});

describe('testing order', () => {
  const slice = (size: number, effectSize: number, pValue: number): EvaluatedSlice => ({
    size,
    meanLoss: 0,
    counterpartMeanLoss: 0,
    effectSize,
    t: 0,
    df: 10,
    pValue,
    level: null,
    rejected: false,
    problematic: false,
  });

  it('tests every slice, whatever its effect size, and recommends only rejections with φ ≥ ε', () => {
    const ai = new AlphaInvesting(0.05);
    const slices = [slice(100, 0.1, 0.5), slice(100, 0.1, 1e-9), slice(100, 0.9, 1e-9), slice(5, 2, 0)];
    testInOrder(slices, 0.5, 10, ai);
    // The first three are tested in turn (the small effect sizes spend and earn wealth too); the slice
    // of 5 rows is below the smallest size and is not tested.
    expect(ai.tests).toBe(3);
    expect(slices.map((s) => s.rejected)).toEqual([false, true, true, false]);
    expect(slices.map((s) => s.problematic)).toEqual([false, false, true, false]);
    expect(slices[3]!.level).toBeNull();
  });

  it("defaults to the original's recommend_slices(k=20, min_effect_size=0.3) and find_slice(k=50, epsilon=0.2)", () => {
    const o = slicefinder.resolveOptions({});
    expect([o.k, o.epsilon, o.treeK, o.minEffectSize, o.alpha, o.degree]).toEqual([
      50, 0.2, 20, 0.3, 0.05, 3,
    ]);
  });
});
