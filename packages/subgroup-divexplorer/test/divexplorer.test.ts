import { type Classifier, createDataset, createRng, defineSchema, memberMask, RunController } from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  divexplorer,
  fpGrowth,
  globalShapley,
  itemize,
  itemShapley,
  PatternIndex,
  rowStatistics,
} from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
    { name: 'a', kind: 'categorical', protected: false, categories: ['a0', 'a1', 'a2'] },
    { name: 'b', kind: 'categorical', protected: false, categories: ['b0', 'b1', 'b2', 'b3'] },
    { name: 'income', kind: 'continuous', protected: false, min: 0, max: 100 },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

/** Approves incomes of 50 and above. */
const model: Classifier = {
  nFeatures: 4,
  nClasses: 2,
  predict: (x) => Int32Array.from({ length: x.length / 4 }, (_, i) => (x[4 * i + 3]! >= 50 ? 1 : 0)),
  predictProba: (x) =>
    Float64Array.from({ length: x.length / 2 }, (_, k) => {
      const p = 1 / (1 + Math.exp(-(x[4 * (k >> 1) + 3]! - 50) / 10));
      return k % 2 ? p : 1 - p;
    }),
};

/** Labels follow the model with 5 % noise, except for a = a1 ∧ b = b2, where 60 % of decisions are wrong. */
function data(n = 3000, seed = 'divexplorer') {
  const rng = createRng(seed);
  const x = new Float64Array(4 * n);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    x.set([rng.int(0, 1), rng.int(0, 2), rng.int(0, 3), Math.round(rng.uniform(0, 100))], 4 * i);
    const decision = x[4 * i + 3]! >= 50 ? 1 : 0;
    const planted = x[4 * i + 1] === 1 && x[4 * i + 2] === 2;
    const flip = planted ? 0.6 : 0.05;
    y[i] = rng.bernoulli(flip) ? 1 - decision : decision;
  }
  return createDataset({ schema, x, y });
}

