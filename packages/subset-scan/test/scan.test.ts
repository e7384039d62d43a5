import { createRng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  type ScanConfig,
  type ScanData,
  type ScanDirection,
  type ScoreFunction,
  SubsetScan,
  scanSubsets,
  scoreSubset,
} from '../src/index.js';
import { bruteForce, referenceScore, smallData } from './reference.js';

const SCORES: ScoreFunction[] = ['bernoulli', 'poisson', 'gaussian', 'berk-jones'];
const DIRECTIONS: ScanDirection[] = ['positive', 'negative'];
const constants = { sigma: 1.3, alpha: 0.3 };

/** One attribute whose single value holds every record: scoreSubset then scores all records. */
function oneGroup(observed: number[], expected: number[]): ScanData {
  return {
    codes: [new Int32Array(observed.length)],
    arity: [1],
    observed: Float64Array.from(observed),
    expected: Float64Array.from(expected),
  };
}

const config = (
  score: ScoreFunction,
  direction: ScanDirection,
  extra: Partial<ScanConfig> = {},
): ScanConfig => ({
  score,
  direction,
  iterations: 1,
  penalty: 0,
  ...extra,
});

describe('score functions against hand-computed values', () => {
  it('Bernoulli with equal expectations: q̂ is the odds ratio', () => {
    // p = 1/2 for 4 records, 3 positives: q̂ = 3, F = 3 ln 3 − 4 ln 2.
    const r = scoreSubset(
      oneGroup([1, 1, 1, 0], [0.5, 0.5, 0.5, 0.5]),
      [null],
      config('bernoulli', 'positive'),
    );
    expect(r.parameter).toBeCloseTo(3, 8);
    expect(r.score).toBeCloseTo(3 * Math.log(3) - 4 * Math.log(2), 10);
    expect(r.size).toBe(4);
    expect(r.observedSum).toBe(3);
    expect(r.expectedSum).toBe(2);
  });

  it('Bernoulli with unequal expectations solves Y = Σ q pᵢ / (1 − pᵢ + q pᵢ)', () => {
    const ps = [0.2, 0.4, 0.7];
    const r = scoreSubset(oneGroup([1, 1, 0], ps), [null], config('bernoulli', 'positive'));
    const q = r.parameter;
    expect(ps.reduce((s, p) => s + (q * p) / (1 - p + q * p), 0)).toBeCloseTo(2, 9);
    expect(r.score).toBeCloseTo(2 * Math.log(q) - ps.reduce((s, p) => s + Math.log(1 - p + q * p), 0), 10);
  });

  it('Poisson: q̂ = Y/E and F = Y ln q̂ + E (1 − q̂)', () => {
    const r = scoreSubset(oneGroup([2, 3, 0], [0.5, 1, 0.5]), [null], config('poisson', 'positive'));
    expect(r.parameter).toBeCloseTo(2.5, 10);
    expect(r.score).toBeCloseTo(5 * Math.log(2.5) - 3, 10);
  });

  it('Gaussian: μ̂ = mean Δ and F = (ΣΔ)² / (2 N σ²)', () => {
    const r = scoreSubset(
      oneGroup([1, 3, 5], [0, 1, 2]),
      [null],
      config('gaussian', 'positive', { sigma: 2 }),
    );
    expect(r.parameter).toBeCloseTo(2, 12);
    expect(r.score).toBeCloseTo(36 / (2 * 3 * 4), 12);
    // Default σ: √(mean Δ²) = √(14/3).
    const d = scoreSubset(oneGroup([1, 3, 5], [0, 1, 2]), [null], config('gaussian', 'positive'));
    expect(d.score).toBeCloseTo(36 / (2 * 3 * (14 / 3)), 12);
  });

  it('Berk-Jones: F = N·KL(Y/N ‖ α) with the proportion as parameter', () => {
    const ys = [1, 1, 1, 1, 1, 1, 1, 1, 0, 0];
    const r = scoreSubset(
      oneGroup(
        ys,
        ys.map(() => 0.5),
      ),
      [null],
      config('berk-jones', 'positive'),
    );
    expect(r.parameter).toBeCloseTo(0.8, 10);
    expect(r.score).toBeCloseTo(8 * Math.log(0.8 / 0.5) + 2 * Math.log(0.2 / 0.5), 10);
    // An explicit α overrides the mean expectation.
    const a = scoreSubset(
      oneGroup(
        ys,
        ys.map(() => 0.5),
      ),
      [null],
      config('berk-jones', 'positive', { alpha: 0.6 }),
    );
    expect(a.score).toBeCloseTo(8 * Math.log(0.8 / 0.6) + 2 * Math.log(0.2 / 0.4), 10);
  });

  it('constrains the parameter to the scanned direction', () => {
    const data = oneGroup([1, 1, 1, 0], [0.5, 0.5, 0.5, 0.5]);
    const neg = scoreSubset(data, [null], config('bernoulli', 'negative'));
    expect(neg.score).toBe(0);
    expect(neg.parameter).toBe(1);
    const g = scoreSubset(oneGroup([0, 0], [1, 2]), [null], config('gaussian', 'positive', { sigma: 1 }));
    expect(g.score).toBe(0);
    expect(g.parameter).toBe(0);
    // All outcomes 0: the likelihood keeps rising as q → 0; the score is its limit −Σ ln(1 − p) (q bounded at 1e-6).
    const zero = scoreSubset(oneGroup([0, 0], [0.3, 0.6]), [null], config('bernoulli', 'negative'));
    expect(zero.score).toBeCloseTo(-Math.log(0.7) - Math.log(0.4), 5);
  });

  it('subtracts the penalty per value of each constrained attribute', () => {
    const data: ScanData = {
      codes: [Int32Array.of(0, 1, 2, 0), Int32Array.of(0, 0, 1, 1)],
      arity: [3, 2],
      observed: Float64Array.of(3, 0, 1, 2),
      expected: Float64Array.of(1, 1, 1, 1),
    };
    const sub = [Int32Array.of(0, 2), null];
    const r = scoreSubset(data, sub, config('poisson', 'positive', { penalty: 0.25 }));
    // Records 0, 2, 3: Y = 6, E = 3 → q̂ = 2, F = 6 ln 2 − 3; two values listed.
    expect(r.size).toBe(3);
    expect(r.score).toBeCloseTo(6 * Math.log(2) - 3 - 0.5, 10);
  });
});

