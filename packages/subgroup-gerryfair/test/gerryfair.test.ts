import {
  type Classifier,
  createDataset,
  createRng,
  type Dataset,
  defineSchema,
  ModelError,
  maskRows,
  memberMask,
  OptionsError,
  RunController,
} from '@fb/core';
import { classifierFromFunction } from '@fb/models';
import { describe, expect, it } from 'vitest';
import { type GerryfairOptions, gerryfair, gerryfairAudit } from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
    { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
    { name: 'score', kind: 'ordinal', protected: false, min: 0, max: 9, step: 1 },
  ],
  outcome: { name: 'approved', labels: ['no', 'yes'], favorable: 1 },
});

/** Favourable label iff score >= 5: the predictions are set through the score column. */
const thresholdModel: Classifier = classifierFromFunction(
  (x, n) => Float64Array.from({ length: n }, (_, i) => (x[i * 3 + 2]! >= 5 ? 0.9 : 0.1)),
  { nFeatures: 3 },
);

/**
 * 30 rows, race a: 10 men and 10 women with an unfavourable outcome, of whom 6 men and 2 women get
 * the favourable prediction, and 10 rows with the favourable outcome.
 */
function handCase(): Dataset {
  const x: number[] = [];
  const y: number[] = [];
  for (let k = 0; k < 10; k++) {
    x.push(0, 0, k < 6 ? 9 : 0);
    y.push(0);
    x.push(1, 0, k < 2 ? 9 : 0);
    y.push(0);
    x.push(k % 2, 0, 9);
    y.push(1);
  }
  return createDataset({ schema, x, y });
}

const opts = (o: Partial<GerryfairOptions> = {}) => gerryfair.resolveOptions({ permutations: 0, ...o });

