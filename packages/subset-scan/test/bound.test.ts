import { createRng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { type ScanData, type ScanDirection, SubsetScan, scanSubsets } from '../src/index.js';
import { bruteForce, referenceScore, smallData } from './reference.js';

const DIRECTIONS: ScanDirection[] = ['positive', 'negative'];

/** The best Gaussian score over every non-empty set of records (subgroup or not), by enumeration. */
function bestRecordSet(data: ScanData, direction: ScanDirection, sigma: number): number {
  const n = data.observed.length;
  let best = 0;
  for (let mask = 1; mask < 1 << n; mask++) {
    const ys: number[] = [];
    const es: number[] = [];
    for (let i = 0; i < n; i++) {
      if (mask & (1 << i)) {
        ys.push(data.observed[i]!);
        es.push(data.expected[i]!);
      }
    }
    best = Math.max(best, referenceScore('gaussian', direction, ys, es, { sigma }));
  }
  return best;
}

describe('scoreBound', () => {
  it('is at least the best set of records and the best subgroup (Gaussian, enumerated)', () => {
    for (let s = 0; s < 12; s++) {
      const data = smallData(`bound-${s}`, 12, [3, 2, 2], 'gaussian', (c) => c[0] === 1, s % 3);
      for (const direction of DIRECTIONS) {
        const config = { score: 'gaussian' as const, direction, iterations: 3, penalty: s % 2, sigma: 1.1 };
        const bound = new SubsetScan(data, config, createRng(s)).scoreBound();
        const records = bestRecordSet(data, direction, 1.1);
        expect(bound).toBeGreaterThanOrEqual(records);
        expect(bound).toBeLessThanOrEqual(records * (1 + 1e-6) + 1e-6);
        const subgroup = bruteForce(data, 'gaussian', direction, s % 2, { sigma: 1.1 }).score;
        expect(bound).toBeGreaterThanOrEqual(subgroup);
        expect(bound).toBeGreaterThanOrEqual(scanSubsets(data, config, createRng(s)).score);
      }
    }
  });

  it('equals the scan when the best records form a subgroup, and is infinite for the other scores', () => {
    // Attribute 0 = 1 exactly on the records with Δ > 0: that value is the best set of records.
    const n = 40;
    const codes = [new Int32Array(n), new Int32Array(n)];
    const observed = new Float64Array(n);
    const expected = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const up = i % 4 === 0;
      codes[0]![i] = up ? 1 : 0;
      codes[1]![i] = i % 3;
      observed[i] = up ? 1 + (i % 5) / 10 : -0.5 - (i % 7) / 10;
    }
    const data = { codes, arity: [2, 3], observed, expected };
    const config = { score: 'gaussian' as const, direction: 'positive' as const, iterations: 4, penalty: 0 };
    const bound = new SubsetScan(data, config, createRng(1)).scoreBound();
    const scan = scanSubsets(data, config, createRng(1));
    expect(scan.subset[0]).toEqual(Int32Array.of(1));
    expect(bound).toBeGreaterThanOrEqual(scan.score);
    expect(bound).toBeCloseTo(scan.score, 6);
    for (const score of ['bernoulli', 'poisson', 'berk-jones'] as const) {
      const binary = {
        ...data,
        observed: Float64Array.from(codes[0]!),
        expected: new Float64Array(n).fill(0.3),
      };
      const scanOf = new SubsetScan(binary, { ...config, score }, createRng(1));
      expect(scanOf.scoreBound()).toBe(Number.POSITIVE_INFINITY);
    }
  });

  it('improvements counts the iterations whose best subset changed the result', () => {
    const data = smallData(
      'improvements',
      300,
      [4, 3, 5, 2],
      'gaussian',
      (c) => c[0]! < 2 && c[1] === 1,
      0.8,
    );
    const scan = new SubsetScan(
      data,
      { score: 'gaussian', direction: 'positive', iterations: 12, penalty: 1 },
      createRng(5),
    );
    let seen = -1;
    let last = '';
    while (!scan.finished) {
      scan.runIteration();
      const now = JSON.stringify(scan.result(), (_, v) => (v instanceof Int32Array ? Array.from(v) : v));
      const text = now.replace(/,"iterationsRun":\d+,"complete":(true|false)/, '');
      if (scan.improvements === seen) expect(text).toBe(last);
      seen = scan.improvements;
      last = text;
    }
    expect(scan.improvements).toBeGreaterThanOrEqual(1);
  });
});
