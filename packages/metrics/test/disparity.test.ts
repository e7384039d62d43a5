import { createDataset, OptionsError } from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  datasetStatisticalParity,
  equalizedOdds,
  errorRate,
  FairnessScorer,
  falseDiscoveryRate,
  falseNegativeRate,
  falseOmissionRate,
  falsePositiveRate,
  groupDisparity,
  modelStatisticalParity,
  subgroupsFromColumns,
  subgroupsOf,
  theilIndex,
  truePositiveRate,
} from '../src/index.js';
import { group, handDataset, two, yPred, yTrue } from './fixtures.js';

const sixth = 1 / 6;

describe('subgroup-vs-rest metrics on a hand-counted case', () => {
  it('rates, diff and ratio', () => {
    expect(truePositiveRate(yTrue, yPred, two)).toBeCloseTo(sixth, 12);
    expect(truePositiveRate(yTrue, yPred, two, { distanceMeasure: 'ratio' })).toBeCloseTo(4 / 3, 12);
    expect(falsePositiveRate(yTrue, yPred, two)).toBeCloseTo(sixth, 12);
    expect(falseNegativeRate(yTrue, yPred, two)).toBeCloseTo(sixth, 12);
    expect(falseOmissionRate(yTrue, yPred, two)).toBeCloseTo(sixth, 12); // 1/2 vs 1/3
    expect(falseDiscoveryRate(yTrue, yPred, two)).toBeCloseTo(sixth, 12); // 1/2 vs 1/3
    expect(errorRate(yTrue, yPred, two)).toBeCloseTo(sixth, 12);
    expect(equalizedOdds(yTrue, yPred, two)).toBeCloseTo(sixth, 12);
    expect(modelStatisticalParity(null, yPred, two)).toBe(0);
    expect(modelStatisticalParity(null, yPred, two, { distanceMeasure: 'ratio' })).toBe(1);
    // Base rates 2/4 and 3/6 of the labels themselves.
    expect(datasetStatisticalParity(yTrue, two)).toBe(0);
    expect(datasetStatisticalParity([1, 1, 1, 0, 1, 0, 0, 0, 0, 0], two)).toBeCloseTo(3 / 4 - 1 / 6, 12);
  });

  it('Theil index: within-group values ln2/2 and ln2/3, between-group 0 (equal mean benefit)', () => {
    const r = groupDisparity('theil_index', { yTrue, yPred, subgroups: two });
    expect(r.distanceMeasure).toBeNull();
    expect(r.value).toBeCloseTo(0, 12);
    expect(r.bySubgroup[0]!.subgroupValue).toBeCloseTo(Math.LN2 / 2, 12);
    expect(r.bySubgroup[1]!.subgroupValue).toBeCloseTo(Math.LN2 / 3, 12);
    expect(theilIndex(yTrue, yPred, two, { distanceMeasure: 'diff' })).toBeCloseTo(Math.LN2 / 6, 12);
    // All-correct predictions: every benefit is 1, no inequality.
    expect(theilIndex(yTrue, yTrue, two, { distanceMeasure: 'diff' })).toBe(0);
  });

  it('reductions: per-subgroup map, mean and max over three groups', () => {
    const three = subgroupsFromColumns({ g: [0, 0, 1, 1, 2, 2] });
    const pred = [1, 1, 1, 0, 0, 0]; // selection 1, 1/2, 0; rests 1/4, 1/2, 3/4
    const map = modelStatisticalParity(null, pred, three, { reduction: null }) as Record<string, number>;
    expect(map).toEqual({ 'g=0': 0.75, 'g=1': 0, 'g=2': 0.75 });
    expect(modelStatisticalParity(null, pred, three, { reduction: 'max' })).toBe(0.75);
    expect(modelStatisticalParity(null, pred, three)).toBeCloseTo(0.5, 12);
    // Ratio: 1 / (1/4) = 4; 1; 0 vs 3/4 -> infinitely disparate.
    expect(modelStatisticalParity(null, pred, three, { distanceMeasure: 'ratio', reduction: null })).toEqual({
      'g=0': 4,
      'g=1': 1,
      'g=2': Number.POSITIVE_INFINITY,
    });
  });

  it('single-class and sole groups: null with a reason, left out of the reduction, never NaN', () => {
    const s = subgroupsFromColumns({ g: [0, 0, 1, 1, 2, 2] });
    const t = [1, 0, 0, 0, 1, 1]; // group 1 has no actual positive
    const p = [1, 1, 0, 1, 1, 0];
    const r = groupDisparity('tpr', { yTrue: t, yPred: p, subgroups: s });
    const g1 = r.bySubgroup[1]!;
    expect(g1.value).toBeNull();
    expect(g1.undefinedReason).toBe('subgroup has no actual positives');
    // g0: TPR 1 vs rest 1/2; g2: 1/2 vs rest 1 -> mean of the two defined values.
    expect(r.value).toBeCloseTo(0.5, 12);
    const eo = groupDisparity('equalized_odds', { yTrue: t, yPred: p, subgroups: s });
    expect(eo.bySubgroup[1]!.value).not.toBeNull(); // its FPR is defined
    const sole = groupDisparity('statistical_parity', {
      yTrue: null,
      yPred: [1, 0],
      subgroups: subgroupsFromColumns({ g: [0, 0] }),
    });
    expect(sole.value).toBeNull();
    expect(sole.bySubgroup[0]!.undefinedReason).toMatch(/rest of the population/);
  });

  it('ratio and diff agree in direction', () => {
    const s = subgroupsFromColumns({ g: [0, 0, 0, 0, 1, 1, 1, 1] });
    const mild = [1, 1, 0, 0, 1, 0, 0, 0];
    const strong = [1, 1, 1, 0, 1, 0, 0, 0];
    const d = (p: number[], m: 'diff' | 'ratio') =>
      modelStatisticalParity(null, p, s, { distanceMeasure: m }) as number;
    expect(Math.sign(d(strong, 'diff') - d(mild, 'diff'))).toBe(
      Math.sign(d(strong, 'ratio') - d(mild, 'ratio')),
    );
  });

  it('intersectional by default: every value combination of the protected attributes', () => {
    const ds = createDataset({
      schema: {
        attributes: [
          { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
          { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b'] },
        ],
        outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
      },
      x: [0, 0, 0, 1, 1, 0, 1, 1, 1, 1],
      y: [0, 1, 1, 0, 1],
    });
    expect(subgroupsOf(ds).keys).toEqual(['sex=f|race=a', 'sex=f|race=b', 'sex=m|race=a', 'sex=m|race=b']);
    expect(Array.from(subgroupsOf(ds).sizes)).toEqual([1, 1, 1, 2]);
  });

  it('scorer object: reusable on a model and a dataset, protected attributes from the schema', () => {
    const ds = handDataset();
    const model = { nFeatures: 2, nClasses: 2, predict: () => Int32Array.from(yPred) };
    const scorer = new FairnessScorer('tpr', undefined, { distanceMeasure: 'ratio' });
    expect(scorer.score(model, ds)).toBeCloseTo(4 / 3, 12);
    expect(scorer.evaluate(model, ds).bySubgroup.map((s) => s.key)).toEqual(['g=a', 'g=b']);
  });

  it('a model blind to the protected attribute on balanced data has a near-zero parity gap', () => {
    const n = 4000;
    const g = Array.from({ length: n }, (_, i) => i % 2);
    const x = Array.from({ length: n }, (_, i) => Math.floor(i / 2) % 10);
    const pred = x.map((v) => (v >= 5 ? 1 : 0)); // depends on x only; x is independent of g
    expect(modelStatisticalParity(null, pred, subgroupsFromColumns({ g }))).toBeLessThan(0.01);
  });

  it('typed errors for bad options and shapes', () => {
    expect(() => truePositiveRate(null, yPred, two)).toThrow(/needs yTrue/);
    expect(() => truePositiveRate(yTrue, yPred, two, { distanceMeasure: null })).toThrow(OptionsError);
    expect(() => truePositiveRate(yTrue, yPred.slice(1), two)).toThrow(/yPred has 9/);
    expect(() => groupDisparity('nope' as 'tpr', { yTrue, yPred, subgroups: two })).toThrow(/unknown metric/);
    expect(group.length).toBe(10);
  });
});

describe('bootstrap confidence intervals', () => {
  const n = 600;
  const g = Array.from({ length: n }, (_, i) => (i < 300 ? 0 : 1));
  const pred = g.map((v, i) => (v === 0 ? (i % 10 < 6 ? 1 : 0) : i % 10 < 3 ? 1 : 0)); // 0.6 vs 0.3
  const s = subgroupsFromColumns({ g });

  it('covers the point estimate, matches the normal-approximation width, is reproducible by seed', () => {
    const r = groupDisparity(
      'statistical_parity',
      { yTrue: null, yPred: pred, subgroups: s },
      { ci: { rounds: 300, seed: 7 } },
    );
    expect(r.value).toBeCloseTo(0.3, 12);
    expect(r.ci!.lower).toBeLessThan(0.3);
    expect(r.ci!.upper).toBeGreaterThan(0.3);
    expect(r.ci!.rounds).toBe(300);
    // Normal approximation of the difference of two proportions: SE = sqrt(.6*.4/300 + .3*.7/300) = 0.0387.
    expect(r.ci!.upper - r.ci!.lower).toBeGreaterThan(2 * 1.96 * 0.0387 * 0.8);
    expect(r.ci!.upper - r.ci!.lower).toBeLessThan(2 * 1.96 * 0.0387 * 1.2);
    expect(r.bySubgroup[0]!.ci).toBeDefined();
    const again = groupDisparity(
      'statistical_parity',
      { yTrue: null, yPred: pred, subgroups: s },
      { ci: { rounds: 300, seed: 7 } },
    );
    expect(again.ci).toEqual(r.ci);
    const other = groupDisparity(
      'statistical_parity',
      { yTrue: null, yPred: pred, subgroups: s },
      { ci: { rounds: 300, seed: 8 } },
    );
    expect(other.ci).not.toEqual(r.ci);
    expect(() =>
      groupDisparity('statistical_parity', { yTrue: null, yPred: pred, subgroups: s }, { ci: { rounds: 1 } }),
    ).toThrow(/rounds/);
  });
});