describe('scan optimum against brute force over every subgroup', () => {
  const arity = [3, 3, 4];
  for (const score of SCORES) {
    for (const direction of DIRECTIONS) {
      for (const penalty of [0, 0.5, 1.5]) {
        it(`${score}, ${direction}, penalty ${penalty}`, () => {
          const shift = direction === 'positive' ? 0.9 : -0.9;
          const data = smallData(
            `${score}-${direction}-${penalty}`,
            160,
            arity,
            score,
            (c) => c[0] !== 1 && c[2]! >= 2,
            shift,
          );
          const expected = bruteForce(data, score, direction, penalty, constants);
          expect(expected.score).toBeGreaterThan(1);
          const found = scanSubsets(
            data,
            { ...config(score, direction, { penalty, ...constants }), iterations: 30 },
            createRng(1),
          );
          expect(found.score).toBeCloseTo(expected.score, 6);
          // The reported subset scores what the scan says.
          expect(
            scoreSubset(data, found.subset, config(score, direction, { penalty, ...constants })).score,
          ).toBeCloseTo(found.score, 9);
        });
      }
    }
  }

  it('respects ordinal contiguity exactly', () => {
    for (const score of ['bernoulli', 'gaussian'] as const) {
      // Planted on the non-contiguous codes {0, 3} of the ordinal attribute: the best range must differ.
      const data = smallData(`contiguous-${score}`, 200, [5, 3], score, (c) => c[0] === 0 || c[0] === 3, 1);
      const contiguous = [true, false];
      const expected = bruteForce(data, score, 'positive', 0.2, constants, contiguous);
      const found = scanSubsets(
        data,
        { ...config(score, 'positive', { penalty: 0.2, ...constants }), iterations: 20, contiguous },
        createRng(2),
      );
      expect(found.score).toBeCloseTo(expected.score, 6);
      const ord = found.subset[0];
      if (ord) for (let j = 1; j < ord.length; j++) expect(ord[j]).toBe(ord[j - 1]! + 1);
    }
  });

  it('finds the same optimum with the prefix scan and the parameter intervals', () => {
    for (const score of ['poisson', 'gaussian', 'berk-jones'] as const) {
      const data = smallData(`prefix-${score}`, 300, [4, 5, 3], score, (c) => c[1]! <= 1, 0.8);
      const base = { ...config(score, 'positive', constants), iterations: 10 };
      const a = scanSubsets(data, { ...base, stepMethod: 'prefix' }, createRng(3));
      const b = scanSubsets(data, { ...base, stepMethod: 'intervals' }, createRng(3));
      expect(a.score).toBeCloseTo(b.score, 9);
      expect(a.subset).toEqual(b.subset);
    }
  });
});

