import {
  type Classifier,
  CounterfactualChecker,
  CountingClassifier,
  createDataset,
  DataError,
  type Dataset,
  DomainSampler,
  OptionsError,
  Rng,
  RunController,
} from '@fb/core';
import { fitLogisticRegression } from '@fb/models';
import { describe, expect, it } from 'vitest';
import { discriminationRate, protectedVariants, retrainWithDiscrimination } from '../src/index.js';
import { plantedDirect } from './planted.js';

/** Discover individual discrimination the way a random-testing method does: check uniform inputs. */
function discover(ds: Dataset, model: Classifier, inputs: number, seed: number) {
  const checker = new CounterfactualChecker(ds.schema, new CountingClassifier(model), new RunController());
  const x = new Float64Array(inputs * ds.d);
  new DomainSampler(ds.schema).fill(Rng.create(seed), x);
  checker.check(x);
  return { findings: checker.findings() };
}

const schema3 = {
  attributes: [
    { name: 'g', kind: 'categorical' as const, protected: true, categories: ['p', 'q', 'r'] },
    { name: 'h', kind: 'categorical' as const, protected: true, categories: ['u', 'v'] },
    { name: 'z', kind: 'ordinal' as const, protected: false, min: 0, max: 4, step: 1 },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
};

describe('protected variants', () => {
  it('all combinations: the input first, then every other protected combination once', () => {
    const ds = createDataset({ schema: schema3, x: [1, 0, 3], y: [0] });
    const { x, block } = protectedVariants(ds.schema, ds.x, 'all-combinations');
    expect(block).toBe(6);
    const rows = Array.from({ length: block }, (_, r) => Array.from(x.subarray(r * 3, r * 3 + 3)));
    expect(rows[0]).toEqual([1, 0, 3]);
    const keys = new Set(rows.map((r) => `${r[0]},${r[1]}`));
    expect(keys.size).toBe(6);
    for (const r of rows) expect(r[2]).toBe(3);
  });

  it('one at a time: other values of each protected attribute, the rest unchanged', () => {
    const ds = createDataset({ schema: schema3, x: [1, 0, 3], y: [0] });
    const { x, block } = protectedVariants(ds.schema, ds.x, 'one-at-a-time');
    expect(block).toBe(4);
    expect(Array.from(x)).toEqual([1, 0, 3, 0, 0, 3, 2, 0, 3, 1, 1, 3]);
  });
});

describe('discrimination rate', () => {
  it('agrees with a direct count on a hand model (favourable iff g != r or z >= 3)', () => {
    const model: Classifier = {
      nFeatures: 3,
      nClasses: 2,
      predict: (x) =>
        Int32Array.from({ length: x.length / 3 }, (_, i) => (x[i * 3] !== 2 || x[i * 3 + 2]! >= 3 ? 1 : 0)),
    };
    // z < 3 flips with g whatever the input's own g is; duplicates of a non-protected key count once.
    const rows = Float64Array.from([0, 0, 0, 2, 1, 1, 1, 1, 3, 0, 1, 4, 1, 0, 0]);
    const r = discriminationRate(
      createDataset({ schema: schema3, x: [0, 0, 0], y: [0] }).schema,
      model,
      rows,
      'all-combinations',
    );
    expect(r).toEqual({ tested: 4, discriminatory: 2, rate: 0.5 });
  });
});

describe('retraining with discovered discriminatory instances', () => {
  const training = plantedDirect(4000, 3, 1);
  const model = fitLogisticRegression(training);
  const discovery = discover(training, model, 3000, 5);
  const fit = (ds: Dataset) => fitLogisticRegression(ds);

  it('logistic regression on planted direct discrimination: the discrimination rate falls', async () => {
    const r = await retrainWithDiscrimination(
      { fit, training, discovery, model },
      { shareOf: 'training', share: 0.05, freshSamples: 3000, seed: 2 },
    );
    expect(r.added.instances).toBe(200);
    expect(r.added.rows).toBe(400);
    expect(r.augmented.n).toBe(4400);
    // Every instance and its variant carry one label.
    for (let i = training.n; i < r.augmented.n; i += 2) expect(r.augmented.y[i]).toBe(r.augmented.y[i + 1]);
    expect(r.before.retested.rate).toBe(1);
    const { before, after } = r;
    console.info(
      `retraining (LR, 5 % of |train|): discriminatory share of fresh inputs ${before.fresh.rate.toFixed(3)} -> ${after.fresh.rate.toFixed(3)}, ` +
        `of the discovered samples ${before.retested.rate.toFixed(3)} -> ${after.retested.rate.toFixed(3)}, ` +
        `parity gap ${before.statisticalParity!.toFixed(3)} -> ${after.statisticalParity!.toFixed(3)}, accuracy ${before.accuracy.toFixed(3)} -> ${after.accuracy.toFixed(3)}`,
    );
    expect(after.fresh.rate).toBeLessThan(before.fresh.rate * 0.85);
    expect(after.retested.rate).toBeLessThan(0.9);
    expect(after.statisticalParity!).toBeLessThan(before.statisticalParity!);
    expect(after.fresh.tested).toBe(before.fresh.tested);
  });

  it('share of the discovered samples (ADF, LIMI), seeded selection', async () => {
    const run = () =>
      retrainWithDiscrimination({ fit, training, discovery, model }, { freshSamples: 200, seed: 9 });
    const [a, b] = [await run(), await run()];
    const distinct = new Set(discovery.findings.pairs.map((p) => p.sample.join(','))).size;
    expect(a.added.instances).toBe(Math.round(0.05 * distinct));
    expect(Array.from(a.augmented.x)).toEqual(Array.from(b.augmented.x));
  });

  it('labels by majority vote over the variants, or by the sample (hand model)', async () => {
    // Favourable unless g = r: of the sample (g = r) and its 5 variants, 4 are favourable.
    const hand: Classifier = {
      nFeatures: 3,
      nClasses: 2,
      predict: (x) => Int32Array.from({ length: x.length / 3 }, (_, i) => (x[i * 3] === 2 ? 0 : 1)),
    };
    const base = createDataset({ schema: schema3, x: [0, 0, 1, 2, 1, 2], y: [1, 0] });
    const pair = {
      caseId: 0,
      sample: [2, 1, 4],
      counterfactual: [0, 1, 4],
      sampleOutcome: 0,
      counterfactualOutcome: 1,
      changed: ['g'],
    };
    const found = { findings: { kind: 'individual' as const, pairs: [pair], byAttributeValue: [] } };
    const fits: Dataset[] = [];
    const record = (ds: Dataset) => {
      fits.push(ds);
      return hand;
    };
    const opts = { share: 1, freshSamples: 10 };
    const majority = await retrainWithDiscrimination(
      { fit: record, training: base, discovery: found, model: hand },
      opts,
    );
    expect(Array.from(majority.augmented.y.subarray(2))).toEqual([1, 1, 1, 1, 1, 1]);
    const sample = await retrainWithDiscrimination(
      { fit: record, training: base, discovery: found, model: hand },
      { ...opts, labelRule: 'sample' },
    );
    expect(Array.from(sample.augmented.y.subarray(2))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(fits).toHaveLength(2);
    expect(fits[0]!.n).toBe(8);
  });

  it('rejects a subgroup result, an empty result and bad options', async () => {
    const input = { fit, training, model };
    await expect(
      retrainWithDiscrimination({ ...input, discovery: { findings: { kind: 'subgroup', subgroups: [] } } }),
    ).rejects.toThrow(OptionsError);
    await expect(
      retrainWithDiscrimination({
        ...input,
        discovery: { findings: { kind: 'individual', pairs: [], byAttributeValue: [] } },
      }),
    ).rejects.toThrow(DataError);
    await expect(retrainWithDiscrimination({ ...input, discovery }, { share: 2 })).rejects.toThrow(
      OptionsError,
    );
  });
});
