import type { SubgroupFinding } from '@fb/core';
import { generatePlantedPair } from '@fb/synth';
import { describe, expect, it } from 'vitest';
import { jaccard, matchPairs, matchSubgroups, overlap, plantedPairTruth, truthView } from '../src/index.js';
import { dataset, handTruth, pair } from './fixture.js';

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

describe('matchPairs (individual findings)', () => {
  it('judges a hit, a miss and a structural flip exactly by the truth', () => {
    const truth = handTruth({ direct: 0.5 });
    const [hit, reverse, miss, structural, other] = matchPairs(
      [
        // In A (P=0, X1=1, bias −2) against its twin in B: the injected bias separates them.
        pair([0, 1, 2], [1, 1, 2]),
        // The twin in B against a member of A, in the other order.
        pair([1, 1, 0], [0, 1, 0]),
        // X1 = 2 lies in no subgroup: same truth for P=0 and P=1, the flip is the model's.
        pair([0, 2, 1], [1, 2, 1]),
        // P = 2 carries a direct effect in the base logit, but no injected bias here (X1 = 0).
        pair([2, 0, 1], [1, 0, 1]),
        // C = {P=2, X1=3} has bias −1 and a direct effect; its counterfactual P=1 is outside every subgroup.
        pair([2, 3, 0], [1, 3, 0]),
      ],
      dataset,
      truth,
    );
    expect(hit).toEqual({
      verdict: 'injected',
      probabilities: [sigmoid(0.6 - 2), sigmoid(0.6)],
      groups: [0],
    });
    expect(reverse!.verdict).toBe('injected');
    expect(reverse!.groups).toEqual([0]);
    expect(miss).toEqual({ verdict: 'model-error', probabilities: [sigmoid(0.3), sigmoid(0.3)], groups: [] });
    expect(structural).toEqual({
      verdict: 'structural',
      probabilities: [sigmoid(0.3 + 0.5), sigmoid(0.3)],
      groups: [],
    });
    expect(other!.verdict).toBe('injected');
    expect(other!.groups).toEqual([1]);
  });

  it('finds nothing injected on a data set without bias', () => {
    const matches = matchPairs(
      [pair([0, 1, 2], [1, 1, 2]), pair([2, 3, 0], [1, 3, 0])],
      dataset,
      handTruth({ biased: false }),
    );
    expect(matches.map((m) => m.verdict)).toEqual(['model-error', 'model-error']);
    expect(matches.every((m) => m.groups.length === 0)).toBe(true);
  });

  it('returns nothing for no pairs', () => {
    expect(matchPairs([], dataset, handTruth())).toEqual([]);
  });
});

describe('matchSubgroups (subgroup findings)', () => {
  const finding = (rank: number, conditions: SubgroupFinding['conditions']): SubgroupFinding => ({
    rank,
    conditions,
    size: 0,
    score: 1,
    effect: null,
    pValue: null,
    direction: 'lower',
    details: {},
  });

  it('scores member overlap with the best-matching biased subgroup', () => {
    const [exact, wide, other, tie] = matchSubgroups(
      [
        finding(1, [
          { attribute: 'P', values: [0] },
          { attribute: 'X1', values: [1] },
        ]),
        // rows 0..3: one of them is A's single member.
        finding(2, [{ attribute: 'P', values: [0] }]),
        // rows 3, 7, 11: one is C's member (row 11).
        finding(3, [{ attribute: 'X1', values: [3] }]),
        // six rows holding A's and C's members: a tie, kept on the first biased subgroup.
        finding(4, [{ attribute: 'X1', values: [1, 3] }]),
      ],
      dataset,
      handTruth(),
    );
    expect(exact).toEqual({ rank: 1, jaccard: 1, precision: 1, recall: 1, pair: 0, side: 0, hit: true });
    expect(wide).toEqual({
      rank: 2,
      jaccard: 0.25,
      precision: 0.25,
      recall: 1,
      pair: 0,
      side: 0,
      hit: false,
    });
    expect(other).toMatchObject({ rank: 3, pair: 1, side: 0, hit: false });
    expect(other!.jaccard).toBeCloseTo(1 / 3, 12);
    expect(tie).toMatchObject({ pair: 0, recall: 1 });
    expect(tie!.precision).toBeCloseTo(1 / 6, 12);
  });

  it('applies the Jaccard threshold', () => {
    const [wide] = matchSubgroups(
      [finding(1, [{ attribute: 'P', values: [0] }])],
      dataset,
      handTruth(),
      0.25,
    );
    expect(wide!.hit).toBe(true);
  });

  it('has nothing to match on a data set without bias', () => {
    const [m] = matchSubgroups(
      [finding(1, [{ attribute: 'P', values: [0] }])],
      dataset,
      handTruth({ biased: false }),
    );
    expect(m).toEqual({ rank: 1, jaccard: 0, precision: 0, recall: 0, pair: null, side: null, hit: false });
  });
});

describe('overlap and jaccard', () => {
  it('match hand-computed values', () => {
    const o = overlap(Uint8Array.from([1, 1, 1, 0, 0]), Uint8Array.from([0, 1, 1, 1, 0]));
    expect(o.jaccard).toBeCloseTo(2 / 4, 12);
    expect(o.precision).toBeCloseTo(2 / 3, 12);
    expect(o.recall).toBeCloseTo(2 / 3, 12);
    expect(jaccard(Uint8Array.from([0, 0]), Uint8Array.from([0, 0]))).toBe(0);
  });
});

describe('the planted-pair generator through the matcher', () => {
  const g = generatePlantedPair(
    { rows: 2000, protectedAttributes: 1, protectedValues: 3, granularity: 1 },
    5,
  );
  const truth = plantedPairTruth(g.truth, g.dataset);
  const names = g.dataset.schema.attributes.map((a) => a.name);
  const rowIn = (conds: typeof g.truth.pair.disadvantaged) => {
    const row = new Array<number>(names.length).fill(0);
    for (const c of conds) if ('values' in c) row[names.indexOf(c.attribute)] = c.values[0]!;
    return row;
  };

  it('records the pair with its factors measured on the data', () => {
    expect(truth.pairs).toHaveLength(1);
    const f = truth.pairs[0]!.factors;
    expect(f).toMatchObject({ granularity: 1, intersectionality: 1, biasMagnitude: 2, similarity: 0.5 });
    let a = 0;
    let b = 0;
    for (const m of g.truth.membership) m === 1 ? a++ : m === 2 ? b++ : 0;
    expect(f.size).toBe(Math.min(a, b));
    expect(f.gap).toBeLessThan(0);
    expect(truthView(g.truth, g.dataset).pairs).toHaveLength(1);
  });

  it('calls the planted pair injected and a flip outside it a model error', () => {
    const a = rowIn(g.truth.pair.disadvantaged);
    const b = rowIn(g.truth.pair.reference);
    const shared = g.truth.pair.disadvantaged[1]!;
    const outside = a.slice();
    outside[names.indexOf(shared.attribute)] = ('values' in shared ? shared.values[0]! + 1 : 0) % 4;
    const outsideTwin = outside.slice();
    outsideTwin[0] = b[0]!;
    const [hit, miss] = matchPairs([pair(a, b), pair(outside, outsideTwin)], g.dataset, truth);
    expect(hit!.verdict).toBe('injected');
    expect(miss!.verdict).toBe('model-error');
  });

  it('has no injected pair when the bias is zero', () => {
    const nullData = generatePlantedPair({ rows: 500, bias: 0 }, 5);
    expect(plantedPairTruth(nullData.truth, nullData.dataset).pairs).toEqual([]);
  });
});
