import { describe, expect, it } from 'vitest';
import { outcomeRate, tValue } from '../src/index.js';

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
