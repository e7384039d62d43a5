import {
  type Classifier,
  createDataset,
  createRng,
  defineSchema,
  describeCondition,
  ModelError,
  memberMask,
  OptionsError,
} from '@fb/core';
import { describe, expect, it } from 'vitest';
import { minSupportRows, recodeDataset, sliceline, spreadBins } from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
    { name: 'region', kind: 'categorical', protected: false, categories: ['n', 's', 'e'] },
    { name: 'income', kind: 'continuous', protected: false, min: 0, max: 100 },
  ],
  outcome: { name: 'loan', labels: ['no', 'yes'], favorable: 1 },
});

/** Predicts "yes" when income >= 50. */
const threshold: Classifier = {
  nFeatures: 3,
  nClasses: 2,
  predict: (x) => Int32Array.from({ length: x.length / 3 }, (_, i) => (x[3 * i + 2]! >= 50 ? 1 : 0)),
};

/**
 * 1,200 rows. Labels follow the threshold rule except that women in region "s" are labelled "no"
 * with probability 0.8 whatever their income, so the model's false positives concentrate there.
 */
function data(seed = 'detector') {
  const rng = createRng(seed);
  const n = 1200;
  const x = new Float64Array(3 * n);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const sex = rng.int(0, 1);
    const region = rng.int(0, 2);
    const income = Math.round(rng.uniform(0, 100));
    x.set([sex, region, income], 3 * i);
    y[i] = sex === 1 && region === 1 ? (rng.bernoulli(0.8) ? 0 : 1) : income >= 50 ? 1 : 0;
  }
  return createDataset({ schema, x, y });
}

