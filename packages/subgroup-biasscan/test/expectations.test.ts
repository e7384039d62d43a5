import { RunController, type SubgroupFinding } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { biasScan, mdssBiasScan } from '../src/index.js';
import {
  auditData,
  auditModel,
  bruteForceBest,
  SoftmaxModel,
  smallData,
  smallModel,
  threeClassData,
} from './fixtures.js';

const subgroupsOf = (r: Awaited<ReturnType<typeof biasScan.run>>): SubgroupFinding[] =>
  r.findings.kind === 'subgroup' ? r.findings.subgroups : [];
const withoutTimings = (extras: Record<string, unknown>) => {
  const { timings: _, ...rest } = extras;
  return rest;
};
const favourable = (proba: Float64Array) =>
  Float64Array.from({ length: proba.length / 2 }, (_, i) => proba[2 * i + 1]!);

// Women in jobs j0 and j2 get the favourable label with a quarter of the odds the model predicts.
const planted = auditData(
  3000,
  'expectations',
  (x, o) => x[o] === 1 && (x[o + 4] === 0 || x[o + 4] === 2),
  0.25,
);

describe('mdssBiasScan (expectations without a model)', () => {
  it("equals the detector when the expectations are the model's probabilities, in either form", async () => {
    const options = { penalty: 1, randomizationReplicates: 19, stopping: 'fixed' } as const;
    const run = await biasScan.run({ dataset: planted, model: auditModel }, options, { seed: 4 });
    const proba = auditModel.predictProba(planted.x);
    const matrix = await mdssBiasScan(planted, proba, options, new RunController({ seed: 4 }));
    const vector = await mdssBiasScan(planted, favourable(proba), options, new RunController({ seed: 4 }));
    expect(subgroupsOf(run).length).toBeGreaterThan(0);
    expect(matrix.subgroups).toEqual(subgroupsOf(run));
    expect(withoutTimings(matrix.extras)).toEqual(withoutTimings(run.extras));
    expect(vector.subgroups).toEqual(matrix.subgroups);
    expect(withoutTimings(vector.extras)).toEqual(withoutTimings(matrix.extras));
  });

  it('nominal mode takes class probabilities per row', async () => {
    const model = new SoftmaxModel();
    const data = threeClassData(2000, 'nominal-exp', model, (x, o) => x[o] === 0 && x[o + 1] === 1, 0, 0.35);
    const options = {
      mode: 'nominal',
      direction: 'positive',
      penalty: 2,
      randomizationReplicates: 0,
    } as const;
    const run = await biasScan.run({ dataset: data, model }, options, { seed: 2 });
    const given = await mdssBiasScan(
      data,
      model.predictProba(data.x),
      options,
      new RunController({ seed: 2 }),
    );
    expect(given.subgroups).toEqual(subgroupsOf(run));
  });

  it("null expectations are AIF360's default: every row expects the observed favourable rate", async () => {
    let favourableRows = 0;
    for (let i = 0; i < planted.n; i++) favourableRows += planted.y[i]!;
    const rate = favourableRows / planted.n;
    const options = { penalty: 1, randomizationReplicates: 9, stopping: 'fixed' } as const;
    const byDefault = await mdssBiasScan(planted, null, options, new RunController({ seed: 5 }));
    const constant = await mdssBiasScan(
      planted,
      new Float64Array(planted.n).fill(rate),
      options,
      new RunController({ seed: 5 }),
    );
    expect(byDefault.subgroups.length).toBeGreaterThan(0);
    expect(byDefault.subgroups).toEqual(constant.subgroups);
    for (const s of byDefault.subgroups) expect(s.details.expected).toBeCloseTo(rate, 12);
  });

  it('null expectations in nominal mode are 1/K per class (AIF360)', async () => {
    const model = new SoftmaxModel();
    const data = threeClassData(1500, 'nominal-null', model, () => false, 0, 0);
    const options = { mode: 'nominal', direction: 'both', randomizationReplicates: 0 } as const;
    const { subgroups } = await mdssBiasScan(data, null, options, new RunController({ seed: 3 }));
    expect(subgroups.length).toBeGreaterThan(0);
    for (const s of subgroups) expect(s.details.expected).toBeCloseTo(1 / 3, 12);
  });

  it('rejects expectations that do not fit, naming the row or the lengths', async () => {
    const ctl = () => new RunController({ seed: 1 });
    const n = planted.n;
    await expect(mdssBiasScan(planted, new Float64Array(n - 1), {}, ctl())).rejects.toMatchObject({
      code: 'DATA_SHAPE',
      message: expect.stringContaining(`${n} (P(yes) per row) or ${2 * n}`),
    });
    const outside = new Float64Array(n).fill(0.5);
    outside[7] = 1.5;
    await expect(mdssBiasScan(planted, outside, {}, ctl())).rejects.toMatchObject({
      code: 'DATA_OUT_OF_DOMAIN',
      details: { row: 7 },
    });
    const unnormalised = new Float64Array(2 * n).fill(0.5);
    unnormalised[2 * 11] = 0.6;
    await expect(mdssBiasScan(planted, unnormalised, {}, ctl())).rejects.toMatchObject({
      code: 'DATA_OUT_OF_DOMAIN',
      details: { row: 11 },
    });
    const model = new SoftmaxModel();
    const three = threeClassData(100, 'shape', model, () => false, 0, 0);
    await expect(
      mdssBiasScan(three, new Float64Array(100).fill(0.5), { mode: 'nominal' }, ctl()),
    ).rejects.toMatchObject({ code: 'DATA_SHAPE' });
    await expect(
      mdssBiasScan(planted, null, { scoring: 'poisson', mode: 'nominal' }, ctl()),
    ).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
    });
  });
});

