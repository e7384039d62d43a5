import { createRng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { type ScanDirection, type ScanSubset, scanSubsets, scoreSubset } from '../src/index.js';
import { codedData } from './fixtures.js';

/**
 * Independent maximisation of the Bernoulli statistic: 200 bisection steps on ln q over [1e-3, 1e3]
 * (the reference bracket), then the direction clamp.
 */
function bestBernoulli(y: number, ps: number[], direction: ScanDirection): number {
  const slope = (q: number) => y - ps.reduce((s, p) => s + (q * p) / (1 - p + q * p), 0);
  let lo = Math.log(1e-3);
  let hi = Math.log(1e3);
  for (let it = 0; it < 200; it++) {
    const mid = (lo + hi) / 2;
    if (slope(Math.exp(mid)) > 0) lo = mid;
    else hi = mid;
  }
  let q = Math.exp(lo);
  if ((direction === 'positive' && q < 1) || (direction === 'negative' && q > 1)) q = 1;
  return y * Math.log(q) - ps.reduce((s, p) => s + Math.log(1 - p + q * p), 0);
}

/** Every Cartesian product of non-empty value sets (all values = unconstrained, no penalty). */
function bruteForceMax(
  data: ReturnType<typeof codedData>,
  direction: ScanDirection,
  penalty: number,
): { score: number; subset: ScanSubset } {
  const { coordinates, expectations, outcomes } = data;
  const k = coordinates.arity;
  const choices = k.map((a) => {
    const out: (number[] | null)[] = [null];
    for (let mask = 1; mask < (1 << a) - 1; mask++)
      out.push([...Array(a).keys()].filter((v) => mask & (1 << v)));
    return out;
  });
  let best = { score: Number.NEGATIVE_INFINITY, subset: [] as ScanSubset };
  const visit = (m: number, chosen: (number[] | null)[]) => {
    if (m === k.length) {
      let y = 0;
      const ps: number[] = [];
      for (let i = 0; i < coordinates.n; i++) {
        if (chosen.every((vals, j) => vals === null || vals.includes(coordinates.codes[j]![i]!))) {
          y += outcomes[i]!;
          ps.push(expectations[i]!);
        }
      }
      const pen = penalty * chosen.reduce((s, v) => s + (v?.length ?? 0), 0);
      const score = (ps.length === 0 ? 0 : bestBernoulli(y, ps, direction)) - pen;
      if (score > best.score) best = { score, subset: chosen.map((v) => (v ? Int32Array.from(v) : null)) };
      return;
    }
    for (const c of choices[m]!) visit(m + 1, [...chosen, c]);
  };
  visit(0, []);
  return best;
}

describe('scanSubsets', () => {
  const cases: { seed: number; direction: ScanDirection; penalty: number }[] = [];
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    for (const direction of ['negative', 'positive'] as const) {
      for (const penalty of [1e-17, 1]) cases.push({ seed, direction, penalty });
    }
  }

  it.each(cases)(
    'matches the brute-force maximum on 3 × 3 data (seed $seed, $direction, penalty $penalty)',
    ({ seed, direction, penalty }) => {
      const rng = createRng(`brute-${seed}`);
      // A planted region deviating in the scanned direction. (Restarts are a heuristic: without such a
      // region the optimum can be a tiny noise cell that no single-attribute move leads to.)
      const a = rng.int(0, 2);
      const b = rng.int(0, 2);
      const factor = direction === 'positive' ? 2.5 : 0.4;
      const data = codedData(rng, 400, [3, 3, 3], (c) => c[0] === a && c[1] !== b, factor);
      const options = { scoring: 'bernoulli' as const, direction, numIters: 10, penalty };
      const result = scanSubsets(
        data.coordinates,
        data.expectations,
        data.outcomes,
        options,
        createRng(seed),
      );
      const brute = bruteForceMax(data, direction, penalty);
      expect(Math.abs(result.score - brute.score)).toBeLessThanOrEqual(1e-3);
      // The reported subset really has the reported score.
      const rescored = scoreSubset(
        data.coordinates,
        data.expectations,
        data.outcomes,
        result.subset,
        options,
      );
      expect(Math.abs(rescored.score - result.score)).toBeLessThanOrEqual(1e-3);
      expect(result.complete).toBe(true);
      expect(result.restarts).toBe(10);
    },
  );

  // With one attribute a scan is a single ALTSS step, which must be exact over all 2^6 − 1 value sets.
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'finds the exact best value set of one 6-valued attribute (seed %i)',
    (seed) => {
      const rng = createRng(`altss-${seed}`);
      const data = codedData(rng, 600, [6], (c) => c[0]! % 2 === seed % 2, seed % 3 === 0 ? 1 : 0.6);
      for (const direction of ['negative', 'positive'] as const) {
        for (const penalty of [1e-17, 0.5, 2]) {
          const options = { scoring: 'bernoulli' as const, direction, numIters: 1, penalty };
          const result = scanSubsets(
            data.coordinates,
            data.expectations,
            data.outcomes,
            options,
            createRng(seed),
          );
          const brute = bruteForceMax(data, direction, penalty);
          expect(Math.abs(result.score - brute.score)).toBeLessThanOrEqual(1e-3);
        }
      }
    },
  );

  it('is deterministic for a seed and stops when asked', () => {
    const data = codedData(createRng('det'), 2000, [4, 3, 5, 2], (c) => c[0] === 1 && c[2]! < 2, 0.3);
    const options = {
      scoring: 'poisson' as const,
      direction: 'negative' as const,
      numIters: 6,
      penalty: 0.5,
    };
    const run = (stop?: () => boolean) =>
      scanSubsets(data.coordinates, data.expectations, data.outcomes, options, createRng(9), stop);
    const a = run();
    const b = run();
    expect(b).toEqual(a);
    expect(a.score).toBeGreaterThan(0);
    let calls = 0;
    const stopped = run(() => ++calls > 3);
    expect(stopped.complete).toBe(false);
    expect(stopped.restarts).toBe(1);
    // Even an interrupted scan reports a subset with its true score.
    const rescored = scoreSubset(data.coordinates, data.expectations, data.outcomes, stopped.subset, options);
    expect(Math.abs(rescored.score - stopped.score)).toBeLessThanOrEqual(1e-3);
  });

  it('rejects inconsistent inputs with typed errors', () => {
    const data = codedData(createRng('bad'), 50, [2, 2], () => false, 1);
    const options = {
      scoring: 'bernoulli' as const,
      direction: 'negative' as const,
      numIters: 2,
      penalty: 0,
    };
    const rng = createRng(1);
    expect(() =>
      scanSubsets(data.coordinates, data.expectations.subarray(1), data.outcomes, options, rng),
    ).toThrow(expect.objectContaining({ code: 'DATA_SHAPE' }));
    const badP = data.expectations.slice();
    badP[3] = 1.5;
    expect(() => scanSubsets(data.coordinates, badP, data.outcomes, options, rng)).toThrow(
      expect.objectContaining({ code: 'DATA_OUT_OF_DOMAIN' }),
    );
    expect(() =>
      scanSubsets(data.coordinates, data.expectations, data.outcomes, { ...options, numIters: 0 }, rng),
    ).toThrow(expect.objectContaining({ code: 'OPTIONS_INVALID' }));
  });
});