describe('the scan', () => {
  it('recovers a planted subgroup among many attributes', () => {
    const data = smallData(
      'planted',
      6000,
      [4, 3, 5, 2, 6, 3],
      'bernoulli',
      (c) => c[0] === 2 && c[2]! <= 1,
      -1.2,
    );
    const r = scanSubsets(
      data,
      { score: 'bernoulli', direction: 'negative', iterations: 5, penalty: 1 },
      createRng(4),
    );
    expect(r.subset.map((v) => (v ? [...v] : null))).toEqual([[2], null, [0, 1], null, null, null]);
    expect(r.parameter).toBeLessThan(1);
  });

  it('is deterministic for a seed and reports partial results when stopped', () => {
    const data = smallData('determinism', 2000, [4, 4, 4, 4], 'bernoulli', (c) => c[0] === 1, 0.7);
    const cfg: ScanConfig = { score: 'bernoulli', direction: 'positive', iterations: 8, penalty: 0.1 };
    expect(scanSubsets(data, cfg, createRng(9))).toEqual(scanSubsets(data, cfg, createRng(9)));
    const scan = new SubsetScan(data, cfg, createRng(9));
    let calls = 0;
    scan.runIteration(() => ++calls > 2);
    expect(scan.finished).toBe(true);
    const partial = scan.result();
    expect(partial.complete).toBe(false);
    expect(partial.iterationsRun).toBe(1);
    expect(partial.score).toBeGreaterThanOrEqual(0);
  });

  it('rejects inconsistent data and options with typed errors', () => {
    const good = smallData('errors', 20, [2, 2], 'bernoulli', () => false, 0);
    const cfg: ScanConfig = { score: 'bernoulli', direction: 'positive', iterations: 1, penalty: 0 };
    const rng = createRng(1);
    expect(() =>
      scanSubsets({ ...good, codes: [good.codes[0]!, Int32Array.from(good.codes[1]!, () => 5)] }, cfg, rng),
    ).toThrow(expect.objectContaining({ code: 'DATA_OUT_OF_DOMAIN' }));
    expect(() => scanSubsets({ ...good, expected: good.expected.subarray(1) }, cfg, rng)).toThrow(
      expect.objectContaining({ code: 'DATA_SHAPE' }),
    );
    expect(() => scanSubsets({ ...good, observed: good.observed.map(() => 2) }, cfg, rng)).toThrow(
      expect.objectContaining({ name: 'DataError' }),
    );
    expect(() => scanSubsets(good, { ...cfg, iterations: 0 }, rng)).toThrow(
      expect.objectContaining({ name: 'OptionsError', code: 'OPTIONS_INVALID' }),
    );
    expect(() =>
      scanSubsets(good, { ...cfg, score: 'poisson', penalty: 1, stepMethod: 'prefix' }, rng),
    ).toThrow(expect.objectContaining({ name: 'OptionsError' }));
    expect(() => scanSubsets(good, { ...cfg, contiguous: [true] }, rng)).toThrow(
      expect.objectContaining({ name: 'OptionsError' }),
    );
  });
});

describe('reference scores', () => {
  it('agree with the package on random sets for every score and direction', () => {
    const rng = createRng('reference');
    for (const score of SCORES) {
      for (const direction of DIRECTIONS) {
        const data = smallData(
          `ref-${score}`,
          40,
          [1],
          score,
          () => rng.next() < 0.5,
          direction === 'positive' ? 1 : -1,
        );
        const r = scoreSubset(data, [null], config(score, direction, constants));
        expect(r.score).toBeCloseTo(
          referenceScore(score, direction, [...data.observed], [...data.expected], constants),
          7,
        );
      }
    }
  });
});