describe('divexplorer', () => {
  it('ranks the planted high-error pattern first, with rates recounted over its members', async () => {
    const dataset = data();
    const result = await divexplorer.run(
      { dataset, model },
      { metrics: ['error', 'fpr'], k: 3, minSupport: 0.02 },
    );
    if (result.findings.kind !== 'subgroup') throw new Error('expected subgroups');
    const top = result.findings.subgroups.find((s) => s.details.metric === 'error')!;
    // The planted slice, possibly narrowed by a further item.
    expect(top.conditions).toContainEqual({ attribute: 'a', values: [1] });
    expect(top.conditions).toContainEqual({ attribute: 'b', values: [2] });
    const pred = model.predict(dataset.x);
    const rate = (mask: Uint8Array | null, metric: unknown) => {
      let hits = 0;
      let rows = 0;
      for (let i = 0; i < dataset.n; i++) {
        if (mask && !mask[i]) continue;
        if (metric === 'fpr' && dataset.y[i] === 1) continue;
        rows++;
        hits += pred[i] !== dataset.y[i] ? 1 : 0;
      }
      return hits / rows;
    };
    for (const s of result.findings.subgroups) {
      const mask = memberMask(dataset, s.conditions);
      expect(s.size).toBe(mask.reduce((acc, v) => acc + v, 0));
      expect(s.details.rate).toBeCloseTo(rate(mask, s.details.metric), 12);
      expect(s.effect).toBeCloseTo(rate(mask, s.details.metric) - rate(null, s.details.metric), 12);
      // The log p-value beside the p-value, which is positive at these t-values.
      expect(s.details.logPValue as number).toBeCloseTo(Math.log(s.pValue!), 9);
    }
    // Both items push the FPR up.
    expect(top.details['shapley:a']).toBeGreaterThan(0);
    expect(top.details['shapley:b']).toBeGreaterThan(0);
  });

  it("reports Shapley values that sum to each pattern's divergence", async () => {
    const dataset = data(2000, 'shapley');
    const result = await divexplorer.run(
      { dataset, model },
      { metrics: ['fpr', 'fnr', 'error', 'accuracy', 'positive-rate', 'score'], k: 20, minSupport: 0.01 },
    );
    if (result.findings.kind !== 'subgroup') throw new Error('expected subgroups');
    expect(result.findings.subgroups.some((s) => (s.details.length as number) >= 3)).toBe(true);
    for (const s of result.findings.subgroups) {
      const sum = Object.entries(s.details)
        .filter(([key]) => key.startsWith('shapley:'))
        .reduce((acc, [, v]) => acc + (v as number), 0);
      expect(sum).toBeCloseTo(s.details.divergence as number, 12);
    }
  });

  it('sums item Shapley values to the divergence for every frequent pattern', async () => {
    const dataset = data(1500, 'all-patterns');
    const table = itemize(dataset, { maxValues: 20, bins: 4 });
    const values = Float64Array.from({ length: dataset.n }, (_, i) => dataset.y[i]!);
    const stats = rowStatistics([{ kind: 'boolean', values }], dataset.n);
    const res = (await fpGrowth(
      table.transactions,
      table.m,
      table.nItems,
      stats,
      2,
      15,
      10,
      new RunController(),
    ))!;
    const overall = values.reduce((a, b) => a + b, 0) / dataset.n;
    const delta = (p: number) => res.stats[2 * p]! / res.support[p]! - overall;
    const index = new PatternIndex(res);
    expect(res.count).toBeGreaterThan(100);
    for (let p = 0; p < res.count; p++) {
      const phi = itemShapley(index, p, delta);
      expect(phi.reduce((a, b) => a + b, 0)).toBeCloseTo(delta(p), 12);
    }
  });

  it('computes the global Shapley value by its definition', async () => {
    const dataset = data(1500, 'global');
    const table = itemize(dataset, { maxValues: 20, bins: 3 });
    const values = Float64Array.from({ length: dataset.n }, (_, i) => dataset.y[i]!);
    const stats = rowStatistics([{ kind: 'boolean', values }], dataset.n);
    const res = (await fpGrowth(
      table.transactions,
      table.m,
      table.nItems,
      stats,
      2,
      30,
      10,
      new RunController(),
    ))!;
    const overall = values.reduce((a, b) => a + b, 0) / dataset.n;
    const delta = (p: number) => res.stats[2 * p]! / res.support[p]! - overall;
    const index = new PatternIndex(res);
    const got = globalShapley(index, delta, table.attributeOf, table.nItems);

    // Direct evaluation: for item i of attribute a, over J ∈ {∅} ∪ patterns without attribute a.
    const frequentItems = new Map<number, number>();
    for (let p = 0; p < res.count; p++) {
      const items = index.items(p);
      if (items.length === 1) {
        const a = table.attributeOf[items[0]!]!;
        frequentItems.set(a, (frequentItems.get(a) ?? 0) + 1);
      }
    }
    const A = frequentItems.size;
    const fact = (k: number): number => (k <= 1 ? 1 : k * fact(k - 1));
    for (let i = 0; i < table.nItems; i++) {
      if (index.find([i]) === undefined) {
        expect(Number.isNaN(got[i]!)).toBe(true);
        continue;
      }
      const a = table.attributeOf[i]!;
      let want = 0;
      for (let q = -1; q < res.count; q++) {
        const J = q < 0 ? [] : Array.from(index.items(q));
        if (J.some((it) => table.attributeOf[it] === a)) continue;
        const K = index.find([...J, i].sort((x, y) => x - y));
        if (K === undefined) continue;
        const B = J.map((it) => table.attributeOf[it]!);
        const prod = [...B, a].reduce((acc, b) => acc * frequentItems.get(b)!, 1);
        const w = (fact(B.length) * fact(A - B.length - 1)) / (fact(A) * prod);
        want += w * (delta(K) - (q < 0 ? 0 : delta(q)));
      }
      expect(got[i]).toBeCloseTo(want, 12);
    }
  });

  it('prunes a pattern whose extra item adds nothing, unless pruning is off', async () => {
    // "copy" duplicates attribute a: {a = v, copy = v} has exactly the rows (and divergence) of {a = v}.
    const dupSchema = defineSchema({
      attributes: [
        ...schema.attributes,
        { name: 'copy', kind: 'categorical', protected: false, categories: ['a0', 'a1', 'a2'] },
      ],
      outcome: schema.outcome,
    });
    const base = data(2000, 'redundant');
    const x = new Float64Array(5 * base.n);
    for (let i = 0; i < base.n; i++) {
      x.set(base.x.subarray(4 * i, 4 * i + 4), 5 * i);
      x[5 * i + 4] = base.x[4 * i + 1]!;
    }
    const dataset = createDataset({ schema: dupSchema, x, y: base.y });
    const wide: Classifier = {
      ...model,
      nFeatures: 5,
      predict: (rows) => model.predict(rows.filter((_, k) => k % 5 !== 4)),
    };
    const hasBoth = (r: Awaited<ReturnType<typeof divexplorer.run>>) =>
      r.findings.kind === 'subgroup' &&
      r.findings.subgroups.some(
        (s) =>
          s.conditions.some((c) => c.attribute === 'a') && s.conditions.some((c) => c.attribute === 'copy'),
      );
    const pruned = await divexplorer.run(
      { dataset, model: wide },
      { metrics: ['fpr'], k: 50, minSupport: 0.02 },
    );
    const kept = await divexplorer.run(
      { dataset, model: wide },
      { metrics: ['fpr'], k: 50, minSupport: 0.02, redundancyThreshold: null },
    );
    expect(hasBoth(pruned)).toBe(false);
    expect(hasBoth(kept)).toBe(true);
  });

  it('scans a custom quantitative outcome without a model, and checks the vector', async () => {
    const dataset = data(1000, 'custom');
    const outcomeVector = Array.from({ length: dataset.n }, (_, i) =>
      dataset.x[4 * i] === 1 ? 2 + (i % 3) : i % 7 === 0 ? null : i % 3,
    );
    const result = await divexplorer.run(
      { dataset },
      { metrics: ['custom'], outcomeVector, outcomeKind: 'quantitative', k: 1, sortBy: 'positive' },
    );
    if (result.findings.kind !== 'subgroup') throw new Error('expected subgroups');
    expect(result.findings.subgroups[0]!.conditions).toContainEqual({ attribute: 'sex', values: [1] });
    expect(result.findings.subgroups[0]!.effect).toBeGreaterThan(0.8);
    await expect(divexplorer.run({ dataset }, { metrics: ['custom'], outcomeVector })).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
    });
    await expect(divexplorer.run({ dataset }, { metrics: ['fpr'] })).rejects.toMatchObject({
      code: 'MODEL_MISSING',
    });
    await expect(divexplorer.run({ dataset }, { metrics: ['custom'] })).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
    });
  });

  it('several metrics in one run equal one run per metric', async () => {
    const dataset = data(2000, 'metrics');
    const metrics = ['fpr', 'positive-rate', 'label-rate', 'score'] as const;
    const options = { k: 4, minSupport: 0.05 };
    const together = await divexplorer.run({ dataset, model }, { ...options, metrics: [...metrics] });
    if (together.findings.kind !== 'subgroup') throw new Error('expected subgroups');
    const unranked = (subgroups: { rank: number }[]) => subgroups.map(({ rank: _, ...s }) => s);
    for (const metric of metrics) {
      const alone = await divexplorer.run({ dataset, model }, { ...options, metrics: [metric] });
      if (alone.findings.kind !== 'subgroup') throw new Error('expected subgroups');
      expect(alone.findings.subgroups).toHaveLength(4);
      // The same patterns, divergences, t-values and Shapley values, in the same order.
      expect(unranked(together.findings.subgroups.filter((s) => s.details.metric === metric))).toEqual(
        unranked(alone.findings.subgroups),
      );
      const overall = alone.extras.overallRate as Record<string, number>;
      const globalShapley = alone.extras.globalShapley as Record<string, unknown>;
      expect((together.extras.overallRate as Record<string, number>)[metric]).toBe(overall[metric]);
      expect((together.extras.globalShapley as Record<string, unknown>)[metric]).toEqual(
        globalShapley[metric],
      );
      // The patterns are mined once, whatever the metrics: the same frequent patterns.
      expect(together.extras.patterns).toBe(alone.extras.patterns);
    }
    expect(together.findings.subgroups).toHaveLength(4 * metrics.length);
  });
});
