import { createHash } from 'node:crypto';
import { createRng, DataError, OptionsError, Rng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  factorRidge,
  fitRidge,
  linearValue,
  type RidgeFit,
  type RidgeOptions,
  RidgeSolver,
} from '../src/index.js';

function randomProblem(seed: string, n: number, d: number) {
  const rng = createRng(seed);
  const x = Float64Array.from({ length: n * d }, () => rng.normal(0, 1));
  const y = Float64Array.from({ length: n }, () => rng.normal(0, 1));
  const w = Float64Array.from({ length: n }, () => rng.uniform(0.1, 3));
  return { x, y, w };
}

describe('ridge regression', () => {
  it('matches the one-column closed form with an unpenalised intercept', () => {
    // x = 0..3, y = 1 + 2x: centred Σx² = 5, Σxy = 10, so w = 10 / (5 + 1) and b = 4 − 1.5 w.
    const fit = fitRidge(Float64Array.of(0, 1, 2, 3), 1, Float64Array.of(1, 3, 5, 7), { alpha: 1 });
    expect(fit.weights[0]).toBeCloseTo(10 / 6, 12);
    expect(fit.intercept).toBeCloseTo(4 - 1.5 * (10 / 6), 12);
  });

  it('shrinks the slope by Sxy / (Sxx + alpha) with weighted means', () => {
    // w = (1, 1, 2), x = y = (0, 1, 2): means 1.25, Sxx = Sxy = 2.75; slope 2.75 / 3.75.
    const fit = fitRidge(Float64Array.of(0, 1, 2), 1, Float64Array.of(0, 1, 2), {
      alpha: 1,
      sampleWeight: Float64Array.of(1, 1, 2),
    });
    expect(fit.weights[0]).toBeCloseTo(2.75 / 3.75, 12);
    expect(fit.intercept).toBeCloseTo(1.25 - (2.75 / 3.75) * 1.25, 12);
  });

  it('satisfies the weighted penalised normal equations', () => {
    // Optimality: Σ wᵢ rᵢ = 0 (free intercept) and Σ wᵢ rᵢ xᵢⱼ = alpha · weightⱼ, with rᵢ = yᵢ − fitᵢ.
    const [n, d, alpha] = [40, 5, 0.7];
    const { x, y, w } = randomProblem('normal-equations', n, d);
    const fit = fitRidge(x, d, y, { alpha, sampleWeight: w });
    const grad = new Float64Array(d + 1);
    for (let i = 0; i < n; i++) {
      const r = y[i]! - linearValue(fit, x, d, i);
      grad[d]! += w[i]! * r;
      for (let j = 0; j < d; j++) grad[j]! += w[i]! * r * x[i * d + j]!;
    }
    expect(grad[d]).toBeCloseTo(0, 10);
    for (let j = 0; j < d; j++) expect(grad[j]).toBeCloseTo(alpha * fit.weights[j]!, 10);
  });

  it('recovers an exact linear relation without penalty, whatever the weights', () => {
    const x = Float64Array.of(0, 0, 1, 0, 0, 1, 1, 1, 2, 3);
    const y = Float64Array.from({ length: 5 }, (_, i) => 1 + 2 * x[2 * i]! - 3 * x[2 * i + 1]!);
    const fit = fitRidge(x, 2, y, { alpha: 0, sampleWeight: Float64Array.of(1, 2, 1, 0.5, 3) });
    expect(fit.weights[0]).toBeCloseTo(2, 10);
    expect(fit.weights[1]).toBeCloseTo(-3, 10);
    expect(fit.intercept).toBeCloseTo(1, 10);
  });

  it('gives weight 0 to an undetermined direction when unpenalised', () => {
    // The second column is constant; the third duplicates the first (collinear: the later one is dropped).
    const x = Float64Array.of(0, 5, 0, 1, 5, 1, 2, 5, 2);
    const fit = fitRidge(x, 3, Float64Array.of(1, 3, 5), { alpha: 0 });
    expect(fit.weights[0]).toBeCloseTo(2, 12);
    expect(fit.weights[1]).toBe(0);
    expect(fit.weights[2]).toBe(0);
    expect(fit.intercept).toBeCloseTo(1, 12);
  });

  it('approaches the minimum-norm solution with a tiny relative penalty', () => {
    // Two copies of x: the least-squares solutions are a + b = 2; the minimum-norm one is a = b = 1.
    const x = Float64Array.of(0, 0, 1, 1, 2, 2, 3, 3);
    const fit = fitRidge(x, 2, Float64Array.of(1, 3, 5, 7), { alpha: 0, relativeAlpha: 1e-9 });
    expect(fit.weights[0]).toBeCloseTo(1, 7);
    expect(fit.weights[1]).toBeCloseTo(1, 7);
    expect(fit.intercept).toBeCloseTo(1, 7);
  });

  it('fits on the chosen rows only, reading targets by row of the design', () => {
    const [n, d] = [30, 3];
    const { x, y } = randomProblem('rows', n, d);
    const rows = Int32Array.from({ length: n }, (_, i) => i).filter((i) => i % 3 !== 1);
    const subX = new Float64Array(rows.length * d);
    for (const [r, i] of rows.entries()) subX.set(x.subarray(i * d, i * d + d), r * d);
    const expected = fitRidge(
      subX,
      d,
      Float64Array.from(rows, (i) => y[i]!),
      { alpha: 0.5 },
    );
    const scrambled = y.map((v, i) => (i % 3 === 1 ? 1e6 : v));
    const fit = fitRidge(x, d, scrambled, { alpha: 0.5, rows });
    for (let j = 0; j < d; j++) expect(fit.weights[j]).toBeCloseTo(expected.weights[j]!, 12);
    expect(fit.intercept).toBeCloseTo(expected.intercept, 12);
  });

  it('treats a zero sample weight as an absent row and integer weights as repeated rows', () => {
    const x = Float64Array.of(0, 1, 1, 0, 2, 2, 3, 1);
    const y = Float64Array.of(1, 2, 4, 3);
    const weighted = fitRidge(x, 2, y, { alpha: 0.3, sampleWeight: Float64Array.of(2, 1, 0, 1) });
    const repeated = fitRidge(Float64Array.of(0, 1, 0, 1, 1, 0, 3, 1), 2, Float64Array.of(1, 1, 2, 3), {
      alpha: 0.3,
    });
    for (let j = 0; j < 2; j++) expect(weighted.weights[j]).toBeCloseTo(repeated.weights[j]!, 12);
    expect(weighted.intercept).toBeCloseTo(repeated.intercept, 12);
  });

  it('reuses one factorisation across targets, linearly in the target', () => {
    const [n, d] = [25, 4];
    const { x, y, w } = randomProblem('linear', n, d);
    const y2 = y.map((v, i) => v * v - i);
    const solver = new RidgeSolver(x, d, { alpha: 1, sampleWeight: w });
    const a = solver.fit(y);
    const b = solver.fit(y2);
    const sum = solver.fit(y.map((v, i) => 2 * v - y2[i]!));
    for (let j = 0; j < d; j++) expect(sum.weights[j]).toBeCloseTo(2 * a.weights[j]! - b.weights[j]!, 12);
    expect(sum.intercept).toBeCloseTo(2 * a.intercept - b.intercept, 12);
    expect(Array.from(a.weights)).toEqual(
      Array.from(fitRidge(x, d, y, { alpha: 1, sampleWeight: w }).weights),
    );
  });

  it('rejects a bad penalty or mismatched shapes with typed errors', () => {
    const x = Float64Array.of(0, 1, 2);
    expect(() => fitRidge(x, 1, x, { alpha: -1 })).toThrow(OptionsError);
    expect(() => fitRidge(x, 1, x, { alpha: 1, relativeAlpha: Number.NaN })).toThrow(OptionsError);
    expect(() => fitRidge(x, 2, x, { alpha: 1 })).toThrow(DataError);
    expect(() => fitRidge(x, 1, Float64Array.of(1, 2), { alpha: 1 })).toThrow(DataError);
    expect(() => fitRidge(x, 1, x, { alpha: 1, sampleWeight: Float64Array.of(1) })).toThrow(DataError);
  });

  describe('factorRidge, which a stop callback can end', () => {
    // 400 rows: 10 one-hot-like columns and 20 continuous ones from a seeded stream. The digests of the
    // fits were taken from RidgeSolver before the factorisation could be stopped.
    const problem = () => {
      const rng = Rng.create(21);
      const [n, d] = [400, 30];
      const x = new Float64Array(n * d);
      for (let i = 0; i < x.length; i++) x[i] = i % d < 10 ? (rng.next() < 0.3 ? 1 : 0) : rng.normal(0, 2);
      const y = Float64Array.from(
        { length: n },
        (_, i) => x[i * d]! * 2 - x[i * d + 12]! + rng.normal(0, 0.5),
      );
      return { x, y, d };
    };
    const rows = Int32Array.from({ length: 300 }, (_, r) => r + 50);
    const cases: [RidgeOptions, string][] = [
      [{ alpha: 0.7 }, 'a01bc71ddc2831f6c64049c4b85cf71a682856742002cb6eb57149267dc31598'],
      [
        { alpha: 0, relativeAlpha: 1e-12, rows },
        '9b2c771253f5a3e515035896481e0670b9eb38525e3411fdfdb107c6e46bf4aa',
      ],
    ];
    const digest = (f: RidgeFit) =>
      createHash('sha256')
        .update(new Uint8Array(f.weights.buffer))
        .update(new Uint8Array(Float64Array.of(f.intercept).buffer))
        .digest('hex');

    it('fits byte for byte as before, factorised here or by factorRidge with a callback that never stops', () => {
      const { x, y, d } = problem();
      for (const [options, before] of cases) {
        let polls = 0;
        const factor = factorRidge(x, d, options, () => {
          polls++;
          return false;
        });
        expect(factor).not.toBeNull();
        expect(polls).toBeGreaterThanOrEqual(d);
        expect(digest(new RidgeSolver(x, d, options).fit(y))).toBe(before);
        expect(digest(new RidgeSolver(x, d, options, factor!).fit(y))).toBe(before);
      }
    });

    it('returns null once the callback says stop, in the Gram sums or in the factorisation', () => {
      const { x, d } = problem();
      // Polls: one before the first row (30 columns: one per 2,254 rows), then one per column.
      for (const after of [1, 2, 5, d]) {
        let polls = 0;
        expect(factorRidge(x, d, { alpha: 1 }, () => ++polls >= after)).toBeNull();
        expect(polls).toBe(after);
      }
    });

    it('refuses a factor of another width', () => {
      const { x, d } = problem();
      const other = factorRidge(x.subarray(0, 20 * 40), 20, { alpha: 1 })!;
      expect(() => new RidgeSolver(x, d, { alpha: 1 }, other)).toThrow(DataError);
    });
  });
});
