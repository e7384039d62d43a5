import {
  type Classifier,
  createDataset,
  createRng,
  type Dataset,
  defineSchema,
  ModelError,
  memberMask,
  OptionsError,
  RunController,
} from '@fb/core';
import { classifierFromFunction } from '@fb/models';
import { describe, expect, it } from 'vitest';
import { type Correction, lossSlope, multiaccuracy, multiaccuracyAudit } from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
    { name: 'cell', kind: 'categorical', protected: false, categories: ['A', 'B'] },
  ],
  outcome: { name: 'o', labels: ['no', 'yes'], favorable: 1 },
});

/** P(favourable) 0.8 in cell A, 0.2 in cell B. */
const cellModel: Classifier = classifierFromFunction(
  (x, n) => Float64Array.from({ length: n }, (_, i) => (x[2 * i + 1] === 0 ? 0.8 : 0.2)),
  { nFeatures: 2 },
);

/** 100 rows per cell: cell A never favourable, cell B always, so the model errs by 0.8 in both. */
function twoCells(): Dataset {
  const rng = createRng('cells');
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < 200; i++) {
    x.push(rng.int(0, 1), i < 100 ? 0 : 1);
    y.push(i < 100 ? 0 : 1);
  }
  return createDataset({ schema, x, y });
}

