import { describe, expect, it } from 'vitest';
import { incompleteBeta, logGamma, normalUpperTail, studentTUpperTail } from '../src/index.js';

// Reference values from scipy.stats (t.sf, norm.sf) and the standard tables.
describe('distribution tails', () => {
  it('gives ln Γ at known points', () => {
    expect(logGamma(1)).toBeCloseTo(0, 14);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 14);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12);
  });

  it('gives the incomplete beta function at closed-form points', () => {
    // I_x(1, b) = 1 − (1 − x)^b; I_x(a, 1) = x^a.
    expect(incompleteBeta(0.3, 1, 4)).toBeCloseTo(1 - 0.7 ** 4, 14);
    expect(incompleteBeta(0.3, 2.5, 1)).toBeCloseTo(0.3 ** 2.5, 14);
  });

  it("matches scipy's Student t upper tail, from 1 to 1e15 degrees of freedom", () => {
    const cases: [number, number, number][] = [
      [2, 10, 0.03669401738537018],
      [2.5, 3.3, 0.040026418154177235],
      [-1, 7, 0.8246916685898963],
      [0.3, 1, 0.4072264209222577],
      [1.5, 99999.5, 0.06680877976930784],
      [3, 100010, 0.0013502304087924667],
      // At about 3e6 degrees of freedom a fixed-length continued fraction gives 0.4367 and, for a
      // positive t, values above 0.5.
      [0.17, 3e6, 0.4325050740565545],
      [0.05, 3e6, 0.4800611958259609],
      [3, 1e9, 0.0013498980648689565],
      [0.5, 1e12, 0.308537538726042],
      [5, 1e15, 2.8665157187924225e-7],
      [1.96, Number.POSITIVE_INFINITY, 0.024997895148220435],
    ];
    for (const [t, df, p] of cases) expect(studentTUpperTail(t, df) / p).toBeCloseTo(1, 8);
  });

  it('keeps tiny upper tails instead of rounding 1 − CDF to 0', () => {
    expect(studentTUpperTail(40, 50) / 6.2062118921863455e-40).toBeCloseTo(1, 8);
    expect(studentTUpperTail(12, 500) / 1.2432256392309257e-29).toBeCloseTo(1, 8);
    expect(studentTUpperTail(10, 2e5) / 7.717586583685598e-24).toBeCloseTo(1, 6);
    expect(normalUpperTail(10) / 7.61985302416047e-24).toBeCloseTo(1, 10);
    expect(normalUpperTail(37) / 5.7255712225239266e-300).toBeCloseTo(1, 8);
    expect(normalUpperTail(-2)).toBeCloseTo(0.9772498680518208, 14);
    expect(studentTUpperTail(0, 12)).toBe(0.5);
  });
});
