import { createRng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { lowerTimes, nearestCorrelation } from '../src/linalg.js';
import {
  drawTruncated,
  logNormalMass,
  normalCdf,
  normalPdf,
  normalQuantile,
  TRUNCATED_A,
  TRUNCATED_B,
  TRUNCATED_DRAW,
  TRUNCATED_LOG_MASS,
  TRUNCATED_MASS,
  TRUNCATED_SLOTS,
  truncatedDraw,
  truncatedInterval,
  truncatedNormal,
} from '../src/normal.js';

describe('normal helpers', () => {
  it('quantile inverts the CDF, including deep tails', () => {
    for (const z of [-30, -8, -3, -1, -0.2, 0, 0.5, 2]) {
      expect(normalQuantile(normalCdf(z))).toBeCloseTo(z, 8);
    }
    expect(normalCdf(-1.959963984540054)).toBeCloseTo(0.025, 12);
  });

  it('truncated draws stay in the interval and have the analytic mean', () => {
    const rng = createRng(3);
    for (const [a, b] of [
      [-0.5, 1],
      [2, 2.5],
      [-Infinity, -3],
      [40, 41],
      [-45, -44.9],
    ] as const) {
      let s = 0;
      const n = 20_000;
      for (let i = 0; i < n; i++) {
        const z = truncatedNormal(rng, a, b);
        expect(z >= a && z <= b).toBe(true);
        s += z;
      }
      const pdf = (z: number) => (Number.isFinite(z) ? normalPdf(z) : 0);
      // E[Z | a < Z < b] = (φ(a) - φ(b)) / (Φ(b) - Φ(a)); in the far tails use the asymptotic mean.
      const mass = normalCdf(b) - normalCdf(a);
      const expected = mass > 1e-200 ? (pdf(a) - pdf(b)) / mass : a > 0 ? a + 1 / a : b - 1 / Math.abs(b);
      const tol = a >= 40 || b <= -44 ? 0.05 : 0.03;
      expect(Math.abs(s / n - expected)).toBeLessThan(tol);
    }
  });
});

describe('truncated draws through slots', () => {
  it('are the draws of truncatedNormal from the same stream, with its log mass', () => {
    const intervals = [
      [-0.5, 1],
      [0.2, 3],
      [-Infinity, -3],
      [1, Infinity],
      [40, 41],
      [-45, -44.9],
    ] as const;
    for (const [a, b] of intervals) {
      const [r1, r2, r3] = [createRng(9), createRng(9), createRng(9)];
      const slots = new Float64Array(TRUNCATED_SLOTS);
      const prepared = truncatedInterval(a, b);
      const logMass = new Float64Array(1);
      for (let i = 0; i < 200; i++) {
        const z = truncatedNormal(r1, a, b, logMass);
        slots[TRUNCATED_A] = a;
        slots[TRUNCATED_B] = b;
        truncatedDraw(r2, slots, true);
        expect(slots[TRUNCATED_DRAW]).toBe(z);
        expect(slots[TRUNCATED_LOG_MASS]).toBe(logMass[0]);
        drawTruncated(r3, prepared, slots, true);
        expect(slots[TRUNCATED_DRAW]).toBe(z);
        expect(slots[TRUNCATED_LOG_MASS]).toBe(logMass[0]);
      }
      // The log mass against an independent computation of log P(a < Z < b).
      expect(logMass[0]).toBeCloseTo(logNormalMass(a, b), 9);
      // Without the log mass: the same draws, and the slot is left as it was.
      slots[TRUNCATED_LOG_MASS] = 7;
      slots[TRUNCATED_A] = a;
      slots[TRUNCATED_B] = b;
      truncatedDraw(r2, slots, false);
      expect(slots[TRUNCATED_DRAW]).toBe(truncatedNormal(r1, a, b));
      expect(slots[TRUNCATED_LOG_MASS]).toBe(7);
      // The mass itself, always written: 0 beyond the CDF's reach (|z| > 37), where only the log holds.
      const mass = slots[TRUNCATED_MASS]!;
      if (Math.min(Math.abs(a), Math.abs(b)) > 37) expect(mass).toBe(0);
      else expect(Math.log(mass)).toBeCloseTo(logNormalMass(a, b), 9);
    }
  });
});

describe('nearestCorrelation', () => {
  it("reproduces Higham's 2002 example", () => {
    const r = nearestCorrelation(Float64Array.from([1, 1, 0, 1, 1, 1, 0, 1, 1]), 3, 0);
    const expected = [1, 0.7607, 0.1573, 0.7607, 1, 0.7607, 0.1573, 0.7607, 1];
    for (const [k, v] of expected.entries()) expect(r[k]).toBeCloseTo(v, 3);
  });
});

describe('lowerTimes', () => {
  it('gives the bits of the plain row-by-row product, in place and through an order', () => {
    const rng = createRng(11);
    for (let d = 1; d <= 11; d++) {
      const l = new Float64Array(d * d);
      for (let a = 0; a < d; a++) for (let b = 0; b <= a; b++) l[a * d + b] = rng.normal(0, 1);
      const e = Float64Array.from({ length: d + 3 }, () => rng.normal(0, 1));
      const order = Int32Array.from({ length: d }, (_, a) => d - 1 - a);
      // The plain product: each sum from b = 0 up.
      const want = new Float64Array(d);
      for (let a = 0; a < d; a++) {
        let s = 0;
        for (let b = 0; b <= a; b++) s += l[a * d + b]! * e[3 + b]!;
        want[a] = s;
      }
      const out = new Float64Array(d + 2);
      lowerTimes(l, d, e, 3, out, 2, order);
      expect(Array.from(out.subarray(2), (_, a) => out[2 + order[a]!])).toEqual(Array.from(want));
      const inPlace = e.slice();
      lowerTimes(l, d, inPlace, 3, inPlace, 3, null);
      expect(Array.from(inPlace.subarray(3))).toEqual(Array.from(want));
      expect(Array.from(inPlace.subarray(0, 3))).toEqual(Array.from(e.subarray(0, 3)));
    }
  });
});
