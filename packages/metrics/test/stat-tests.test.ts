import { createDataset, DataError, Rng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  cusum,
  intersectionalBiasMap,
  labelBiasTest,
  statisticalParityTest,
  subgroupsFromColumns,
  welchGreater,
} from '../src/index.js';

describe('two-proportion statistical-parity z-test', () => {
  it('matches the hand computation: 30/100 vs 50/100', () => {
    const pred = [
      ...Array(100)
        .fill(0)
        .map((_, i) => (i < 30 ? 1 : 0)),
      ...Array(100)
        .fill(0)
        .map((_, i) => (i < 50 ? 1 : 0)),
    ];
    const sens = [...Array(100).fill(0), ...Array(100).fill(1)];
    const r = statisticalParityTest(pred, sens);
    // pooled 0.4, SE = sqrt(0.4 * 0.6 * 0.02) = 0.069282; z = -0.2 / SE.
    expect(r.z).toBeCloseTo(-0.2 / Math.sqrt(0.0048), 10);
    expect(r.pValue).toBeCloseTo(0.003892, 5);
    expect(r.rejectNull).toBe(true);
    expect(statisticalParityTest(pred, sens, { alpha: 0.001 }).rejectNull).toBe(false);
  });

  it('defined edge cases: identical all-zero rates give z 0 and p 1; a missing group is an error', () => {
    const r = statisticalParityTest([0, 0, 0, 0], [0, 0, 1, 1]);
    expect([r.z, r.pValue, r.rejectNull]).toEqual([0, 1, false]);
    expect(() => statisticalParityTest([1, 0], [0, 0])).toThrow(DataError);
  });
});

describe('intersectional bias map', () => {
  const s = subgroupsFromColumns({
    a: [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
    b: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1],
  });
  // Groups a0b0, a1b0, a1b1 with 5 actual positives each; TPR 4/5, 2/5, 3/5.
  const yTrue = Array(15).fill(1);
  const yPred = [1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0];

  it('best group as reference, distances, most disadvantaged group', () => {
    const m = intersectionalBiasMap(yTrue, yPred, s);
    expect(m.reference).toEqual({ key: 'a=0|b=0', value: 0.8 });
    expect(m.mostDisadvantaged!.key).toBe('a=1|b=0');
    expect(m.mostDisadvantaged!.disparity).toBeCloseTo(0.4, 12);
    expect(m.groups.map((g) => g.disparity.toFixed(2))).toEqual(['0.00', '0.40', '0.20']);
  });

  it('error-type rates take the lowest value as reference; undefined groups are listed', () => {
    const m = intersectionalBiasMap(yTrue, yPred, s, { metric: 'fnr' });
    expect(m.reference!.key).toBe('a=0|b=0');
    const f = intersectionalBiasMap(yTrue, yPred, s, { metric: 'fpr' });
    expect(f.undefinedGroups).toHaveLength(3);
    expect(f.mostDisadvantaged).toBeNull();
  });
});

describe('CUSUM drift detection', () => {
  it('detects an upward shift at the first point the sum exceeds the threshold', () => {
    const series = [...Array(10).fill(0.5), 0.52, 0.6, 0.6];
    // baseline 0.5; t=10: S+ = 0.02 - 0.01 = 0.01; t=11: 0.01 + 0.1 - 0.01 = 0.10 > 0.05.
    const r = cusum(series);
    expect(r).toMatchObject({
      driftDetected: true,
      changePoint: 11,
      direction: 'up',
      alertLevel: 'drift',
      baseline: 0.5,
    });
    expect(r.magnitude).toBeCloseTo(0.1, 12);
    expect(cusum(series.map((v) => 1 - v)).direction).toBe('down');
  });

  it('no drift within the allowance; warning between half and the full threshold', () => {
    expect(cusum([...Array(10).fill(0.5), 0.505, 0.495, 0.508])).toMatchObject({
      driftDetected: false,
      alertLevel: 'none',
    });
    expect(cusum([...Array(10).fill(0.5), 0.54]).alertLevel).toBe('warning'); // S+ = 0.03
  });
});