// Berk-Jones: F(S) = Y ln(q/α) + (N − Y) ln((1 − q)/(1 − α)) with q = Y/N on the scanned side of α.
function berkJones(y: number, n: number, alpha: number, negative: boolean): number {
  const q = negative ? Math.min(y / n, alpha) : Math.max(y / n, alpha);
  const term = (count: number, a: number, b: number) => (count === 0 ? 0 : count * Math.log(a / b));
  return term(y, q, alpha) + term(n - y, 1 - q, 1 - alpha);
}

describe('Berk-Jones alpha', () => {
  const model = smallModel;
  const dataset = smallData('berk-jones');
  const { x, y, n } = dataset;
  const expectations = favourable(model.predictProba(x));

  /** The best penalised Berk-Jones score over every subgroup. */
  const bruteForce = (alpha: number, penalty: number, negative: boolean) =>
    bruteForceBest(x, [2, 3, 4], penalty, (rows) =>
      berkJones(
        rows.reduce((s, i) => s + y[i]!, 0),
        rows.length,
        alpha,
        negative,
      ),
    );

  it('the scan reaches the brute-force optimum for a given alpha, in both directions', async () => {
    for (const [alpha, direction] of [
      [0.3, 'positive'],
      [0.7, 'negative'],
    ] as const) {
      const { subgroups } = await mdssBiasScan(
        dataset,
        expectations,
        { scoring: 'berk-jones', alpha, direction, penalty: 0.3, numIters: 20, randomizationReplicates: 0 },
        new RunController({ seed: 6 }),
      );
      const best = bruteForce(alpha, 0.3, direction === 'negative');
      expect(best).toBeGreaterThan(1);
      expect(subgroups[0]!.score).toBeCloseTo(best, 6);
      expect(subgroups[0]!.details.alpha).toBe(alpha);
      // The fitted proportion is the members' observed rate.
      expect(subgroups[0]!.details.proportion).toBeCloseTo(subgroups[0]!.details.observed as number, 8);
    }
  });

  it('defaults to the mean expectation, and the detector takes alpha too', async () => {
    const mean = expectations.reduce((s, p) => s + p, 0) / n;
    const options = {
      scoring: 'berk-jones',
      direction: 'negative',
      penalty: 0.3,
      randomizationReplicates: 0,
    } as const;
    const byDefault = await mdssBiasScan(dataset, expectations, options, new RunController({ seed: 8 }));
    const explicit = await mdssBiasScan(
      dataset,
      expectations,
      { ...options, alpha: mean },
      new RunController({ seed: 8 }),
    );
    expect(byDefault.subgroups[0]!.details.alpha).toBeCloseTo(mean, 14);
    expect(byDefault.subgroups.map((s) => s.score)).toEqual(explicit.subgroups.map((s) => s.score));
    expect(byDefault.subgroups[0]!.score).toBeCloseTo(bruteForce(mean, 0.3, true), 6);

    const run = await biasScan.run({ dataset, model }, { ...options, alpha: 0.7 }, { seed: 8 });
    expect(subgroupsOf(run)[0]!.details.alpha).toBe(0.7);
    expect(subgroupsOf(run)[0]!.score).toBeCloseTo(bruteForce(0.7, 0.3, true), 6);
  });

  it('alpha is refused outside (0, 1) and with another score', async () => {
    expect(() => biasScan.resolveOptions({ alpha: 1 })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID' }),
    );
    await expect(biasScan.run({ dataset, model }, { alpha: 0.5 }, { seed: 1 })).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
      details: { option: '/alpha' },
    });
  });
});