describe('gerryfair auditor', () => {
  it('finds the hand-computed FP groups, alpha, beta and gamma', async () => {
    const dataset = handCase();
    const predictions = thresholdModel.predict(dataset.x);
    const p = Float64Array.from(predictions);
    // Baseline FP rate 8/20 = 0.4; men 0.6, women 0.2; alpha = 10/30 on each side; gamma = 0.2/3.
    const higher = await gerryfairAudit(dataset, p, opts({ direction: 'higher' }), new RunController());
    const [h] = higher.subgroups;
    expect(h!.conditions).toEqual([{ attribute: 'sex', values: [0] }]);
    expect(h!.size).toBe(15);
    expect(h!.details.exact).toBe(true);
    expect(h!.details.baseline).toBeCloseTo(0.4, 12);
    expect(h!.details.groupRate).toBeCloseTo(0.6, 12);
    expect(h!.details.alpha).toBeCloseTo(1 / 3, 12);
    expect(h!.details.beta).toBeCloseTo(0.2, 12);
    expect(h!.score).toBeCloseTo(0.2 / 3, 12);
    expect(h!.effect).toBeCloseTo(0.2, 12);
    expect(h!.direction).toBe('higher');
    const lower = await gerryfairAudit(dataset, p, opts({ direction: 'lower' }), new RunController());
    expect(lower.subgroups[0]!.conditions).toEqual([{ attribute: 'sex', values: [1] }]);
    expect(lower.subgroups[0]!.details.groupRate).toBeCloseTo(0.2, 12);
    // Both sides are equally unfair (they always are when they split the audited rows); the reference
    // keeps the lower side, the complement of the group with the raised error rate. By default both
    // are reported, labelled, the raised side first.
    const both = await gerryfairAudit(dataset, p, opts(), new RunController());
    expect(both.subgroups.map((s) => s.details.side)).toEqual(['higher', 'lower']);
    expect(both.subgroups[0]!.conditions).toEqual(h!.conditions);
    expect(both.subgroups[1]!.score).toBeCloseTo(h!.score, 12);
    // Exact members and the threshold rule in the data's labels.
    expect(h!.members).toEqual(maskRows(memberMask(dataset, h!.conditions)));
    expect(h!.rule).toMatch(/\[sex=.+\] < 0$|\[sex=.+\].* < 0$/);
    // The member mask is the group on every row, outcome-favourable rows included.
    expect(Array.from(higher.members)).toEqual(Array.from(memberMask(dataset, h!.conditions)));
  });

  it('lists the members of a threshold group that no conjunction states, with empty conditions', async () => {
    // Predictions raised for age + 3·sex > 9: a diagonal threshold, not a box over sex and age.
    const rng = createRng('diagonal');
    const n = 800;
    const x = new Float64Array(n * 3);
    const y = new Int32Array(n);
    const p = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x.set([rng.int(0, 1), rng.int(0, 2), rng.int(0, 9)], 3 * i);
      y[i] = 0;
      p[i] = x[3 * i + 2]! + 3 * x[3 * i]! > 9 ? 1 : rng.bernoulli(0.2) ? 1 : 0;
    }
    const data = createDataset({ schema, x, y });
    const res = await gerryfairAudit(
      data,
      p,
      opts({ direction: 'higher', groupAttributes: ['sex', 'score'] }),
      new RunController(),
    );
    const [g] = res.subgroups;
    expect(g!.details.exact).toBe(false);
    expect(g!.members!.length).toBe(g!.size);
    expect(g!.members).toEqual(maskRows(res.members));
    if (g!.details.exact) expect(maskRows(memberMask(data, g!.conditions))).toEqual(g!.members);
    else expect(g!.conditions).toEqual([]);
    expect(typeof g!.rule).toBe('string');
  });

  it('audits FN as FP with the outcome and the predictions flipped', async () => {
    const rng = createRng('flip');
    const n = 600;
    const x = new Float64Array(n * 3);
    const y = new Int32Array(n);
    const p = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x.set([rng.int(0, 1), rng.int(0, 2), rng.int(0, 9)], 3 * i);
      y[i] = rng.bernoulli(0.5) ? 1 : 0;
      p[i] = rng.uniform(0, 1) * (x[3 * i + 1] === 2 ? 0.6 : 1);
    }
    const data = createDataset({ schema, x, y });
    const flipped = createDataset({
      schema: { ...schema, outcome: { ...schema.outcome, favorable: 0 } },
      x,
      y,
    });
    for (const direction of ['higher', 'lower'] as const) {
      const fn = await gerryfairAudit(
        data,
        p,
        opts({ fairnessDefinition: 'FN', direction }),
        new RunController(),
      );
      const fp = await gerryfairAudit(
        flipped,
        p.map((v) => 1 - v),
        opts({ fairnessDefinition: 'FP', direction }),
        new RunController(),
      );
      expect(fn.subgroups[0]!.score).toBeCloseTo(fp.subgroups[0]!.score, 12);
      expect(Array.from(fn.members)).toEqual(Array.from(fp.members));
      // A higher FN rate is a lower favourable-prediction rate.
      expect(Math.sign(fn.subgroups[0]!.effect!)).toBe(direction === 'higher' ? -1 : 1);
    }
  });

  it('reproduces the least-squares sign rule of an independent reference-coded solve', async () => {
    // With one-hot sex and race the fitted cost is additive: intercept + s(sex) + r(race). Solve the same
    // regression with reference coding (intercept, sex=f, race=b, race=c) by Gaussian elimination.
    const rng = createRng('ls');
    const n = 500;
    const x = new Float64Array(n * 3);
    const y = new Int32Array(n);
    const p = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x.set([rng.int(0, 1), rng.weightedIndex([0.5, 0.3, 0.2]), rng.int(0, 9)], 3 * i);
      y[i] = rng.bernoulli(0.4) ? 1 : 0;
      p[i] = rng.bernoulli(0.3 + 0.2 * x[3 * i]! - 0.15 * x[3 * i + 1]! + 0.1 * x[3 * i]! * x[3 * i + 1]!)
        ? 1
        : 0;
    }
    const dataset = createDataset({ schema, x, y });
    const res = await gerryfairAudit(dataset, p, opts({ direction: 'higher' }), new RunController());

    const rows = [...Array(n).keys()].filter((i) => y[i] === 0);
    const b = rows.reduce((s, i) => s + p[i]!, 0) / rows.length;
    const feats = (i: number) => [1, x[3 * i]!, x[3 * i + 1] === 1 ? 1 : 0, x[3 * i + 1] === 2 ? 1 : 0];
    const xtx = Array.from({ length: 4 }, () => new Array(5).fill(0) as number[]);
    for (const i of rows) {
      const f = feats(i);
      for (let a = 0; a < 4; a++) {
        for (let c = 0; c < 4; c++) xtx[a]![c]! += f[a]! * f[c]!;
        xtx[a]![4]! += f[a]! * (b - p[i]!);
      }
    }
    for (let c = 0; c < 4; c++) {
      for (let r = c + 1; r < 4; r++) {
        const k = xtx[r]![c]! / xtx[c]![c]!;
        for (let q = c; q < 5; q++) xtx[r]![q]! -= k * xtx[c]![q]!;
      }
    }
    const beta = new Array(4).fill(0) as number[];
    for (let r = 3; r >= 0; r--) {
      let s = xtx[r]![4]!;
      for (let q = r + 1; q < 4; q++) s -= xtx[r]![q]! * beta[q]!;
      beta[r] = s / xtx[r]![r]!;
    }
    // The higher side's cost is (b − v)/n: members where its fit is negative.
    const expected = Array.from({ length: n }, (_, i) =>
      feats(i).reduce((s, f, k) => s + f * beta[k]!, 0) < 0 ? 1 : 0,
    );
    expect(Array.from(res.members)).toEqual(expected);
  });

  it('recovers a planted FP excess, with a small p-value, and leaves null data unflagged', async () => {
    const rng = createRng('planted');
    const n = 3000;
    const make = (excess: number) => {
      const x = new Float64Array(n * 3);
      const y = new Int32Array(n);
      const p = new Float64Array(n);
      const planted = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        x.set([rng.int(0, 1), rng.int(0, 2), rng.int(0, 9)], 3 * i);
        y[i] = rng.bernoulli(0.5) ? 1 : 0;
        planted[i] = x[3 * i] === 1 && x[3 * i + 1] === 2 ? 1 : 0;
        p[i] = rng.bernoulli(0.3 + (planted[i] ? excess : 0)) ? 1 : 0;
      }
      return { dataset: createDataset({ schema, x, y }), p, planted };
    };
    const { dataset, p, planted } = make(0.4);
    const res = await gerryfairAudit(
      dataset,
      p,
      opts({ direction: 'higher', permutations: 99 }),
      new RunController({ seed: 3 }),
    );
    const [s] = res.subgroups;
    expect(s!.pValue).toBe(0.01);
    // With six equal cells and an excess e in (f, c), the additive least-squares fit minus the baseline
    // is +e/2 in (f, c), +e/6 in (m, c), 0 in (f, a) and (f, b), and −e/3 in (m, a) and (m, b).
    // So the group holds the planted cell and never (m, a) or (m, b).
    const x = dataset.x;
    for (let i = 0; i < n; i++) {
      if (planted[i]) expect(res.members[i]).toBe(1);
      if (x[3 * i] === 0 && x[3 * i + 1] !== 2) expect(res.members[i]).toBe(0);
    }

    // Under the null the permutation p-values are roughly uniform.
    let small = 0;
    const trials = 60;
    for (let t = 0; t < trials; t++) {
      const nullData = make(0);
      const r = await gerryfairAudit(
        nullData.dataset,
        nullData.p,
        opts({ direction: 'higher', permutations: 39, gamma: 0 }),
        new RunController({ seed: t }),
      );
      if (r.subgroups[0]!.pValue! <= 0.2) small++;
    }
    expect(small / trials).toBeGreaterThan(0.05);
    expect(small / trials).toBeLessThan(0.4);
  });

  it('reports nothing below the gamma tolerance', async () => {
    const dataset = handCase();
    const r = await gerryfair.run({ dataset, model: thresholdModel }, { gamma: 0.07, permutations: 0 });
    expect(r.findings.kind === 'subgroup' && r.findings.subgroups).toEqual([]);
    const r2 = await gerryfair.run({ dataset, model: thresholdModel }, { gamma: 0.06, permutations: 0 });
    expect(r2.metrics.dsn).toBe(2); // both sides, labelled
  });

  it('audits the model probabilities when asked', async () => {
    const dataset = handCase();
    const r = await gerryfair.run(
      { dataset, model: thresholdModel },
      { predictions: 'probabilities', direction: 'higher', permutations: 0, gamma: 0 },
    );
    const [s] = r.findings.kind === 'subgroup' ? r.findings.subgroups : [];
    // Probabilities 0.9 / 0.1: men 0.1 + 0.6·0.8 = 0.58, baseline 0.1 + 0.4·0.8 = 0.42.
    expect(s!.details.groupRate).toBeCloseTo(0.58, 12);
    expect(s!.details.baseline).toBeCloseTo(0.42, 12);
  });

  it('describes its group by its members and cells, with conditions only when exact', async () => {
    // Excess FP for (m, a) and (f, b): an additive rule cannot pick both cells alone.
    const x: number[] = [];
    const y: number[] = [];
    const p: number[] = [];
    for (let s = 0; s < 2; s++) {
      for (let r = 0; r < 3; r++) {
        for (let k = 0; k < 20; k++) {
          x.push(s, r, 0);
          y.push(0);
          p.push(k < ((s === 0 && r === 0) || (s === 1 && r === 1) ? 15 : 5) ? 1 : 0);
        }
      }
    }
    const dataset = createDataset({ schema, x, y: y.map((v, i) => (i === 0 ? 1 : v)) });
    const res = await gerryfairAudit(
      dataset,
      Float64Array.from(p),
      opts({ direction: 'higher', gamma: 0 }),
      new RunController(),
    );
    const [s] = res.subgroups;
    const cells = (res.extras.group as { cells: number[][] }).cells;
    const members = res.members.reduce((a, v) => a + v, 0);
    expect(s!.details.members).toBe(members);
    // Conditions only when they are exactly the group; never a bounding box holding other rows.
    if (s!.details.exact) expect(maskRows(memberMask(dataset, s!.conditions))).toEqual(s!.members);
    else expect(s!.conditions).toEqual([]);
    expect(s!.size).toBe(members);
    expect(s!.members).toEqual(maskRows(res.members));
    // Every member's cell is listed, and every listed cell holds members only.
    for (let i = 0; i < dataset.n; i++) {
      const listed = cells.some((c) => c[0] === x[3 * i] && c[1] === x[3 * i + 1]);
      expect(listed).toBe(res.members[i] === 1);
    }
  });

  it('rejects unknown group attributes and probability audits of label-only models', async () => {
    const dataset = handCase();
    await expect(
      gerryfair.run({ dataset, model: thresholdModel }, { groupAttributes: ['height'] }),
    ).rejects.toBeInstanceOf(OptionsError);
    const labelsOnly: Classifier = { nFeatures: 3, nClasses: 2, predict: thresholdModel.predict };
    await expect(
      gerryfair.run({ dataset, model: labelsOnly }, { predictions: 'probabilities' }),
    ).rejects.toBeInstanceOf(ModelError);
  });
});
