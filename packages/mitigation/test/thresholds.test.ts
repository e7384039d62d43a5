import { equalizedOdds, subgroupsFromColumns, subgroupsOf, truePositiveRate } from '@fb/metrics';
import { fitLogisticRegression } from '@fb/models';
import { describe, expect, it } from 'vitest';
import { optimizeThresholds, withGroupThresholds } from '../src/index.js';
import { accuracy, plantedBias } from './planted.js';

/** Independent brute force over two groups, straight from the definition. */
function bruteForce(scores: number[], y: number[], g: number[], grid: number, eps: number) {
  let best = { acc: -1, ta: 0, tb: 0 };
  for (let a = 0; a < grid; a++) {
    for (let b = 0; b < grid; b++) {
      const t = [a / (grid - 1), b / (grid - 1)];
      const pred = scores.map((s, i) => (s >= t[g[i]!]! ? 1 : 0));
      const rate = (grp: number, label: number) => {
        const rows = y.map((_, i) => i).filter((i) => g[i] === grp && y[i] === label);
        return rows.filter((i) => pred[i] === 1).length / rows.length;
      };
      if (Math.abs(rate(0, 1) - rate(1, 1)) > eps || Math.abs(rate(0, 0) - rate(1, 0)) > eps) continue;
      const acc = pred.filter((p, i) => p === y[i]).length / y.length;
      if (acc > best.acc) best = { acc, ta: t[0]!, tb: t[1]! };
    }
  }
  return best;
}

describe('group threshold optimisation', () => {
  it('agrees with a brute force from the definition on a small case', () => {
    const scores = [0.1, 0.35, 0.6, 0.8, 0.9, 0.2, 0.3, 0.45, 0.55, 0.7, 0.15, 0.65];
    const y = [0, 0, 1, 1, 1, 0, 1, 0, 1, 1, 0, 0];
    const g = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1];
    const r = optimizeThresholds(scores, y, subgroupsFromColumns({ g }), { gridSize: 11, epsilon: 0.2 });
    const b = bruteForce(scores, y, g, 11, 0.2);
    expect(r.feasible).toBe(true);
    expect(r.accuracy).toBeCloseTo(b.acc, 12);
  });

  it('equalized odds on planted bias: gap brought under epsilon, accuracy cost reported', () => {
    const ds = plantedBias();
    const model = fitLogisticRegression(ds);
    const groups = subgroupsOf(ds);
    const proba = model.predictProba(ds.x);
    const scores = Float64Array.from({ length: ds.n }, (_, i) => proba[i * 2 + 1]!);
    const base = model.predict(ds.x);
    const r = optimizeThresholds(scores, ds.y, groups, { epsilon: 0.05 });
    expect(r.feasible).toBe(true);
    const fair = withGroupThresholds(model, ds, r.thresholds).predict(ds.x);
    const before = equalizedOdds(ds.y, base, groups) as number;
    const after = equalizedOdds(ds.y, fair, groups) as number;
    console.info(
      `thresholds EO: gap ${before.toFixed(3)} -> ${after.toFixed(3)}, accuracy ${accuracy(ds.y, base).toFixed(3)} -> ${accuracy(ds.y, fair).toFixed(3)}`,
    );
    expect(after).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(after).toBeLessThan(before);
    expect(accuracy(ds.y, fair)).toBeCloseTo(r.accuracy, 12);
  });

  it('equal opportunity constrains TPR only', () => {
    const ds = plantedBias(2000, 0.6, 2);
    const model = fitLogisticRegression(ds);
    const groups = subgroupsOf(ds);
    const proba = model.predictProba(ds.x);
    const scores = Float64Array.from({ length: ds.n }, (_, i) => proba[i * 2 + 1]!);
    const r = optimizeThresholds(scores, ds.y, groups, {
      target: 'equal_opportunity',
      epsilon: 0.02,
      gridSize: 50,
    });
    const fair = withGroupThresholds(model, ds, r.thresholds).predict(ds.x);
    expect(truePositiveRate(ds.y, fair, groups) as number).toBeLessThanOrEqual(0.02 + 1e-9);
    expect(() => optimizeThresholds(scores, ds.y, groups, { gridSize: 1 })).toThrow(/gridSize/);
  });
});
