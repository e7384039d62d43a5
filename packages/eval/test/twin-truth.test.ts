import {
  type Classifier,
  type Condition,
  createDataset,
  type Dataset,
  type DiscoveryResult,
  defineSchema,
} from '@fb/core';
import { describe, expect, it } from 'vitest';
import { type InjectedPair, modelTruth, QueryClock, scoreAudit, type TruthView } from '../src/index.js';
import { pair, resultOf } from './fixture.js';

/** A (protected, 2 values), B (protected, 3 values), X (not protected, 3 values). */
const schema = defineSchema({
  attributes: [
    { name: 'A', kind: 'categorical', protected: true, categories: ['a0', 'a1'] },
    { name: 'B', kind: 'categorical', protected: true, categories: ['b0', 'b1', 'b2'] },
    { name: 'X', kind: 'categorical', protected: false, categories: ['x0', 'x1', 'x2'] },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

function datasetOf(rows: readonly (readonly number[])[]): Dataset {
  return createDataset({
    schema,
    x: Float64Array.from(rows.flat()),
    y: Int32Array.from(rows, () => 0),
  });
}

/** Conditions `attribute = value` on each of `values`' attributes. */
const where = (values: Record<string, number>): Condition[] =>
  Object.entries(values).map(([attribute, v]) => ({ attribute, values: [v] }));

/** An injected pair: a biased side and its reference without bias. */
function injected(
  id: number,
  biased: Record<string, number>,
  bias: number,
  reference: Record<string, number>,
) {
  return {
    id,
    subgroups: [
      { conditions: where(biased), bias },
      { conditions: where(reference), bias: 0 },
    ],
    factors: {
      similarity: 0.5,
      granularity: 1,
      intersectionality: 1,
      biasMagnitude: Math.abs(bias),
      size: 1,
      uncertainty: null,
      gap: null,
    },
  } satisfies InjectedPair;
}

/** S0 = {A = 0, X = 1} with bias −2 (against {A = 1, X = 1}); S1 = {B = 2} with bias −1 (against {B = 0}). */
const pairs: InjectedPair[] = [
  injected(0, { A: 0, X: 1 }, -2, { A: 1, X: 1 }),
  injected(1, { B: 2 }, -1, { B: 0 }),
];
const inS0 = (a: number, _b: number, x: number) => a === 0 && x === 1;
const inS1 = (_a: number, b: number) => b === 2;
const betaOf = (a: number, b: number, x: number) => (inS0(a, b, x) ? -2 : 0) + (inS1(a, b) ? -1 : 0);
const truth: TruthView = {
  pairs,
  probabilityOf: (x) =>
    Float64Array.from(
      { length: x.length / 3 },
      (_, i) => 1 / (1 + Math.exp(-betaOf(x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!))),
    ),
};

/** A model given by its favourable decision on (A, B, X), counting its predict calls. */
function modelOf(favourable: (a: number, b: number, x: number) => boolean): Classifier & { calls: number } {
  const m = {
    nFeatures: 3,
    nClasses: 2,
    calls: 0,
    predict(x: Float64Array) {
      m.calls++;
      return Int32Array.from({ length: x.length / 3 }, (_, i) =>
        favourable(x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!) ? 1 : 0,
      );
    },
  };
  return m;
}

// The twin (no-bias labels) holds a protected effect of the base data: B = 1 is unfavourable.
const twinRule = (_a: number, b: number) => b !== 1;
// The audited model holds it too, plus S0, S1 where X = 2, and a bias-caused effect outside the
// planted subgroups ({A = 1, B = 0, X = 0}, where β is 0 on both sides).
const auditedRule = (a: number, b: number, x: number) =>
  !((a === 0 && x === 1) || b === 1 || (b === 2 && x === 2) || (a === 1 && b === 0 && x === 0));

const rows = [
  [0, 0, 1],
  [1, 2, 2],
  [1, 1, 0],
  [0, 0, 0],
];
const dataset = datasetOf(rows);

/** Every other joint assignment (A, B) of a row's protected values. */
function variantsOf(row: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let a = 0; a < 2; a++) {
    for (let b = 0; b < 3; b++) if (a !== row[0] || b !== row[1]) out.push([a, b, row[2]!]);
  }
  return out;
}

function individual(list: ReturnType<typeof pair>[], distinctQueries = 100): DiscoveryResult {
  return resultOf({ kind: 'individual', pairs: list, byAttributeValue: [] }, { distinctQueries });
}

/** Every variant pair of every audited row, listed without asking the model. */
const unaskedLister = (list: readonly (readonly number[])[]) =>
  list.flatMap((r) => variantsOf(r).map((v) => pair([...r], v)));

describe('modelTruth with the twin model (hand-computed)', () => {
  it('counts variant pairs, flips and bias-caused flips', () => {
    const t = modelTruth(modelOf(auditedRule), dataset, truth, modelOf(twinRule));
    // Row (0,0,1): the model flips at (1,0,1) and (1,2,1), the twin at neither: 2 flips, 2 true.
    // Row (1,2,2): flips at (0,0,2) and (1,0,2), the twin at neither: 2 flips, 2 true.
    // Row (1,1,0): flips at (0,0,0), (0,2,0), (1,2,0), the twin at all three: 3 flips, 0 true.
    // Row (0,0,0): flips at (0,1,0) (the twin too) and (1,0,0) and (1,1,0) (the twin too): 3 flips, 1 true.
    // Rows (1,1,0) and (0,0,0) are each other's variant: that pair, a flip but not true, counts once.
    expect(t.variantPairs).toBe(19);
    expect(t.flips).toBe(9);
    expect(t.trueFlips).toBe(5);
    expect([...t.biasCaused!]).toEqual([1, 1, 0, 1]);
    expect(t.biasCausedCount).toBe(3);
    expect(t.baseRate).toBe(5 / 19);
  });

  it('without the twin model the new counts are null', () => {
    const t = modelTruth(modelOf(auditedRule), dataset, truth);
    expect([t.variantPairs, t.flips, t.trueFlips, t.biasCaused, t.biasCausedCount, t.baseRate]).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('the twin is the model itself: nothing is bias-caused', () => {
    const m = modelOf(auditedRule);
    const t = modelTruth(m, dataset, truth, m);
    expect(t.flips).toBe(9);
    expect(t.trueFlips).toBe(0);
    expect(t.biasCausedCount).toBe(0);
    expect(t.baseRate).toBe(0);
  });
});

describe('scoreAudit with the twin model (hand-computed)', () => {
  // (0,0,1)→(1,0,1): model 0→1, twin 1=1: true; β −2→0, planted; crosses S0.
  // (0,0,0)→(1,0,0): model 1→0, twin 1=1: true; β 0=0, unplanted; crosses nothing.
  // (1,1,0)→(1,2,0): model 0→1, twin 0→1: not true; β 0→−1 against the move: reversed; crosses S1.
  // (0,1,2)→(1,1,2): model 0=0: unconfirmed, not true.
  const reported = [
    pair([0, 0, 1], [1, 0, 1]),
    pair([0, 0, 0], [1, 0, 0]),
    pair([1, 1, 0], [1, 2, 0]),
    pair([0, 1, 2], [1, 1, 2]),
  ];

  it('true pairs, precision, localisation, reach and true pairs per 1000 queries', () => {
    const model = modelOf(auditedRule);
    const twinModel = modelOf(twinRule);
    const mt = modelTruth(model, dataset, truth);
    model.calls = 0;
    const s = scoreAudit(individual(reported), dataset, truth, { model, twinModel, modelTruth: mt });
    expect(s.verdicts).toEqual({ planted: 1, reversed: 1, unplanted: 1, unconfirmed: 1 });
    expect(s.truePairs).toBe(2);
    expect(s.precision).toBe(0.5);
    expect(s.localisation).toBe(0.25);
    // S0 is reached by the first pair; S1 only by the third, which is not true.
    expect(s.groups.map((g) => g.reached)).toEqual([true, false]);
    expect(s.reach).toBe(0.5);
    // 8 distinct inputs listed, 100 distinct queries asked: charged 100.
    expect(s.queriesCharged).toBe(100);
    expect(s.truePerKQueries).toBe(20);
    // Member coverage is unchanged: (0,0,1) is S0's learned member, reached with a planted pair.
    expect(s.groups.map((g) => g.covered)).toEqual([1, 0]);
    expect(s.recall).toBe(0.5);
    // One batch per model.
    expect([model.calls, twinModel.calls]).toEqual([1, 1]);
  });

  it('a result that asked fewer inputs than it lists is charged for the distinct inputs it lists', () => {
    const s = scoreAudit(individual(reported, 3), dataset, truth, {
      model: modelOf(auditedRule),
      twinModel: modelOf(twinRule),
    });
    expect(s.truePairs).toBe(2);
    expect(s.queriesCharged).toBe(8);
    expect(s.truePerKQueries).toBe(250);
  });

  it('a pair reported again, in either order, is one finding', () => {
    const withRepeat = [...reported, pair([0, 0, 1], [1, 0, 1]), pair([1, 0, 1], [0, 0, 1])];
    const s = scoreAudit(individual(withRepeat, 3), dataset, truth, {
      model: modelOf(auditedRule),
      twinModel: modelOf(twinRule),
    });
    expect(s.findings).toBe(6);
    expect(s.truePairs).toBe(2);
    expect(s.precision).toBe(0.5);
    expect(s.queriesCharged).toBe(8);
  });

  it('without the twin model: precision is the share of planted pairs, the twin measures null', () => {
    const s = scoreAudit(individual(reported), dataset, truth, { model: modelOf(auditedRule) });
    expect(s.precision).toBe(0.25);
    expect(s.localisation).toBe(0.25);
    expect([s.truePairs, s.reach, s.truePerKQueries]).toEqual([null, null, null]);
    expect(s.queriesCharged).toBe(100);
    expect(s.groups.map((g) => g.reached)).toEqual([null, null]);
  });

  it('the twin is the model itself: no true pair, precision 0, reach 0', () => {
    const model = modelOf(auditedRule);
    const s = scoreAudit(individual(reported), dataset, truth, { model, twinModel: model });
    expect(s.truePairs).toBe(0);
    expect(s.precision).toBe(0);
    expect(s.reach).toBe(0);
    expect(s.truePerKQueries).toBe(0);
  });

  it('no pairs: precision and localisation null, nothing charged beyond the queries', () => {
    const s = scoreAudit(individual([], 0), dataset, truth, {
      model: modelOf(auditedRule),
      twinModel: modelOf(twinRule),
    });
    expect([s.precision, s.localisation, s.truePairs, s.reach]).toEqual([null, null, 0, 0]);
    expect(s.queriesCharged).toBe(0);
    expect(s.truePerKQueries).toBeNull();
  });

  it('the unasked lister: precision equals the base rate, charged the distinct inputs it lists', () => {
    const model = modelOf(auditedRule);
    const twinModel = modelOf(twinRule);
    const mt = modelTruth(model, dataset, truth, twinModel);
    const s = scoreAudit(individual(unaskedLister(rows), 0), dataset, truth, {
      model,
      twinModel,
      modelTruth: mt,
    });
    expect(s.findings).toBe(20);
    // 19 distinct pairs ((1,1,0)–(0,0,0) is listed from both rows), 5 of them true.
    expect(s.truePairs).toBe(5);
    expect(s.precision).toBe(mt.baseRate);
    // Rows (1,1,0) and (0,0,0) share X = 0: 3 values of X × 6 protected combinations.
    expect(s.queriesCharged).toBe(18);
    // True pairs for three individuals (X = 1, 2 and 0): charged per individual, not per pair.
    expect(s.trueIndividuals).toBe(3);
    expect(s.truePerKQueries).toBe((1000 * 3) / 18);
  });
});

/** Mulberry32: a small seeded generator for reproducible random cases. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('brute force on random small cases', () => {
  it('every variant pair and every reported pair counted directly', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rand = random(seed);
      const int = (k: number) => Math.floor(rand() * k);
      const table = () => Array.from({ length: 18 }, () => rand() < 0.5);
      const fT = table();
      const gT = table();
      const f = (a: number, b: number, x: number) => fT[9 * a + 3 * b + x]!;
      const g = (a: number, b: number, x: number) => gT[9 * a + 3 * b + x]!;
      const model = modelOf(f);
      const twinModel = rand() < 0.15 ? model : modelOf(g);
      const gTwin = twinModel === model ? f : g;
      const n = 1 + int(12);
      const audited = Array.from({ length: n }, () => [int(2), int(3), int(3)]);
      const ds = datasetOf(audited);

      // Distinct unordered pairs of inputs, by their sorted keys.
      const unordered = (p: readonly number[], q: readonly number[]) => [p.join(), q.join()].sort().join('|');
      const all = new Set<string>();
      const flipping = new Set<string>();
      const caused = new Set<string>();
      const biasCaused = audited.map(() => 0);
      audited.forEach(([a, b, x], r) => {
        for (let a2 = 0; a2 < 2; a2++) {
          for (let b2 = 0; b2 < 3; b2++) {
            if (a2 === a && b2 === b) continue;
            const k = unordered([a!, b!, x!], [a2, b2, x!]);
            all.add(k);
            if (f(a!, b!, x!) === f(a2, b2, x!)) continue;
            flipping.add(k);
            if (gTwin(a!, b!, x!) === gTwin(a2, b2, x!)) {
              caused.add(k);
              biasCaused[r] = 1;
            }
          }
        }
      });
      const [variantPairs, flips, trueFlips] = [all.size, flipping.size, caused.size];
      const mt = modelTruth(model, ds, truth, twinModel);
      expect([mt.variantPairs, mt.flips, mt.trueFlips]).toEqual([variantPairs, flips, trueFlips]);
      expect([...mt.biasCaused!]).toEqual(biasCaused);
      expect(mt.baseRate).toBe(trueFlips / variantPairs);

      const m = 1 + int(15);
      const reported = Array.from({ length: m }, () => {
        const s = [int(2), int(3), int(3)];
        let c: number[];
        do c = [int(2), int(3), s[2]!];
        while (c[0] === s[0] && c[1] === s[1]);
        return pair(s, c);
      });
      let truePairs = 0;
      let planted = 0;
      const reached = [false, false];
      const inputs = new Set<string>();
      const individuals = new Set<number>();
      const once = new Set<string>();
      const distinct = reported.filter((p) => {
        const k = unordered(p.sample, p.counterfactual);
        if (once.has(k)) return false;
        once.add(k);
        return true;
      });
      for (const p of distinct) {
        const [sa, sb, sx] = p.sample as [number, number, number];
        const [ca, cb, cx] = p.counterfactual as [number, number, number];
        inputs.add(p.sample.join()).add(p.counterfactual.join());
        const move = Number(f(ca, cb, cx)) - Number(f(sa, sb, sx));
        if (move !== 0 && Math.sign(betaOf(ca, cb, cx) - betaOf(sa, sb, sx)) === move) planted++;
        if (move === 0 || gTwin(sa, sb, sx) !== gTwin(ca, cb, cx)) continue;
        truePairs++;
        individuals.add(sx);
        if (inS0(sa, sb, sx) !== inS0(ca, cb, cx)) reached[0] = true;
        if (inS1(sa, sb) !== inS1(ca, cb)) reached[1] = true;
      }
      const distinctQueries = int(2) ? 0 : int(40);
      const s = scoreAudit(individual(reported, distinctQueries), ds, truth, {
        model,
        twinModel,
        modelTruth: mt,
      });
      const q = Math.max(distinctQueries, inputs.size);
      expect(s.truePairs).toBe(truePairs);
      expect(s.precision).toBe(truePairs / distinct.length);
      expect(s.localisation).toBe(planted / distinct.length);
      expect(s.groups.map((gs) => gs.reached)).toEqual(reached);
      expect(s.reach).toBe(reached.filter(Boolean).length / 2);
      expect(s.queriesCharged).toBe(q);
      expect(s.trueIndividuals).toBe(individuals.size);
      expect(s.truePerKQueries).toBe((1000 * individuals.size) / q);
      if (twinModel === model) expect([s.truePairs, mt.trueFlips, s.reach]).toEqual([0, 0, 0]);

      const lister = scoreAudit(individual(unaskedLister(audited), 0), ds, truth, {
        model,
        twinModel,
        modelTruth: mt,
      });
      expect(lister.precision).toBe(mt.baseRate);
    }
  });
});

describe('anytime: the true findings known after k distinct queries (hand-computed)', () => {
  // The four reported pairs above, asked in order through the clock: pair i's inputs are the
  // (2i+1)-th and (2i+2)-th distinct queries, so pair i is known after 2i + 2 queries.
  const reported = [
    pair([0, 0, 1], [1, 0, 1]), // true, crosses S0
    pair([0, 0, 0], [1, 0, 0]), // true, crosses nothing
    pair([1, 1, 0], [1, 2, 0]), // not true
    pair([0, 1, 2], [1, 1, 2]), // not true
  ];
  function scored(
    stopReason: 'completed' | 'query-budget' | 'time-budget',
    maxQueries: number | null = null,
  ) {
    const model = modelOf(auditedRule);
    const clock = new QueryClock(model, { shareIndex: false });
    clock.start();
    for (const p of reported) clock.model.predict(Float64Array.from([...p.sample, ...p.counterfactual]));
    const result = individual(reported, 8);
    (result.run as { stopReason: string }).stopReason = stopReason;
    (result as { budget: unknown }).budget = { maxSeconds: null, maxTested: null, maxQueries };
    return scoreAudit(result, dataset, truth, {
      model,
      twinModel: modelOf(twinRule),
      clock,
      anytimeQueries: [100, 1, 2, 4, 8],
    });
  }

  it('counts true pairs, individuals and reach at each checkpoint, in increasing order', () => {
    expect(scored('completed').anytime).toEqual([
      { queries: 1, truePairs: 0, trueIndividuals: 0, reach: 0 },
      { queries: 2, truePairs: 1, trueIndividuals: 1, reach: 0.5 },
      { queries: 4, truePairs: 2, trueIndividuals: 2, reach: 0.5 },
      { queries: 8, truePairs: 2, trueIndividuals: 2, reach: 0.5 },
      // The run ended on its own after 8 queries: its final state holds at 100.
      { queries: 100, truePairs: 2, trueIndividuals: 2, reach: 0.5 },
    ]);
  });

  it('a run stopped by its query budget stands for every count up to that budget', () => {
    // It could not pay its next step within 10 queries: its state at 8 is its state at 10.
    expect(scored('query-budget', 10).anytime?.map((a) => a.queries)).toEqual([1, 2, 4, 8]);
    expect(scored('query-budget', 100).anytime?.map((a) => a.queries)).toEqual([1, 2, 4, 8, 100]);
  });

  it('a run stopped by its time budget says nothing beyond the queries it asked', () => {
    expect(scored('time-budget', 100).anytime?.map((a) => a.queries)).toEqual([1, 2, 4, 8]);
  });

  it('without the clock there is no anytime curve', () => {
    const s = scoreAudit(individual(reported), dataset, truth, {
      model: modelOf(auditedRule),
      twinModel: modelOf(twinRule),
      anytimeQueries: [10],
    });
    expect(s.anytime).toBeNull();
  });
});
