import { describe, expect, it } from 'vitest';
import { outcomeRate, tValue, twoSidedPValue } from '../src/index.js';

describe('t-values', () => {
  it('boolean: Beta(pos + 1, neg + 1) posteriors of the pattern and of the data', () => {
    // Pattern: 3 positives, 1 negative → Beta(4, 2). Data: 10 and 10 → Beta(11, 11).
    const pattern = Float64Array.of(3, 1);
    const all = Float64Array.of(10, 10);
    const meanI = 4 / 6;
    const varI = (4 * 2) / (36 * 7);
    const meanD = 0.5;
    const varD = (11 * 11) / (22 * 22 * 23);
    expect(tValue(pattern, 0, all, 0, 'boolean')).toBeCloseTo(
      Math.abs(meanI - meanD) / Math.sqrt(varI + varD),
      12,
    );
    expect(outcomeRate(pattern, 0, 'boolean')).toBe(0.75);
  });

  it('quantitative: Welch with population variances', () => {
    // Pattern {1, 3}: count 2, Σ 4, Σx² 10 → mean 2, var 1. Data {1, 3, 0, 0}: mean 1, var 1.5.
    const pattern = Float64Array.of(2, 4, 10);
    const all = Float64Array.of(4, 4, 10);
    expect(tValue(pattern, 0, all, 0, 'quantitative')).toBeCloseTo(1 / Math.sqrt(1 / 2 + 1.5 / 4), 12);
    expect(outcomeRate(all, 0, 'quantitative')).toBe(1);
  });
});

describe('the convenience p-value', () => {
  it('keeps its log where the p-value itself underflows', () => {
    // ln(2·P(Z > t)) = ln erfc(t/√2) (mpmath at 40 digits, rounded to the nearest double).
    const cases: [number, number][] = [
      [2, -3.0900371531220867],
      [10, -52.53813796995252],
      [40, -803.9152948331938],
      [50, -1254.13821395886],
      [1000, -500007.1335476316],
    ];
    for (const [t, log] of cases) {
      expect(twoSidedPValue(t).logPValue / log).toBeCloseTo(1, 13);
      expect(twoSidedPValue(-t).logPValue).toBe(twoSidedPValue(t).logPValue);
    }
    // The normal tail's asymptote: ln 2 − t²/2 − ln t − ½ ln 2π + ln(1 − 1/t² + 3/t⁴ − …).
    const t = 1e6;
    const asymptotic = Math.LN2 - (t * t) / 2 - Math.log(t) - 0.5 * Math.log(2 * Math.PI) - 1 / (t * t);
    expect(twoSidedPValue(t).logPValue / asymptotic).toBeCloseTo(1, 14);
    // The p-value is the double nearest where one exists, 0 beyond t ≈ 38.5; the log never is.
    expect(twoSidedPValue(10).pValue / 1.523970604832105e-23).toBeCloseTo(1, 12);
    expect(twoSidedPValue(50).pValue).toBe(0);
    expect(Number.isFinite(twoSidedPValue(1e100).logPValue)).toBe(true);
    expect(twoSidedPValue(0)).toEqual({ pValue: 1, logPValue: 0 });
  });
});
