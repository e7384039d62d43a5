import { describe, expect, it } from 'vitest';
import {
  betaQuantile,
  incompleteBeta,
  logGamma,
  logNormalCdf,
  logNormalUpperTail,
  logUpperIncompleteGamma,
  normalCdf,
  normalCdfInPlace,
  normalDensity,
  normalQuantile,
  normalQuantileInPlace,
  normalUpperTail,
  studentTCdf,
  studentTQuantile,
  studentTUpperTail,
  upperIncompleteGamma,
} from '../src/index.js';

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

  it('keeps the log of a normal tail far below the smallest double', () => {
    // ln P(Z > z) (mpmath at 40 digits, rounded to the nearest double: log(erfc(z/√2)/2)).
    const cases: [number, number][] = [
      [0.5, -1.1759117615936185],
      [2, -3.783184333682032],
      [10, -53.23128515051247],
      [38, -726.5572160188201],
      [40, -804.6084420137538],
      [50, -1254.8313611394199],
      [1000, -500007.82669481216],
    ];
    for (const [z, log] of cases) expect(logNormalUpperTail(z) / log).toBeCloseTo(1, 13);
    // Mills' ratio: ln P(Z > z) = −z²/2 − ln z − ½ ln 2π + ln(1 − 1/z² + 3/z⁴ − 15/z⁶ + 105/z⁸ − …),
    // truncated after 105/z⁸ (a remainder below 1e−17 from z = 100).
    for (const z of [100, 1e4, 1e8]) {
      const u = 1 / (z * z);
      const series = Math.log1p(u * (-1 + u * (3 + u * (-15 + 105 * u))));
      const asymptotic = -(z * z) / 2 - Math.log(z) - 0.5 * Math.log(2 * Math.PI) + series;
      expect(logNormalUpperTail(z) / asymptotic).toBeCloseTo(1, 13);
    }
    expect(normalUpperTail(40)).toBe(0);
    expect(Number.isFinite(logNormalUpperTail(1e150))).toBe(true);
    // Where the tail is a double, the log agrees with it.
    for (const z of [-3, -0.2, 0, 1, 1.3, 1.8, 7, 37]) {
      expect(logNormalUpperTail(z)).toBeCloseTo(Math.log(normalUpperTail(z)), 12);
    }
    expect(logNormalUpperTail(Number.POSITIVE_INFINITY)).toBe(Number.NEGATIVE_INFINITY);
    expect(logUpperIncompleteGamma(2.5, 3)).toBeCloseTo(Math.log(upperIncompleteGamma(2.5, 3)), 13);
  });
});

// Published values: the normal table (Φ(1.96), Φ⁻¹(0.975)), scipy.stats (norm, t, beta) and closed forms.
describe('the distributions moved to core', () => {
  it('normal CDF, density and quantile', () => {
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 15);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 14);
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145707, 15);
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(-6) / 9.865876450376946e-10).toBeCloseTo(1, 8);
    expect(normalDensity(0)).toBeCloseTo(0.3989422804014327, 16);
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 12);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(normalQuantile(1)).toBe(Number.POSITIVE_INFINITY);
    for (const p of [1e-290, 1e-20, 0.01, 0.3, 0.9])
      expect(normalCdf(normalQuantile(p)) / p).toBeCloseTo(1, 10);
  });

  it('the in-place forms: the value at its slot only, and the published values', () => {
    // One value per branch: the Taylor series, Hart's approximation, the Mills ratio, beyond 37 sd.
    const xs = [0.3, -0.3, 1.96, -1, -6, 9, -9, 40, -40, 0, Number.NaN, Number.NEGATIVE_INFINITY];
    // The central rational function, both tails (r <= 5 and r > 5), and the ends.
    const ps = [0.975, 0.3, 1e-10, 1e-300, 1 - 1e-12, 0, 1, Number.NaN];
    for (const [values, inPlace, scalar] of [
      [xs, normalCdfInPlace, normalCdf],
      [ps, normalQuantileInPlace, normalQuantile],
    ] as const) {
      const slots = Float64Array.from([7, ...values, 7]);
      for (let i = 1; i <= values.length; i++) inPlace(slots, i);
      expect(slots[0]).toBe(7);
      expect(slots[values.length + 1]).toBe(7);
      for (const [i, v] of values.entries()) expect(slots[i + 1]).toBe(scalar(v));
    }
    const one = Float64Array.of(1.96, 0.975);
    normalCdfInPlace(one, 0);
    normalQuantileInPlace(one, 1);
    expect(one[0]).toBeCloseTo(0.9750021048517795, 15);
    expect(one[1]).toBeCloseTo(1.959963984540054, 14);
  });

  it('one normal tail: the upper tail, the CDF and their logs agree', () => {
    for (const z of [-3, -0.7, 0, 0.2, 1.5, 4, 8, 20]) {
      expect(normalUpperTail(z)).toBe(normalCdf(-z));
      expect(logNormalUpperTail(z)).toBe(logNormalCdf(-z));
    }
    expect(Number.isNaN(normalCdf(Number.NaN))).toBe(true);
    expect(normalCdf(Number.NEGATIVE_INFINITY)).toBe(0);
    expect(normalCdf(Number.POSITIVE_INFINITY)).toBe(1);
  });

  it('Student t CDF and quantile, beta quantile', () => {
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228138851986274, 9);
    expect(studentTCdf(-2, 5)).toBeCloseTo(0.050969739414929174, 14);
    expect(studentTCdf(2, 5)).toBeCloseTo(1 - 0.050969739414929174, 14);
    expect(() => studentTQuantile(1, 5)).toThrow(RangeError);
    expect(betaQuantile(0.3, 2.5, 4)).toBeCloseTo(0.2740342469010002, 12);
    // Beta(1, b): the quantile is 1 − (1 − p)^(1/b) (Clopper-Pearson's 0 of 30: 0.1157).
    expect(betaQuantile(0.975, 1, 30)).toBeCloseTo(1 - 0.025 ** (1 / 30), 12);
  });
});
