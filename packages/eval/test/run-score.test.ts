import type { Classifier, SubgroupFinding } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { alarmOf, QueryClock, scoreRun } from '../src/index.js';
import { dataset, handTruth, pair, resultOf } from './fixture.js';

const inA = [0, 1, 2];
const twinA = [1, 1, 2];
const inC = [2, 3, 0];
const twinC = [1, 3, 0];
const plain = [0, 2, 1];
const plainTwin = [1, 2, 1];

describe('scoreRun on individual findings', () => {
  const result = resultOf(
    {
      kind: 'individual',
      pairs: [pair(plain, plainTwin, 0), pair(inA, twinA, 1), pair(inC, twinC, 2)],
      byAttributeValue: [],
    },
    { wallSeconds: 3, distinctQueries: 40, sur: 0.3 },
  );

  it('counts verdicts, precision and recall of the injected groups', () => {
    const s = scoreRun(result, dataset, handTruth());
    expect(s.verdicts).toEqual({ injected: 2, structural: 0, 'model-error': 1 });
    expect(s).toMatchObject({ findings: 3, trueFindings: 2, biasedGroups: 2, groupsFound: 2, recall: 1 });
    expect(s.precision).toBeCloseTo(2 / 3, 12);
    expect(s.groups.map((g) => g.found)).toEqual([true, true]);
    expect(s).toMatchObject({ alarm: true, alarmScore: 0.3 });
  });

  it('without a clock stamps every pair at the end, in discovery order', () => {
    const s = scoreRun(result, dataset, handTruth());
    expect(s.firstTrue).toEqual({ seconds: 3, queries: 40, findings: 2 });
    expect(s.effort50).toEqual({ seconds: 3, queries: 40, findings: 2 });
    expect(s.effort90).toEqual({ seconds: 3, queries: 40, findings: 3 });
    expect(s.curve.at(-1)).toEqual({ seconds: 3, queries: 40, findings: 3, trueFindings: 2, groupsFound: 2 });
  });

  it('with a clock orders pairs by when both their rows were first queried', () => {
    const model: Classifier = { nFeatures: 3, nClasses: 2, predict: (x) => new Int32Array(x.length / 3) };
    const clock = new QueryClock(model);
    clock.start();
    // Queried in this order: C and its twin (rows 1-2), then A, its twin, and the plain pair (rows 3-6).
    clock.model.predict(Float64Array.from([...inC, ...twinC]));
    clock.model.predict(Float64Array.from([...inA, ...inC, ...twinA, ...plain, ...plainTwin]));
    expect(clock.queries).toBe(6);
    expect(clock.stampOfPair(inC, twinC)!.queries).toBe(2);
    expect(clock.stampOfPair(inA, twinA)!.queries).toBe(4);
    expect(clock.stampOf([2, 2, 2])).toBeNull();
    const s = scoreRun(result, dataset, handTruth(), { clock });
    expect(s.firstTrue).toMatchObject({ queries: 2, findings: 1 });
    expect(s.effort50).toMatchObject({ queries: 2, findings: 1 });
    expect(s.effort90).toMatchObject({ queries: 4, findings: 2 });
    expect(s.curve.map((p) => p.groupsFound)).toEqual([1, 2, 2, 2]);
  });

  it('on a data set without bias: no groups, no recall, the alarm still reported', () => {
    const s = scoreRun(result, dataset, handTruth({ biased: false }));
    expect(s).toMatchObject({ biasedGroups: 0, recall: null, trueFindings: 0, precision: 0, alarm: true });
    expect(s.effort50).toBeNull();
    expect(s.firstTrue).toBeNull();
  });

  it('no pairs: no alarm, null precision', () => {
    const s = scoreRun(
      resultOf({ kind: 'individual', pairs: [], byAttributeValue: [] }, { sur: 0 }),
      dataset,
      handTruth(),
    );
    expect(s).toMatchObject({ findings: 0, precision: null, recall: 0, alarm: false, alarmScore: 0 });
  });
});

describe('scoreRun on subgroup findings', () => {
  const finding = (
    rank: number,
    conditions: SubgroupFinding['conditions'],
    pValue: number | null,
  ): SubgroupFinding => ({
    rank,
    conditions,
    size: 0,
    score: 10 - rank,
    effect: null,
    pValue,
    direction: 'lower',
    details: {},
  });
  const A = [
    { attribute: 'P', values: [0] },
    { attribute: 'X1', values: [1] },
  ];
  const C = [
    { attribute: 'P', values: [2] },
    { attribute: 'X1', values: [3] },
  ];

  it('walks findings by rank: effort in findings inspected, overlaps of the top and best finding', () => {
    const s = scoreRun(
      resultOf({
        kind: 'subgroup',
        subgroups: [
          finding(3, C, 0.2),
          finding(1, [{ attribute: 'P', values: [0] }], 0.01),
          finding(2, A, 0.04),
        ],
      }),
      dataset,
      handTruth(),
    );
    expect(s).toMatchObject({ findings: 3, trueFindings: 2, groupsFound: 2, recall: 1 });
    expect(s.firstTrue).toMatchObject({ findings: 2, seconds: 2 });
    expect(s.effort90).toMatchObject({ findings: 3 });
    expect(s.topOverlap).toEqual({ jaccard: 0.25, precision: 0.25, recall: 1 });
    expect(s.bestOverlap).toEqual({ jaccard: 1, precision: 1, recall: 1 });
    expect(s.alarm).toBe(true);
    expect(s.alarmScore).toBeCloseTo(0.99, 12);
  });

  it('raises no alarm when no reported p-value is significant', () => {
    const r = resultOf({ kind: 'subgroup', subgroups: [finding(1, A, 0.3)] });
    expect(alarmOf(r)).toEqual({ alarm: false, score: 0.7 });
    expect(alarmOf(r, 0.5).alarm).toBe(true);
    expect(alarmOf(resultOf({ kind: 'subgroup', subgroups: [finding(1, A, null)] }))).toEqual({
      alarm: true,
      score: 9,
    });
  });
});