describe('multiaccuracy boost auditor', () => {
  it('uses the reference loss slope, continuous at its knots', () => {
    expect(lossSlope(0.5, 1)).toBe(2);
    expect(lossSlope(0.05, 1)).toBeCloseTo(15, 12);
    expect(lossSlope(0.2, 0)).toBeCloseTo(1.25, 12);
    expect(lossSlope(0.95, 0)).toBeCloseTo(15, 12);
    expect(lossSlope(0.1, 1)).toBeCloseTo(20 - 100 * 0.1, 12);
    expect(lossSlope(0.9, 0)).toBeCloseTo(1 / (1 - 0.9), 12);
  });

  it('follows the hand-computed boosting path: scores are the odds, updates 0.1 × the slope', async () => {
    // Cell A is the predicted-favourable partition, and its auditor is the constant slope 1/(1 − p) = 1 + odds
    // whatever the split, so its held-out score is slope × p = odds and log-odds fall by 0.1 × (1 + odds).
    const dataset = twoCells();
    const result = await multiaccuracy.run(
      { dataset, model: cellModel },
      { maxIterations: 4, replicas: 0 },
      { seed: 3 },
    );
    const corrections = result.extras.corrections as Correction[];
    let logOdds = Math.log(4);
    expect(corrections).toHaveLength(4);
    corrections.forEach((c, t) => {
      expect(c.round).toBe(t);
      expect(c.partition).toBe('predicted-favourable');
      expect(c.score).toBeCloseTo(Math.exp(logOdds), 10);
      logOdds -= 0.1 * (1 + Math.exp(logOdds));
    });
    const [s] = result.findings.kind === 'subgroup' ? result.findings.subgroups : [];
    expect(s!.score).toBeCloseTo(4, 10);
    expect(s!.conditions).toEqual([{ attribute: 'cell', values: [0] }]);
    expect(s!.details.exact).toBe(true);
    expect(s!.members).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(s!.rule).toBe("the model's probability of the favourable outcome > 0.5");
    expect(s!.effect).toBeCloseTo(0.8, 12);
    expect(s!.direction).toBe('higher');
    expect(s!.pValue).toBeNull();
  });

  it('reports a partition no conjunction states by its members and rule, with no conditions', async () => {
    // Predicted favourable iff a + b > 9, while outcomes are favourable half the time everywhere: the
    // over-estimated partition is a diagonal half of the grid, whose bounding box is the whole grid.
    const grid = defineSchema({
      attributes: [
        { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
        { name: 'a', kind: 'ordinal', protected: false, min: 0, max: 9, step: 1 },
        { name: 'b', kind: 'ordinal', protected: false, min: 0, max: 9, step: 1 },
      ],
      outcome: { name: 'o', labels: ['no', 'yes'], favorable: 1 },
    });
    const model = classifierFromFunction(
      (x, n) => Float64Array.from({ length: n }, (_, i) => (x[3 * i + 1]! + x[3 * i + 2]! > 9 ? 0.9 : 0.3)),
      { nFeatures: 3 },
    );
    const rng = createRng('diagonal');
    const x: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < 2000; i++) {
      x.push(rng.int(0, 1), rng.int(0, 9), rng.int(0, 9));
      y.push(rng.bernoulli(0.3) ? 1 : 0);
    }
    const dataset = createDataset({ schema: grid, x, y });
    const result = await multiaccuracy.run({ dataset, model }, { replicas: 0 });
    const [s] = result.findings.kind === 'subgroup' ? result.findings.subgroups : [];
    expect(s!.details.partition).toBe('predicted-favourable');
    expect(s!.details.exact).toBe(false);
    expect(s!.conditions).toEqual([]);
    const diagonal = Array.from({ length: 2000 }, (_, i) => i).filter(
      (i) => x[3 * i + 1]! + x[3 * i + 2]! > 9,
    );
    expect(s!.members).toEqual(diagonal);
    expect(s!.size).toBe(diagonal.length);
  });

  it('audits one direction as the CBS paper does, and its mirror image', async () => {
    const dataset = twoCells();
    const p = Float64Array.from({ length: 200 }, (_, i) => (i < 100 ? 0.8 : 0.2));
    // "over": cell B's under-estimation has its residual clipped to 0, so only cell A is ever corrected.
    const over = await multiaccuracyAudit(
      dataset,
      p,
      multiaccuracy.resolveOptions({ direction: 'over', maxIterations: 3, replicas: 0 }),
      new RunController({ seed: 1 }),
    );
    expect((over.extras.corrections as Correction[]).map((c) => c.partition)).toEqual([
      'predicted-favourable',
      'predicted-favourable',
      'predicted-favourable',
    ]);
    // "under": cell A is clipped; cell B (predicted unfavourable, y = 1) gets score odds(unfavourable) = 4.
    const under = await multiaccuracyAudit(
      dataset,
      p,
      multiaccuracy.resolveOptions({ direction: 'under', maxIterations: 3, replicas: 0 }),
      new RunController({ seed: 1 }),
    );
    const first = (under.extras.corrections as Correction[])[0]!;
    expect(first.partition).toBe('predicted-unfavourable');
    expect(first.score).toBeCloseTo(4, 10);
    expect(Array.from(under.members)).toEqual(
      Array.from(memberMask(dataset, [{ attribute: 'cell', values: [1] }])),
    );
    expect(under.subgroups[0]!.direction).toBe('lower');
  });

  it('stops after a correction on the last partition only with the reference quirk', async () => {
    // The auditor sees sex only. Partition 1 (p = 1, all favourable, all women) has zero residuals.
    // Partition 2 (p = 0.4): 58 % men, unfavourable (residual +0.4, slope 1/0.6), 42 % women, favourable
    // (residual −0.6, slope 2.5): held-out score ≈ 0.58·0.667 − 0.42·1.5 < 0. On all rows the women's
    // auditor value is pulled to ≈ 1 by partition 1, so the score 0.58·0.667 − 0.42·0.6·1.03 > 0: the first
    // correction is on the last partition.
    const n = 21_000;
    const x = new Float64Array(2 * n);
    const y = new Int32Array(n);
    const p = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const b = i - 20_000;
      const man = b >= 0 && b < 580;
      x.set([man ? 0 : 1, b >= 0 ? 1 : 0], 2 * i);
      y[i] = man ? 0 : 1;
      p[i] = b >= 0 ? 0.4 : 1;
    }
    const dataset = createDataset({ schema, x, y });
    const run = (stopAfterLastPartition: boolean) =>
      multiaccuracyAudit(
        dataset,
        p,
        multiaccuracy.resolveOptions({
          auditAttributes: ['sex'],
          stopAfterLastPartition,
          maxIterations: 5,
          replicas: 0,
        }),
        new RunController({ seed: 2 }),
      );
    const quirk = await run(true);
    expect((quirk.extras.corrections as Correction[]).map((c) => c.partition)).toEqual(['all']);
    expect(quirk.extras.stoppedBy).toBe('last-partition');
    expect(quirk.subgroups[0]!.conditions).toEqual([]);
    const paper = await run(false);
    expect((paper.extras.corrections as Correction[])[0]!.partition).toBe('all');
    expect(paper.extras.stoppedBy).not.toBe('last-partition');
    expect(paper.extras.rounds).toBeGreaterThan(1);
  });

  it('gives small p-values to a planted over-estimation and roughly uniform ones under the null', async () => {
    const rng = createRng('null');
    const n = 400;
    const make = (bias: number) => {
      const x = new Float64Array(2 * n);
      const y = new Int32Array(n);
      const p = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        x.set([rng.int(0, 1), rng.int(0, 1)], 2 * i);
        const truth = 0.3 + 0.4 * x[2 * i + 1]!;
        y[i] = rng.bernoulli(truth) ? 1 : 0;
        p[i] = Math.min(0.95, truth + (x[2 * i] === 1 ? bias : 0));
      }
      return { dataset: createDataset({ schema, x, y }), p };
    };
    const options = multiaccuracy.resolveOptions({ replicas: 19 });
    const planted = make(0.25);
    const hit = await multiaccuracyAudit(planted.dataset, planted.p, options, new RunController({ seed: 9 }));
    expect(hit.subgroups[0]!.pValue).toBe(0.05);

    let small = 0;
    const trials = 30;
    for (let t = 0; t < trials; t++) {
      const d = make(0);
      const r = await multiaccuracyAudit(d.dataset, d.p, options, new RunController({ seed: t }));
      if ((r.subgroups[0]?.pValue ?? 1) <= 0.2) small++;
    }
    expect(small / trials).toBeGreaterThan(0.03);
    expect(small / trials).toBeLessThan(0.45);
  });

  it('rejects label-only models and unknown audit attributes', async () => {
    const dataset = twoCells();
    const labelsOnly: Classifier = { nFeatures: 2, nClasses: 2, predict: cellModel.predict };
    await expect(multiaccuracy.run({ dataset, model: labelsOnly })).rejects.toBeInstanceOf(ModelError);
    await expect(
      multiaccuracy.run({ dataset, model: cellModel }, { auditAttributes: ['height'] }),
    ).rejects.toBeInstanceOf(OptionsError);
  });
});
