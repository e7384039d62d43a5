import type { Classifier, SubgroupFinding } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { discrimination, modelTruth, rocAuc, scoreAudit } from '../src/index.js';
import { dataset, handTruth, pair, resultOf } from './fixture.js';

/** A model over the fixture's rows (P, X1, X2): favourable (1) unless `unfavourable` says so. */
function modelOf(unfavourable: (p: number, x1: number) => boolean): Classifier {
  return {
    nFeatures: 3,
    nClasses: 2,
    predict: (x) =>
      Int32Array.from({ length: x.length / 3 }, (_, i) => (unfavourable(x[3 * i]!, x[3 * i + 1]!) ? 0 : 1)),
  };
}

// Learned the planted bias: A = {P=0, X1=1} and C = {P=2, X1=3} get the unfavourable decision.
const biasedModel = modelOf((p, x1) => (p === 0 && x1 === 1) || (p === 2 && x1 === 3));
// Bias-free but with a spurious protected effect: P = 1 is unfavourable everywhere.
const spuriousModel = modelOf((p) => p === 1);

describe('modelTruth', () => {
  it('finds the members the model discriminates in the planted direction (hand-computed)', () => {
    const t = modelTruth(biasedModel, dataset, handTruth());
    expect(t.groups.map((g) => [g.pair, g.size, g.learnedCount])).toEqual([
      [0, 1, 1],
      [1, 1, 1],
    ]);
    // Discriminated: the two members, and the four rows whose variant enters a planted subgroup.
    expect(t.discriminatedCount).toBe(6);
    expect(t.spuriousCount).toBe(0);
  });

  it('a bias-free model holds none of the planted bias, and its protected effect is spurious', () => {
    const t = modelTruth(spuriousModel, dataset, handTruth());
    expect(t.groups.map((g) => g.learnedCount)).toEqual([0, 0]);
    // Every row: either it is P = 1 or its P = 1 variant is; all of it spurious or against the bias.
    expect(t.discriminatedCount).toBe(12);
    expect(t.spuriousCount).toBe(12);
  });
});

describe('scoreAudit on individual findings', () => {
  const findings = {
    kind: 'individual' as const,
    pairs: [pair([0, 1, 1], [1, 1, 1], 0), pair([1, 2, 1], [2, 2, 1], 1)],
    byAttributeValue: [],
  };

  it('judges direction with the model and covers the members it reached', () => {
    const s = scoreAudit(resultOf(findings, { sur: 0.2 }), dataset, handTruth(), { model: biasedModel });
    expect(s.verdicts).toEqual({ planted: 1, reversed: 0, unplanted: 0, unconfirmed: 1 });
    expect(s.precision).toBe(0.5);
    expect(s.groups.map((g) => [g.covered, g.coverage, g.found])).toEqual([
      [1, 1, true],
      [0, 0, false],
    ]);
    expect(s.recall).toBe(0.5);
    expect(s.model).toEqual({ discriminated: 0.5, spurious: 0, learned: 1 });
    expect(s.alarmScore).toBe(0.2);
  });

  it('the same pair on a bias-free model is reversed and covers nothing', () => {
    const s = scoreAudit(resultOf(findings), dataset, handTruth(), { model: spuriousModel });
    expect(s.verdicts).toEqual({ planted: 0, reversed: 1, unplanted: 1, unconfirmed: 0 });
    expect(s.recall).toBe(0);
    expect(s.groups.every((g) => !g.found)).toBe(true);
  });

  it('needs the audited model', () => {
    expect(() => scoreAudit(resultOf(findings), dataset, handTruth())).toThrow(/audited model/);
  });
});

describe('scoreAudit on subgroup findings', () => {
  const finding = (rank: number, conditions: SubgroupFinding['conditions'], pValue: number | null = null) =>
    ({
      rank,
      conditions,
      size: 0,
      score: 10 - rank,
      effect: null,
      pValue,
      direction: null,
      details: {},
    }) as SubgroupFinding;

  it('scores member sets: best of the top k, localisation, hit curve and the rank-1 overlap', () => {
    const result = resultOf({
      kind: 'subgroup',
      subgroups: [
        finding(
          1,
          [
            { attribute: 'P', values: [0] },
            { attribute: 'X1', values: [1] },
          ],
          0.01,
        ),
        finding(2, [{ attribute: 'X1', values: [3] }], 0.2),
      ],
    });
    const s = scoreAudit(result, dataset, handTruth());
    expect(s.groups.map((g) => g.overlap!.jaccard)).toEqual([1, 1 / 3]);
    expect(s.groups.map((g) => g.found)).toEqual([true, false]);
    expect(s.recall).toBe(0.5);
    expect(s.precision).toBe(0.5);
    expect(s.localisation).toBeCloseTo(2 / 3, 12);
    expect(s.top).toEqual({ jaccard: 1, precision: 1, recall: 1 });
    expect(s.hitCurve!.find((h) => h.threshold === 0.3)!.found).toBe(2);
    expect(s.hitCurve!.find((h) => h.threshold === 0.5)!.found).toBe(1);
    expect(s.alarmScore).toBeCloseTo(0.99, 12);
  });

  it('topK limits the findings inspected', () => {
    const result = resultOf({
      kind: 'subgroup',
      subgroups: [
        finding(1, [{ attribute: 'X1', values: [0] }]),
        finding(2, [
          { attribute: 'P', values: [0] },
          { attribute: 'X1', values: [1] },
        ]),
      ],
    });
    expect(scoreAudit(result, dataset, handTruth(), { topK: 1 }).recall).toBe(0);
    expect(scoreAudit(result, dataset, handTruth(), { topK: 2 }).recall).toBe(0.5);
  });
});

describe('rocAuc and discrimination', () => {
  it('Mann-Whitney with ties counted one half (hand-computed)', () => {
    expect(rocAuc([1, 2, 3], [2, 4, 5])).toBeCloseTo(7.5 / 9, 12);
    expect(rocAuc([1, 1], [1, 1])).toBe(0.5);
    expect(rocAuc([0, 0, 0], [1, 2])).toBe(1);
  });

  it('a perfect separation: AUC 1, TPR 1 at the calibrated threshold, FPR 0', () => {
    const nulls = Array.from({ length: 40 }, (_, i) => i / 100);
    const d = discrimination(nulls, [1, 2, 3, 4], 0.05)!;
    expect(d.auc).toBe(1);
    expect(d.tpr).toBe(1);
    // floor(0.05 * 40) = 2 null runs may lie above the threshold.
    expect(d.fpr).toBe(2 / 40);
    expect(d.aucLo).toBeLessThan(1);
    expect(discrimination([], [1])).toBeNull();
  });
});

describe('scoreAudit with explicit members', () => {
  it('uses the member rows a finding lists instead of its conditions', () => {
    const row = (p: number, x1: number) => 4 * p + x1;
    const result = resultOf({
      kind: 'subgroup',
      subgroups: [
        {
          rank: 1,
          conditions: [],
          size: 1,
          score: 1,
          effect: null,
          pValue: null,
          direction: null,
          details: {},
          members: [row(0, 1)],
        } as SubgroupFinding,
      ],
    });
    const s = scoreAudit(result, dataset, handTruth());
    expect(s.groups[0]!.overlap!.jaccard).toBe(1);
  });
});
