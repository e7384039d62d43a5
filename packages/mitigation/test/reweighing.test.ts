import { OptionsError } from '@fb/core';
import { modelStatisticalParity, subgroupsOf } from '@fb/metrics';
import { fitLogisticRegression } from '@fb/models';
import { describe, expect, it } from 'vitest';
import { reweighing } from '../src/index.js';
import { accuracy, plantedBias } from './planted.js';

describe('reweighing (Kamiran & Calders)', () => {
  const ds = plantedBias();
  const groups = subgroupsOf(ds);

  it('demographic parity: weighted data has group and label independent (hand identity)', () => {
    const w = reweighing(ds);
    expect(w.reduce((s, v) => s + v, 0) / ds.n).toBeCloseTo(1, 12);
    // Weighted favourable rate must be equal in both groups.
    const num = [0, 0];
    const den = [0, 0];
    for (let i = 0; i < ds.n; i++) {
      const g = groups.codes[i]!;
      den[g]! += w[i]!;
      num[g]! += w[i]! * ds.y[i]!;
    }
    expect(num[0]! / den[0]!).toBeCloseTo(num[1]! / den[1]!, 12);
  });

  it('demographic parity: the retrained model has a measurably smaller parity gap', () => {
    const base = fitLogisticRegression(ds).predict(ds.x);
    const fair = fitLogisticRegression(ds, {}, reweighing(ds)).predict(ds.x);
    const before = modelStatisticalParity(null, base, groups) as number;
    const after = modelStatisticalParity(null, fair, groups) as number;
    const cost = accuracy(ds.y, base) - accuracy(ds.y, fair);
    console.info(
      `reweighing DP: parity gap ${before.toFixed(3)} -> ${after.toFixed(3)}, accuracy cost ${cost.toFixed(3)}`,
    );
    expect(after).toBeLessThan(before * 0.6);
  });

  it('equalized odds: within each label every group carries the same total weight', () => {
    const w = reweighing(ds, { target: 'equalized_odds' });
    const tot = [
      [0, 0],
      [0, 0],
    ];
    for (let i = 0; i < ds.n; i++) tot[ds.y[i]!]![groups.codes[i]!]! += w[i]!;
    expect(tot[0]![0]).toBeCloseTo(tot[0]![1]!, 9);
    expect(tot[1]![0]).toBeCloseTo(tot[1]![1]!, 9);
    expect(() => reweighing(ds, { target: 'nope' as 'equalized_odds' })).toThrow(OptionsError);
  });
});