describe('label-bias test', () => {
  const build = (biased: boolean) => {
    const rng = Rng.create(3);
    const x: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < 800; i++) {
      const s = i % 2;
      const v = rng.int(0, 9);
      const cut = biased && s === 1 ? 8 : 5;
      const label = v >= cut ? 1 : 0;
      x.push(s, v);
      y.push(rng.bernoulli(0.05) ? 1 - label : label);
    }
    return createDataset({
      schema: {
        attributes: [
          { name: 's', kind: 'categorical', protected: true, categories: ['a', 'b'] },
          { name: 'v', kind: 'ordinal', protected: false, min: 0, max: 9 },
        ],
        outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
      },
      x,
      y,
    });
  };

  it('detects labels that differ between groups for identical features', () => {
    const r = labelBiasTest(build(true), 's', { similarityThreshold: 0.05 });
    expect(r.sufficient).toBe(true);
    expect(r.excessDiscrepancy!).toBeGreaterThan(0.15);
    expect(r.biasDetected).toBe(true);
  });

  it('does not flag labels that depend on the features only', () => {
    const r = labelBiasTest(build(false), 's', { similarityThreshold: 0.05 });
    expect(r.biasDetected).toBe(false);
    expect(Math.abs(r.excessDiscrepancy!)).toBeLessThan(0.03);
  });

  it('keeps both samples within maxPairs, from the same anchors', () => {
    const ds = build(true);
    const capped = labelBiasTest(ds, 's', { similarityThreshold: 0.05, maxPairs: 50 });
    expect(capped.pairs).toBeLessThanOrEqual(50);
    expect(capped.baselinePairs).toBeLessThanOrEqual(50);
    // The search stops at the pair that fills either sample.
    expect(Math.max(capped.pairs, capped.baselinePairs)).toBe(50);
  });

  it('scales an ordinal with labelled categories by its range, like the other ordered attributes', () => {
    // Two rows of different groups, one band apart on a 3-band ordinal: distance 1/2 (range-scaled), so
    // they are similar at a threshold of 0.6 and not at 0.4. Unscaled, the distance would be 1.
    const ds = createDataset({
      schema: {
        attributes: [
          { name: 's', kind: 'categorical', protected: true, categories: ['a', 'b'] },
          { name: 'band', kind: 'ordinal', protected: false, categories: ['low', 'mid', 'high'] },
        ],
        outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
      },
      x: [0, 0, 1, 1],
      y: [0, 1],
    });
    expect(labelBiasTest(ds, 's', { similarityThreshold: 0.6, minPairs: 1 }).pairs).toBe(1);
    expect(labelBiasTest(ds, 's', { similarityThreshold: 0.4, minPairs: 1 }).pairs).toBe(0);
  });

  it('too few similar pairs: no test', () => {
    const r = labelBiasTest(build(true), 's', { similarityThreshold: 0.05, minPairs: 10_000_000 });
    expect(r).toMatchObject({ sufficient: false, pValue: null, biasDetected: false });
  });
});

describe('Welch t-test', () => {
  it('matches a hand computation', () => {
    // means 3 and 1.5, variances 2.5 and 1.6667 over n = 5 and 4: t = 1.5 / sqrt(0.5 + 0.41667) = 1.5667.
    const r = welchGreater([1, 2, 3, 4, 5], [0, 1, 2, 3]);
    expect(r.t).toBeCloseTo(1.5 / Math.sqrt(0.5 + 5 / 12), 10);
    expect(r.pValue).toBeGreaterThan(0.05);
    expect(r.pValue).toBeLessThan(0.1);
  });

  it('is accurate at millions of degrees of freedom (reference: scipy t.sf)', () => {
    // Two large samples with t about 0.17 and df about 3e6: P(T > t) = 0.43250507...; jStat's CDF gave
    // 0.4367.
    const n = 1_500_000;
    const a = Array.from({ length: n }, (_, i) => (i % 2 ? 1 : -1) + 0.000196299);
    const b = Array.from({ length: n }, (_, i) => (i % 2 ? 1 : -1));
    const r = welchGreater(a, b);
    expect(r.t).toBeCloseTo(0.16999986407083184, 6);
    expect(r.pValue).toBeCloseTo(0.4325051275064878, 6);
  });
});
