import { type Classifier, createDataset, defineSchema, Rng } from '@fb/core';
import { nullWorld, rejectionRate } from '@fb/testkit/calibration';
import { describe, expect, it } from 'vitest';
import { exhaustiveCounterfactual, randomFinder, valueDisparity } from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'group', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
    { name: 'edu', kind: 'ordinal', protected: false, min: 0, max: 4, step: 1 },
    { name: 'job', kind: 'categorical', protected: false, categories: ['x', 'y', 'z'] },
  ],
  outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 },
});

/**
 * n rows; sex depends on edu (P(m) rises with edu), group uniform; labels ~ Bernoulli(p(x)) with
 * p from `logit` of the row.
 */
function sample(n: number, seed: number, logit: (row: number[]) => number) {
  const rng = Rng.create(seed);
  const x = new Float64Array(n * 4);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const edu = Math.floor(rng.next() * 5);
    const sex = rng.next() < 0.2 + 0.15 * edu ? 1 : 0;
    const row = [sex, Math.floor(rng.next() * 3), edu, Math.floor(rng.next() * 3)];
    x.set(row, i * 4);
    y[i] = rng.next() < 1 / (1 + Math.exp(-logit(row))) ? 1 : 0;
  }
  return createDataset({ schema, x, y });
}

const base = (r: number[]) => 0.6 * (r[2]! - 2) + (r[3] === 1 ? 0.5 : 0);

/** The true probability as the model: its residuals on data without bias are pure noise. */
const truthModel = (logit: (r: number[]) => number): Classifier => ({
  nFeatures: 4,
  nClasses: 2,
  predictProba: (x) => {
    const out = new Float64Array((x.length / 4) * 2);
    for (let i = 0; i < x.length / 4; i++) {
      const p = 1 / (1 + Math.exp(-logit(Array.from(x.subarray(4 * i, 4 * i + 4)))));
      out[2 * i] = 1 - p;
      out[2 * i + 1] = p;
    }
    return out;
  },
  predict: (x) =>
    Int32Array.from({ length: x.length / 4 }, (_, i) =>
      logit(Array.from(x.subarray(4 * i, 4 * i + 4))) >= 0 ? 1 : 0,
    ),
});

describe('exhaustive-counterfactual', () => {
  it('finds exactly the rows whose decision changes with a protected value (brute force)', async () => {
    const data = sample(300, 1, base);
    // Discriminates women with edu >= 3 only.
    const model: Classifier = {
      nFeatures: 4,
      nClasses: 2,
      predict: (x) =>
        Int32Array.from({ length: x.length / 4 }, (_, i) => (x[4 * i]! === 0 && x[4 * i + 2]! >= 3 ? 0 : 1)),
    };
    const result = await exhaustiveCounterfactual.run({ dataset: data, model }, {}, { seed: 1 });
    // A row is discriminatory when edu >= 3 (its sex = f variant differs from its sex = m variant);
    // tested samples are distinct non-protected values (edu, job): 5 x 3 at most.
    const keys = new Set<string>();
    const disc = new Set<string>();
    for (let i = 0; i < data.n; i++) {
      const k = `${data.x[4 * i + 2]},${data.x[4 * i + 3]}`;
      keys.add(k);
      if (data.x[4 * i + 2]! >= 3) disc.add(k);
    }
    expect(result.metrics.tsn).toBe(keys.size);
    expect(result.metrics.dsn).toBe(disc.size);
  });
});

describe('value-disparity', () => {
  it('ranks the planted value first', async () => {
    const planted = (r: number[]) => base(r) + (r[1] === 2 && r[3] === 0 ? -2 : 0);
    const data = sample(3000, 2, planted);
    const result = await valueDisparity.run({ dataset: data, model: truthModel(base) }, {}, { seed: 1 });
    const top = result.findings.kind === 'subgroup' ? result.findings.subgroups[0]! : null;
    expect(top?.conditions).toEqual([
      { attribute: 'group', values: [2] },
      { attribute: 'job', values: [0] },
    ]);
    expect(top!.pValue!).toBeLessThan(1e-6);
    expect(top!.direction).toBe('lower');
  });

  it('keeps its family-wise level on null data where the protected attributes depend on the others', async () => {
    // 200 null worlds: the model is the true probability, so every residual is noise. Bonferroni is
    // conservative: the rejection rate of the top finding at 0.05 must not lie above the band of a
    // level-0.05 test.
    let rejections = 0;
    const runs = 200;
    for (let s = 0; s < runs; s++) {
      const { dataset, model } = nullWorld(`value-disparity-test-${s}`, { n: 600 });
      const result = await valueDisparity.run({ dataset, model }, {}, { seed: s });
      const top = result.findings.kind === 'subgroup' ? result.findings.subgroups[0] : undefined;
      if (top && top.pValue! <= 0.05) rejections++;
    }
    expect(rejectionRate(rejections, runs, 0.05).aboveBand).toBe(false);
  }, 120_000);
});

describe('random-finder', () => {
  it('ignores labels and model: the same subgroups whatever the labels, from the seed', async () => {
    const a = sample(500, 3, base);
    const b = createDataset({ schema, x: a.x, y: Int32Array.from(a.y, (v) => 1 - v) });
    const ra = await randomFinder.run({ dataset: a }, {}, { seed: 7 });
    const rb = await randomFinder.run({ dataset: b }, {}, { seed: 7 });
    const rc = await randomFinder.run({ dataset: a }, {}, { seed: 8 });
    const conds = (r: typeof ra) =>
      r.findings.kind === 'subgroup' ? r.findings.subgroups.map((s) => s.conditions) : [];
    expect(conds(ra)).toEqual(conds(rb));
    expect(conds(ra)).not.toEqual(conds(rc));
    expect(conds(ra)).toHaveLength(5);
    for (const c of conds(ra))
      expect(schema.attributes.find((x) => x.name === c[0]!.attribute)!.protected).toBe(true);
  });
});