describe('sliceline detector', () => {
  it('finds the planted false-positive slice, with statistics recounted over its members', async () => {
    const dataset = data();
    const result = await sliceline.run({ dataset, model: threshold }, { errors: ['false-positive'], k: 3 });
    if (result.findings.kind !== 'subgroup') throw new Error('expected subgroups');
    const top = result.findings.subgroups[0]!;
    // The slice must pin sex = f and region = s (it may add an income bin above 50).
    const byAttr = Object.fromEntries(top.conditions.map((c) => [c.attribute, c]));
    expect(byAttr.sex).toEqual({ attribute: 'sex', values: [1] });
    expect(byAttr.region).toEqual({ attribute: 'region', values: [1] });
    expect(top.direction).toBe('higher');

    const predicted = threshold.predict(dataset.x);
    let fpAll = 0;
    for (let i = 0; i < dataset.n; i++) fpAll += predicted[i] === 1 && dataset.y[i] === 0 ? 1 : 0;
    for (const s of result.findings.subgroups) {
      const mask = memberMask(dataset, s.conditions);
      let size = 0;
      let fp = 0;
      for (let i = 0; i < dataset.n; i++) {
        if (!mask[i]) continue;
        size++;
        fp += predicted[i] === 1 && dataset.y[i] === 0 ? 1 : 0;
      }
      const eAvg = fpAll / dataset.n;
      expect(s.size).toBe(size);
      expect(s.details.totalError).toBe(fp);
      expect(s.effect).toBeCloseTo(fp / size - eAvg, 12);
      expect(s.score).toBeCloseTo(0.95 * (fp / size / eAvg - 1) - 0.05 * (dataset.n / size - 1), 12);
    }
  });

  it('scans the seed variant (FP and FN) by default, each error type with its own top-k', async () => {
    const result = await sliceline.run({ dataset: data(), model: threshold }, {});
    if (result.findings.kind !== 'subgroup') throw new Error('expected subgroups');
    const types = result.findings.subgroups.map((s) => s.details.errorType);
    expect(types.filter((t) => t === 'false-positive').length).toBeLessThanOrEqual(5);
    expect(types.filter((t) => t === 'false-negative').length).toBeLessThanOrEqual(5);
    const scores = result.findings.subgroups.map((s) => s.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const s of result.findings.subgroups) {
      expect(s.direction).toBe(s.details.errorType === 'false-positive' ? 'higher' : 'lower');
    }
  });

  it('scans a caller-supplied error vector without a model', async () => {
    const dataset = data('custom');
    // Errors only on men with income below 20 (20 % of men).
    const errorVector = Array.from({ length: dataset.n }, (_, i) =>
      dataset.x[3 * i] === 0 && dataset.x[3 * i + 2]! < 20 ? 2.5 : 0,
    );
    const result = await sliceline.run({ dataset }, { errors: ['custom'], errorVector, k: 1, alpha: 0.99 });
    if (result.findings.kind !== 'subgroup') throw new Error('expected subgroups');
    const top = result.findings.subgroups[0]!;
    expect(top.details.errorType).toBe('custom');
    expect(top.details.maxError).toBe(2.5);
    const mask = memberMask(dataset, top.conditions);
    let total = 0;
    for (let i = 0; i < dataset.n; i++) if (mask[i]) total += errorVector[i]!;
    expect(top.details.totalError).toBeCloseTo(total, 9);
    // Every member errs: the slice is inside the planted region.
    expect(top.details.averageError).toBe(2.5);
  });

  it('rejects inconsistent options and a missing model with typed errors', async () => {
    const dataset = data();
    await expect(sliceline.run({ dataset }, {})).rejects.toMatchObject({ code: 'MODEL_MISSING' });
    await expect(sliceline.run({ dataset }, {})).rejects.toBeInstanceOf(ModelError);
    await expect(sliceline.run({ dataset }, { errors: ['custom'] })).rejects.toBeInstanceOf(OptionsError);
    await expect(
      sliceline.run({ dataset }, { errors: ['custom'], errorVector: [1, 2, 3] }),
    ).rejects.toMatchObject({ code: 'OPTIONS_INVALID', details: { option: '/errorVector' } });
    await expect(
      sliceline.run({ dataset, model: threshold }, { errorVector: new Array(dataset.n).fill(1) }),
    ).rejects.toMatchObject({ code: 'OPTIONS_INVALID', details: { option: '/errors' } });
    await expect(
      sliceline.run(
        { dataset, model: threshold },
        { errorVector: new Array(dataset.n).fill(-1), errors: ['custom'] },
      ),
    ).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
    await expect(sliceline.run({ dataset, model: threshold }, { k: 700 })).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
      details: { option: '/k' },
    });
  });

  it('reads minSupport below 1 as a fraction of the rows', () => {
    expect(minSupportRows(0.05, 1000)).toBe(50);
    expect(minSupportRows(0.051, 1000)).toBe(51);
    expect(minSupportRows(10, 1000)).toBe(10);
  });
});

describe('recodeDataset', () => {
  it('bins a continuous attribute into intervals covering exactly their rows', () => {
    const dataset = data('recode');
    const table = recodeDataset(dataset, { maxValues: 20, bins: 4 });
    const income = table.attributes[2]!;
    expect(income.binned).toBe(true);
    expect(table.attributes[1]!.binned).toBe(false);
    expect(income.arity).toBe(4);
    for (let code = 0; code < income.arity; code++) {
      const mask = memberMask(dataset, [income.condition(code)]);
      for (let i = 0; i < dataset.n; i++) expect(mask[i] === 1).toBe(table.codes[i * 3 + 2] === code);
    }
    // Equal-height bins: each holds about a quarter of the rows.
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < dataset.n; i++) counts[table.codes[i * 3 + 2]!]!++;
    for (const c of counts) expect(Math.abs(c - dataset.n / 4)).toBeLessThan(40);
  });
});

