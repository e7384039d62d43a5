import { createDataset } from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  aequitasAudit,
  consistency,
  demographicParityDifference,
  equalizedOddsDifference,
  frameMetrics,
  MetricFrame,
  smoothedEdf,
  subgroupsFromColumns,
} from '../src/index.js';
import { handDataset, two, yPred, yTrue } from './fixtures.js';

describe('MetricFrame (fairlearn meanings)', () => {
  const f = new MetricFrame({
    metrics: { accuracy: frameMetrics.accuracy, selection: frameMetrics.selectionRate },
    yTrue,
    yPred,
    sensitiveFeatures: two,
  });

  it('overall, by group, min/max, difference and ratio both ways', () => {
    expect(f.overall.accuracy).toBeCloseTo(0.6, 12);
    expect(f.byGroup['g=0']!.accuracy).toBe(0.5);
    expect(f.byGroup['g=1']!.accuracy).toBeCloseTo(4 / 6, 12);
    expect(f.groupMin().accuracy).toBe(0.5);
    expect(f.difference().accuracy).toBeCloseTo(1 / 6, 12); // max - min
    expect(f.ratio().accuracy).toBeCloseTo(0.75, 12); // min / max
    expect(f.difference('to_overall').accuracy).toBeCloseTo(0.1, 12); // max |x - 0.6|
    expect(f.ratio('to_overall').accuracy).toBeCloseTo(0.5 / 0.6, 12); // min(x/o, o/x)
    expect(f.difference().selection).toBe(0);
  });

  it('undefined group values are null and ignored by min/max', () => {
    const g = new MetricFrame({
      metrics: { tpr: frameMetrics.truePositiveRate },
      yTrue: [1, 0, 0, 0],
      yPred: [1, 0, 1, 0],
      sensitiveFeatures: subgroupsFromColumns({ g: [0, 0, 1, 1] }),
    });
    expect(g.byGroup['g=1']!.tpr).toBeNull();
    expect(g.groupMax().tpr).toBe(1);
    expect(g.difference().tpr).toBe(0);
  });

  it('fairlearn one-liners', () => {
    expect(demographicParityDifference(yTrue, yPred, two)).toBe(0);
    expect(equalizedOddsDifference(yTrue, yPred, two)).toBeCloseTo(1 / 6, 12);
  });
});

describe('Aequitas audit table', () => {
  it('crosstab counts, disparities against the majority group and parity flags', () => {
    const rows = aequitasAudit(handDataset(), yPred);
    expect(rows).toHaveLength(2);
    const [a, b] = rows;
    expect(a).toMatchObject({
      attribute_name: 'g',
      attribute_value: 'a',
      group_size: 4,
      pp: 2,
      pn: 2,
      tp: 1,
      fp: 1,
      fn: 1,
      tn: 1,
    });
    expect(a!.ppr).toBeCloseTo(0.4, 12);
    expect(b!.ppr).toBeCloseTo(0.6, 12);
    expect(a!.ppr_ref_group_value).toBe('b');
    expect(a!.ppr_disparity).toBeCloseTo(2 / 3, 12);
    expect(a!['Statistical Parity']).toBe(false);
    expect(a!.pprev_disparity).toBeCloseTo(1, 12);
    expect(a!['Impact Parity']).toBe(true);
    expect(a!.fpr_disparity).toBeCloseTo(1.5, 12);
    expect(a!['FPR Parity']).toBe(false);
    expect(a!['Equalized Odds']).toBe(false);
    expect(b!['Supervised Fairness']).toBe(true);
    const ref = aequitasAudit(handDataset(), yPred, { referenceGroups: { g: 'a' } });
    expect(ref[1]!.fpr_disparity).toBeCloseTo(2 / 3, 12);
    expect(() => aequitasAudit(handDataset(), yPred, { referenceGroups: { g: 'z' } })).toThrow(
      /must be one of a, b/,
    );
  });

  it('an explicit positive label swaps the roles of the two outcomes (FPR becomes FNR of the other side)', () => {
    const fav = aequitasAudit(handDataset(), yPred);
    const unfav = aequitasAudit(handDataset(), yPred, { positive: 0 });
    for (let g = 0; g < 2; g++) {
      expect(unfav[g]!.tp).toBe(fav[g]!.tn);
      expect(unfav[g]!.fp).toBe(fav[g]!.fn);
      expect(unfav[g]!.fpr).toBe(fav[g]!.fnr);
      expect(unfav[g]!.fnr).toBe(fav[g]!.fpr);
    }
    expect(() => aequitasAudit(handDataset(), yPred, { positive: 2 })).toThrow(
      /positive must be an outcome code/,
    );
  });
});

describe('dataset metrics', () => {
  it('consistency: share of k nearest neighbours with another label (hand-computed 1/3)', () => {
    const ds = createDataset({
      schema: {
        attributes: [
          { name: 's', kind: 'categorical', protected: true, categories: ['a'] },
          { name: 'v', kind: 'continuous', protected: false, min: 0, max: 12 },
        ],
        outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
      },
      x: [0, 0, 0, 1, 0, 2, 0, 10, 0, 11, 0, 12],
      y: [0, 0, 1, 1, 1, 1],
    });
    expect(consistency(ds, { k: 2 })).toBeCloseTo(1 / 3, 12);
    expect(() => consistency(ds, { k: 6 })).toThrow(/k must be/);
  });

  it('smoothed EDF: ln(0.7 / 0.3) for 3/4 vs 1/4 positives with concentration 1', () => {
    const s = subgroupsFromColumns({ g: [0, 0, 0, 0, 1, 1, 1, 1] });
    const r = smoothedEdf([1, 1, 1, 0, 1, 0, 0, 0], s);
    expect(r.epsilon).toBeCloseTo(Math.log(7 / 3), 12);
    expect(r.favourableRate['g=0']).toBeCloseTo(0.7, 12);
    expect(smoothedEdf([1, 0, 1, 0, 1, 0, 1, 0], s).epsilon).toBe(0);
  });
});
