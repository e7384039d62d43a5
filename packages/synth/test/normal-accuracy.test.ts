import { describe, expect, it } from 'vitest';
import { normalCdf, normalPdf, normalQuantile } from '../src/normal.js';
import { lowerCdf } from './high-precision.js';

const relError = (got: number, want: number) => Math.abs(got - want) / want;

describe('normal CDF and quantile against exact values', () => {
  it('reference values', () => {
    expect(lowerCdf(-1)).toBe(0.15865525393145705);
    expect(lowerCdf(-5)).toBeCloseTo(2.866515718791939e-7, 21);
    expect(relError(lowerCdf(-37), 5.725571222524e-300)).toBeLessThan(1e-12);
  });

  it('normalCdf: relative error per region, lower and upper tail', () => {
    const regions: [number, number, number][] = [
      [-0.5, 0, 5e-16],
      [-3, -0.5, 3e-14],
      [-7.07, -3, 4e-9],
      [-37, -7.08, 2e-15],
    ];
    for (const [a, b, tol] of regions) {
      for (let i = 0; i <= 60; i++) {
        const x = a + ((b - a) * i) / 60;
        const want = lowerCdf(x);
        expect(relError(normalCdf(x), want)).toBeLessThan(tol);
        // The upper side is 1 - Φ(-x), to double precision.
        expect(Math.abs(normalCdf(-x) - (1 - want))).toBeLessThan(2e-16);
      }
    }
  });

  it('normalQuantile: relative error of z, down to p = 1e-300', () => {
    for (const p of [1e-300, 1e-200, 1e-100, 1e-40, 1e-15, 1e-6, 0.001, 0.02, 0.075, 0.2, 0.4, 0.5]) {
      const z = normalQuantile(p);
      // dz = dΦ / φ(z): the error of z implied by the exact Φ at the returned z.
      const dz = Math.abs(lowerCdf(Math.min(z, 0)) - p) / normalPdf(z);
      expect(dz / Math.max(1, Math.abs(z))).toBeLessThan(2e-15);
      if (p >= 1e-6) expect(normalQuantile(1 - p)).toBeCloseTo(-z, 8);
    }
  });
});