describe('binning of many-valued attributes', () => {
  it('spreadBins gives a dominant value its own bin and spreads the others (hand-computed)', () => {
    // 100 rows, 90 on the first value. Shares: 100/5, then 10/4, 7/3 (a third value would overshoot
    // it by more than two values fall short), 5/2, 2/1.
    expect(Array.from(spreadBins([90, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 5))).toEqual([
      0, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4,
    ]);
    // Equal counts: 41 values into 10 bins of 4 or 5 values, in order.
    const uniform = Array.from(spreadBins(new Array(41).fill(1), 10));
    const sizes = Array.from({ length: 10 }, (_, b) => uniform.filter((v) => v === b).length);
    expect(sizes.every((c) => c === 4 || c === 5)).toBe(true);
    expect(uniform).toEqual([...uniform].sort((a, b) => a - b));
    // Fewer values than bins: one bin per value.
    expect(Array.from(spreadBins([5, 1, 7], 10))).toEqual([0, 1, 2]);
  });

  // 41 countries (one holding 90 % of the rows) and a 41-valued numeric column that is 0 in 90 % of the rows.
  const wide = defineSchema({
    attributes: [
      { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
      {
        name: 'country',
        kind: 'categorical',
        protected: false,
        categories: Array.from({ length: 41 }, (_, c) => `c${c}`),
      },
      { name: 'gain', kind: 'ordinal', protected: false, min: 0, max: 40, step: 1 },
    ],
    outcome: { name: 'loan', labels: ['no', 'yes'], favorable: 1 },
  });
  const rng = createRng('wide');
  const n = 4100;
  const x = new Float64Array(3 * n);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const rare = i % 10 === 0;
    const r = i / 10;
    x.set([rng.int(0, 1), rare ? 1 + (r % 40) : 0, rare ? 1 + ((r * 7) % 40) : 0], 3 * i);
    y[i] = rng.int(0, 1);
  }
  const dataset = createDataset({ schema: wide, x, y });

  it('keeps one predicate per category, and bins a skewed 41-valued numeric column into up to `bins` bins', () => {
    const table = recodeDataset(dataset, { maxValues: 20, bins: 10 });
    const [, country, gain] = table.attributes;
    expect(country!.binned).toBe(false);
    expect(country!.arity).toBe(41);
    expect(gain!.binned).toBe(true);
    expect(gain!.distinctValues).toBe(41);
    // 0 alone (90 % of the rows), then nine bins over the 40 other values (410 rows, 10 or 11 per value).
    expect(gain!.arity).toBe(10);
    expect(gain!.bins[0]).toEqual({ min: 0, max: 0, rows: 3690, label: 'gain = 0' });
    // Each of the other bins is within one value's rows (10 or 11) of its share, 410 / 9.
    for (const b of gain!.bins.slice(1)) expect(Math.abs(b.rows - 410 / 9)).toBeLessThanOrEqual(11);
    for (let code = 0; code < gain!.arity; code++) {
      const mask = memberMask(dataset, [gain!.condition(code)]);
      let rows = 0;
      for (let i = 0; i < n; i++) {
        expect(mask[i] === 1).toBe(table.codes[i * 3 + 2] === code);
        rows += mask[i]!;
      }
      expect(gain!.bins[code]!.rows).toBe(rows);
    }
  });

  it('lists every binned attribute and its bins, in the data labels, in extras.binning', async () => {
    const result = await sliceline.run(
      { dataset, model: threshold },
      { errors: ['misclassification'], k: 2 },
    );
    const binning = result.extras.binning as {
      attribute: string;
      distinctValues: number;
      bins: { label: string; min: number; max: number; rows: number }[];
    }[];
    expect(binning.map((b) => b.attribute)).toEqual(['gain']);
    const [gain] = binning;
    expect(gain!.distinctValues).toBe(41);
    expect(gain!.bins).toHaveLength(10);
    for (const b of gain!.bins) {
      expect(b.label).toBe(
        describeCondition(wide, { attribute: 'gain', min: b.min, max: b.max, maxInclusive: true }),
      );
    }
    expect(gain!.bins[1]!.label).toMatch(/^1 <= gain <= \d+$/);
    expect(result.extras.attributes).toContainEqual({
      attribute: 'country',
      codes: 41,
      binned: false,
      distinctValues: 41,
    });
  });
});
