import {
  type Classifier,
  type Condition,
  countMembers,
  createDataset,
  createRng,
  type Dataset,
  type DiscoveryResult,
  defineSchema,
  memberMask,
  OptionsError,
  type SubgroupFinding,
} from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  everyVariantUnasked,
  exhaustiveCounterfactual,
  largestProtectedCells,
  sizeMatchedRandom,
  uniformDomain,
  wholePopulation,
} from '../src/index.js';

const subgroupsOf = (r: DiscoveryResult): SubgroupFinding[] =>
  r.findings.kind === 'subgroup' ? r.findings.subgroups : [];

/** sex (2) and race (3) protected; job (4) and edu (0..4) not. */
const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
    { name: 'job', kind: 'categorical', protected: false, categories: ['j0', 'j1', 'j2', 'j3'] },
    { name: 'edu', kind: 'ordinal', protected: false, min: 0, max: 4, step: 1 },
  ],
  outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 },
});

/** Rows with `counts[sex][race]` rows per cell, other values and labels drawn, in a shuffled order. */
function cellData(counts: number[][], seed: string): Dataset {
  const rng = createRng(seed);
  const rows: number[][] = [];
  for (const [sex, byRace] of counts.entries()) {
    for (const [race, c] of byRace.entries()) {
      for (let i = 0; i < c; i++) rows.push([sex, race, rng.int(0, 3), rng.int(0, 4)]);
    }
  }
  rng.shuffle(rows);
  return createDataset({
    schema,
    x: rows.flat(),
    y: rows.map((_, i) => i % 2),
  });
}

describe('largest-protected-cells', () => {
  it('reports the cells with the most rows, counted by hand, in order of size', async () => {
    // Sizes 40, 25, 12, 12, 7, 3: the two cells of 12 are ordered by their first row.
    const data = cellData(
      [
        [40, 7, 12],
        [25, 12, 3],
      ],
      'cells',
    );
    const first = (sex: number, race: number) => {
      for (let i = 0; i < data.n; i++) if (data.x[4 * i] === sex && data.x[4 * i + 1] === race) return i;
      return -1;
    };
    const tie =
      first(0, 2) < first(1, 1)
        ? [
            [0, 2],
            [1, 1],
          ]
        : [
            [1, 1],
            [0, 2],
          ];
    const expected = [
      [0, 0, 40],
      [1, 0, 25],
      [...tie[0]!, 12],
      [...tie[1]!, 12],
      [0, 1, 7],
    ];
    const result = await largestProtectedCells.run({ dataset: data }, {}, { seed: 1 });
    const found = subgroupsOf(result);
    expect(found.map((s) => s.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(
      found.map((s) => [...s.conditions.map((c) => ('values' in c ? c.values[0] : Number.NaN)), s.size]),
    ).toEqual(expected);
    for (const s of found) {
      expect(s.conditions.map((c) => c.attribute)).toEqual(['sex', 'race']);
      expect(countMembers(data, s.conditions)).toBe(s.size);
    }
    expect(result.metrics.queries).toBe(0);
  });

  it('reports every non-empty cell when asked for more than there are', async () => {
    const data = cellData(
      [
        [5, 0, 2],
        [1, 0, 9],
      ],
      'sparse',
    );
    const found = subgroupsOf(await largestProtectedCells.run({ dataset: data }, { top: 10 }, { seed: 1 }));
    expect(found.map((s) => s.size)).toEqual([9, 5, 2, 1]);
  });

  it('bins a continuous protected attribute into equal-height intervals', async () => {
    const ageSchema = defineSchema({
      attributes: [
        { name: 'age', kind: 'continuous', protected: true, min: 0, max: 100 },
        { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
      ],
      outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 },
    });
    // Ages 0..99, one row each; sex m for ages 0..29 and f above: with two bins, ages 0..49 and 50..99.
    const x = Array.from({ length: 100 }, (_, a) => [a, a < 30 ? 1 : 0]).flat();
    const data = createDataset({ schema: ageSchema, x, y: Array.from({ length: 100 }, (_, i) => i % 2) });
    const found = subgroupsOf(await largestProtectedCells.run({ dataset: data }, { bins: 2 }, { seed: 1 }));
    expect(found.map((s) => [s.conditions, s.size])).toEqual([
      [
        [
          { attribute: 'age', min: 50, max: 99, maxInclusive: true },
          { attribute: 'sex', values: [0] },
        ],
        50,
      ],
      [
        [
          { attribute: 'age', min: 0, max: 49, maxInclusive: true },
          { attribute: 'sex', values: [1] },
        ],
        30,
      ],
      [
        [
          { attribute: 'age', min: 0, max: 49, maxInclusive: true },
          { attribute: 'sex', values: [0] },
        ],
        20,
      ],
    ]);
  });

  it('stops at once on an already aborted signal', async () => {
    const abort = new AbortController();
    abort.abort();
    const data = cellData(
      [
        [3, 3, 3],
        [3, 3, 3],
      ],
      'abort',
    );
    for (const detector of [largestProtectedCells, wholePopulation]) {
      const result = await detector.run({ dataset: data }, {}, { seed: 1, signal: abort.signal });
      expect(result.run.aborted).toBe(true);
      expect(subgroupsOf(result)).toEqual([]);
    }
  });
});

describe('whole-population', () => {
  it('reports one finding, the empty conjunction, covering every row', async () => {
    const data = cellData(
      [
        [4, 5, 6],
        [7, 8, 9],
      ],
      'whole',
    );
    const result = await wholePopulation.run({ dataset: data }, {}, { seed: 1 });
    const found = subgroupsOf(result);
    expect(found).toHaveLength(1);
    expect(found[0]!.conditions).toEqual([]);
    expect(found[0]!.size).toBe(39);
    expect(found[0]!.members).toBeUndefined();
    expect(Array.from(memberMask(data, found[0]!.conditions))).toEqual(new Array(39).fill(1));
  });
});

describe('size-matched-random', () => {
  const data = cellData(
    [
      [60, 25, 15],
      [45, 35, 20],
    ],
    'sizes',
  );

  /** Every conjunction the detector can draw here: a protected value and up to two other values. */
  function everyConjunction(): Condition[][] {
    const value = (attribute: string, k: number) =>
      Array.from({ length: k }, (_, v): Condition => ({ attribute, values: [v] }));
    const protectedValues = [...value('sex', 2), ...value('race', 3)];
    const job = value('job', 4);
    const edu = value('edu', 5);
    const others: Condition[][] = [[], ...job.map((c) => [c]), ...edu.map((c) => [c])];
    for (const a of job) for (const b of edu) others.push([a, b]);
    return protectedValues.flatMap((p) => others.map((o) => [p, ...o]));
  }

  it('picks, per target, the closest of its draws, within 10% of targets that some conjunction has', async () => {
    const achievable = everyConjunction().map((c) => countMembers(data, c));
    // Targets: sizes some conjunction has, and two no conjunction has.
    const sizes = [achievable[0]!, achievable[7]!, achievable[40]!, achievable[77]!, 150, 1];
    const result = await sizeMatchedRandom.run({ dataset: data }, { sizes }, { seed: 3 });
    const found = subgroupsOf(result);
    const drawn = result.extras.drawnSizes as number[][];
    expect(found.map((s) => s.rank)).toEqual([1, 2, 3, 4, 5, 6]);
    found.forEach((s, k) => {
      const target = sizes[k]!;
      const gap = (v: number) => Math.abs(v - target);
      expect(s.details.target).toBe(target);
      expect(countMembers(data, s.conditions)).toBe(s.size);
      // The pick is the first of its draws closest to the target.
      const bestDrawn = Math.min(...drawn[k]!.map(gap));
      expect(gap(s.size)).toBe(bestDrawn);
      expect(s.size).toBe(drawn[k]!.find((v) => gap(v) === bestDrawn));
      // Brute force: the closest achievable size; the pick is within 10% of the target beyond it.
      const bestAchievable = Math.min(...achievable.map(gap));
      expect(gap(s.size)).toBeLessThanOrEqual(bestAchievable + 0.1 * target);
      expect(s.conditions[0]!.attribute).toMatch(/^(sex|race)$/);
      expect(s.conditions.length).toBeLessThanOrEqual(3);
    });
  });

  it('stops drawing for a target at its first exact match', async () => {
    const result = await sizeMatchedRandom.run({ dataset: data }, { sizes: [100, 200] }, { seed: 3 });
    const drawn = result.extras.drawnSizes as number[][];
    // sex = f has 100 rows, sex = m 100: an exact match is the last draw; 200 rows no conjunction has.
    expect(drawn[0]!.at(-1)).toBe(100);
    expect(drawn[0]!.slice(0, -1)).not.toContain(100);
    expect(drawn[1]).toHaveLength(200);
  });

  it('is reproducible from the seed, and blind to labels', async () => {
    const sizes = [30, 12, 70];
    const flipped = createDataset({ schema, x: data.x, y: Int32Array.from(data.y, (v) => 1 - v) });
    const conds = (r: DiscoveryResult) => subgroupsOf(r).map((s) => s.conditions);
    const a = await sizeMatchedRandom.run({ dataset: data }, { sizes }, { seed: 9 });
    const b = await sizeMatchedRandom.run({ dataset: flipped }, { sizes }, { seed: 9 });
    const c = await sizeMatchedRandom.run({ dataset: data }, { sizes }, { seed: 10 });
    expect(conds(a)).toEqual(conds(b));
    expect(a.extras).toEqual(b.extras);
    expect(a.extras).not.toEqual(c.extras);
  });

  it('draws a continuous attribute as a run of its bins', async () => {
    const hoursSchema = defineSchema({
      attributes: [
        { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
        { name: 'hours', kind: 'continuous', protected: false, min: 0, max: 80 },
      ],
      outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 },
    });
    const rng = createRng('hours');
    const x = Array.from({ length: 400 }, () => [rng.int(0, 1), rng.uniform(0, 80)]).flat();
    const hours = createDataset({ schema: hoursSchema, x, y: Array.from({ length: 400 }, (_, i) => i % 2) });
    const sizes = Array.from({ length: 20 }, (_, k) => 5 + 9 * k);
    const found = subgroupsOf(
      await sizeMatchedRandom.run({ dataset: hours }, { sizes, maxOthers: 1, bins: 8 }, { seed: 1 }),
    );
    const intervals = found.flatMap((s) => s.conditions).filter((c) => 'min' in c);
    expect(intervals.length).toBeGreaterThan(0);
    for (const s of found) expect(countMembers(hours, s.conditions)).toBe(s.size);
  });
});

/** d attributes: sex (2) and race (3) protected, `id` (0..n-1) not: every row is its own tested sample. */
const idSchema = (n: number) =>
  defineSchema({
    attributes: [
      { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
      { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
      { name: 'id', kind: 'ordinal', protected: false, min: 0, max: n - 1, step: 1 },
    ],
    outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 },
  });

function idData(n: number): Dataset {
  const rng = createRng('ids');
  const x = Array.from({ length: n }, (_, i) => [rng.int(0, 1), rng.int(0, 2), i]).flat();
  return createDataset({ schema: idSchema(n), x, y: Array.from({ length: n }, (_, i) => i % 2) });
}

/** A model that records the rows it is asked about (after the counting wrapper: distinct rows only). */
function recordingModel(d: number, decide: (row: Float64Array) => number) {
  const seen: number[][] = [];
  const model: Classifier = {
    nFeatures: d,
    nClasses: 2,
    predict: (x) =>
      Int32Array.from({ length: x.length / d }, (_, i) => {
        const row = x.subarray(i * d, (i + 1) * d);
        seen.push(Array.from(row));
        return decide(row);
      }),
  };
  return { model, seen };
}

describe('exhaustive-counterfactual, order', () => {
  /** The ids of the audited rows in the order the model first sees them. */
  async function checkedOrder(options: object, seed: number, maxTested?: number) {
    const data = idData(40);
    const { model, seen } = recordingModel(3, (r) => (r[0] === 1 ? 1 : 0));
    const result = await exhaustiveCounterfactual.run(
      { dataset: data, model },
      { batchSize: 7, ...options },
      { seed, ...(maxTested ? { budget: { maxTested } } : {}) },
    );
    return { ids: [...new Set(seen.map((r) => r[2]!))], result };
  }

  it('checks in data order by default', async () => {
    const { ids } = await checkedOrder({}, 1);
    expect(ids).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it("'random' checks every row once, in an order that is not the data's and comes from the seed", async () => {
    const a = await checkedOrder({ order: 'random' }, 1);
    const b = await checkedOrder({ order: 'random' }, 1);
    const c = await checkedOrder({ order: 'random' }, 2);
    expect([...a.ids].sort((u, v) => u - v)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(a.ids).not.toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(b.ids).toEqual(a.ids);
    expect(c.ids).not.toEqual(a.ids);
    expect(a.result.metrics.tsn).toBe(40);
    expect(a.result.metrics.dsn).toBe(40);
  });

  it("'random' under maxTested m checks the first m rows of the seed's permutation", async () => {
    const all = await checkedOrder({ order: 'random' }, 5);
    const some = await checkedOrder({ order: 'random' }, 5, 11);
    expect(some.ids).toEqual(all.ids.slice(0, 11));
    expect(some.result.metrics.tsn).toBe(11);
    expect(some.result.run.stopReason).toBe('tested-budget');
  });
});

describe('uniform-domain', () => {
  const mixed = defineSchema({
    attributes: [
      { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
      { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
      { name: 'edu', kind: 'ordinal', protected: false, min: 2, max: 8, step: 2 },
      { name: 'hours', kind: 'continuous', protected: false, min: 10, max: 50 },
      { name: 'job', kind: 'categorical', protected: false, categories: ['j0', 'j1', 'j2'] },
    ],
    outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 },
  });
  const rows = [
    [0, 0, 2, 20, 0],
    [1, 2, 8, 40, 2],
  ];
  const data = createDataset({ schema: mixed, x: rows.flat(), y: [0, 1] });

  it('draws inputs in the domain and stops at maxQueries, counted by the counting wrapper', async () => {
    const { model, seen } = recordingModel(5, (r) => (r[0] === 1 && r[3]! > 30 ? 1 : 0));
    const result = await uniformDomain.run(
      { dataset: data, model },
      { batchSize: 50 },
      { seed: 4, budget: { maxQueries: 3000 } },
    );
    expect(result.run.stopReason).toBe('query-budget');
    expect(result.metrics.distinctQueries).toBeLessThanOrEqual(3000);
    // The counting wrapper forwards each distinct row once: the model saw exactly the distinct queries.
    expect(seen.length).toBe(result.metrics.distinctQueries);
    expect(new Set(seen.map((r) => r.join())).size).toBe(seen.length);
    // Six protected variants per input: 3000 queries buy at most 500 inputs.
    expect(result.metrics.tsn).toBeLessThanOrEqual(500);
    expect(result.metrics.tsn).toBeGreaterThan(400);
    for (const r of seen) {
      expect([0, 1]).toContain(r[0]);
      expect([0, 1, 2]).toContain(r[1]);
      expect([2, 4, 6, 8]).toContain(r[2]);
      expect(r[3]).toBeGreaterThanOrEqual(10);
      expect(r[3]).toBeLessThanOrEqual(50);
      expect([0, 1, 2]).toContain(r[4]);
    }
    // Uniform, not the data's values: every edu and job value, and hours spread over the range.
    const inputs = seen.filter((_, i) => i % 6 === 0);
    for (const v of [2, 4, 6, 8]) expect(inputs.some((r) => r[2] === v)).toBe(true);
    const hours = inputs.map((r) => r[3]!);
    expect(Math.min(...hours)).toBeLessThan(12);
    expect(Math.max(...hours)).toBeGreaterThan(48);
    const mean = hours.reduce((a, b) => a + b, 0) / hours.length;
    expect(Math.abs(mean - 30)).toBeLessThan(2);
  });

  it('respects maxTested and the inputs cap, and is reproducible from the seed', async () => {
    const run = async (options: object, budget: object, seed = 4) => {
      const { model, seen } = recordingModel(5, () => 0);
      const result = await uniformDomain.run({ dataset: data, model }, options, { seed, budget });
      return { result, seen };
    };
    const tested = (await run({ batchSize: 64 }, { maxTested: 100 })).result;
    expect(tested.metrics.tsn).toBe(100);
    expect(tested.run.stopReason).toBe('tested-budget');
    const capped = await run({ inputs: 130, batchSize: 64 }, {});
    expect(capped.result.extras.inputsDrawn).toBe(130);
    expect(capped.result.run.stopReason).toBe('completed');
    expect((await run({ inputs: 130, batchSize: 64 }, {})).seen).toEqual(capped.seen);
    expect((await run({ inputs: 130, batchSize: 64 }, {}, 5)).seen).not.toEqual(capped.seen);
  });

  it('ends when every tested sample of a finite domain is checked, and refuses to run unbounded', async () => {
    const small = defineSchema({
      attributes: [
        { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
        { name: 'edu', kind: 'ordinal', protected: false, min: 0, max: 4, step: 1 },
        { name: 'job', kind: 'categorical', protected: false, categories: ['j0', 'j1', 'j2'] },
      ],
      outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 },
    });
    const tiny = createDataset({ schema: small, x: [0, 0, 0, 1, 4, 2], y: [0, 1] });
    const model = recordingModel(3, (r) => (r[0] === 1 && r[1]! >= 3 ? 1 : 0)).model;
    const result = await uniformDomain.run(
      { dataset: tiny, model },
      {},
      { seed: 1, budget: { maxSeconds: 30 } },
    );
    expect(result.run.stopReason).toBe('completed');
    expect(result.metrics.tsn).toBe(15);
    expect(result.metrics.dsn).toBe(6);
    expect(result.extras.domainExhausted).toBe(true);
    await expect(uniformDomain.run({ dataset: tiny, model }, {}, { seed: 1 })).rejects.toBeInstanceOf(
      OptionsError,
    );
  });
});

describe('every-variant-unasked', () => {
  const model: Classifier = {
    nFeatures: 4,
    nClasses: 2,
    predict: () => {
      throw new Error('the model must not be asked');
    },
  };

  /** The first row of each individual (non-protected values: columns 2 and 3), in data order. */
  function firstRows(data: Dataset): number[] {
    const seen = new Set<string>();
    const out: number[] = [];
    for (let i = 0; i < data.n; i++) {
      const key = `${data.x[4 * i + 2]},${data.x[4 * i + 3]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(i);
    }
    return out;
  }

  it('lists V − 1 pairs per individual, every other joint protected assignment, asking nothing', async () => {
    // 30 rows, V = 2 · 3 = 6, at most 4 · 5 = 20 individuals: several rows share theirs.
    const data = cellData(
      [
        [5, 5, 5],
        [5, 5, 5],
      ],
      'unasked',
    );
    const listed = firstRows(data);
    expect(listed.length).toBeLessThan(data.n);
    const m = listed.length;
    const result = await everyVariantUnasked.run({ dataset: data, model }, {}, { seed: 1 });
    const { pairs } = result.findings;
    expect(pairs).toHaveLength(m * 5);
    expect(result.metrics).toMatchObject({
      tsn: m,
      dsn: m,
      sur: 1,
      pairs: m * 5,
      queries: 0,
      distinctQueries: 0,
    });
    expect(result.extras).toMatchObject({ individualsListed: m, rowsScanned: data.n });
    expect(result.model).toBeNull();
    expect(result.run.stopReason).toBe('completed');
    listed.forEach((i, t) => {
      const row = Array.from(data.x.subarray(4 * i, 4 * i + 4));
      const own = pairs.slice(5 * t, 5 * t + 5);
      const combos = new Set(own.map((p) => `${p.counterfactual[0]},${p.counterfactual[1]}`));
      expect(combos.size).toBe(5);
      expect(combos.has(`${row[0]},${row[1]}`)).toBe(false);
      for (const p of own) {
        expect(p.sample).toEqual(row);
        expect(p.counterfactual.slice(2)).toEqual(row.slice(2));
        expect(p.sampleOutcome).toBe(data.y[i]);
        expect(p.counterfactualOutcome).toBe(1 - data.y[i]!);
        expect(p.changed).toEqual(['sex', 'race'].filter((_, k) => p.sample[k] !== p.counterfactual[k]));
      }
    });
    expect(pairs.map((p) => p.caseId)).toEqual(pairs.map((_, k) => k));
    // byAttributeValue against a count over the listed pairs, by the checker's definition.
    for (const c of result.findings.byAttributeValue) {
      const j = c.attribute === 'sex' ? 0 : 1;
      const touching = pairs.filter(
        (p) =>
          p.sample[j] !== p.counterfactual[j] && (p.sample[j] === c.value || p.counterfactual[j] === c.value),
      );
      expect(c.pairs).toBe(touching.length);
      expect(c.dsn).toBe(new Set(touching.map((p) => Math.floor(p.caseId / 5))).size);
    }
  });

  it('counts as the exhaustive check counts: the same TSN on the same rows, and the same inputs', async () => {
    const data = cellData(
      [
        [5, 5, 5],
        [5, 5, 5],
      ],
      'unasked',
    );
    const asking: Classifier = { nFeatures: 4, nClasses: 2, predict: (x) => new Int32Array(x.length / 4) };
    const unasked = await everyVariantUnasked.run({ dataset: data }, {}, { seed: 1 });
    const checked = await exhaustiveCounterfactual.run({ dataset: data, model: asking }, {}, { seed: 1 });
    expect(unasked.metrics.tsn).toBe(checked.metrics.tsn);
    // Every input of the unasked pairs is one the check asked about: each individual's V assignments.
    const inputs = new Set(unasked.findings.pairs.flatMap((p) => [p.sample.join(), p.counterfactual.join()]));
    expect(inputs.size).toBe(checked.metrics.distinctQueries);
  });

  it('keeps budget.maxPairs pairs and counts the rest; maxTested bounds the individuals listed', async () => {
    const data = cellData(
      [
        [5, 5, 5],
        [5, 5, 5],
      ],
      'unasked',
    );
    const m = firstRows(data).length;
    const kept = await everyVariantUnasked.run({ dataset: data }, {}, { seed: 1, budget: { maxPairs: 23 } });
    expect(kept.findings.pairs).toHaveLength(23);
    expect(kept.metrics.pairs).toBe(m * 5);
    expect(kept.budget.maxPairs).toBe(23);
    const rows = await everyVariantUnasked.run({ dataset: data }, {}, { seed: 1, budget: { maxTested: 7 } });
    expect(rows.metrics).toMatchObject({ tsn: 7, dsn: 7, pairs: 35 });
    expect(rows.findings.pairs).toHaveLength(35);
    // The seven are the first seven individuals in data order.
    expect(rows.findings.pairs.filter((_, k) => k % 5 === 0).map((p) => p.sample)).toEqual(
      firstRows(data)
        .slice(0, 7)
        .map((i) => Array.from(data.x.subarray(4 * i, 4 * i + 4))),
    );
    expect(rows.run.stopReason).toBe('tested-budget');
  });

  it('stops between steps on an abort, with the individuals listed so far', async () => {
    // A wide schema (edu continuous): nearly every row is an individual of its own; 3,000 rows, six steps.
    const wideSchema = defineSchema({
      attributes: [
        ...schema.attributes.slice(0, 3),
        { name: 'edu', kind: 'continuous', protected: false, min: 0, max: 4 },
      ],
      outcome: schema.outcome,
    });
    const rng = createRng('abort');
    const n = 3000;
    const x = Float64Array.from({ length: 4 * n }, (_, k) =>
      k % 4 === 0
        ? rng.int(0, 1)
        : k % 4 === 1
          ? rng.int(0, 2)
          : k % 4 === 2
            ? rng.int(0, 3)
            : rng.uniform(0, 4),
    );
    const data = createDataset({ schema: wideSchema, x, y: Int32Array.from({ length: n }, (_, i) => i & 1) });
    // An abort seen at the third look: after the first steps, whatever the machine's speed.
    let looks = 0;
    const signal = {
      get aborted() {
        return ++looks >= 3;
      },
    } as AbortSignal;
    const result = await everyVariantUnasked.run({ dataset: data }, {}, { seed: 1, signal });
    expect(result.run.aborted).toBe(true);
    expect(result.run.stopReason).toBe('aborted');
    const listed = result.metrics.tsn;
    expect(listed).toBeGreaterThan(0);
    expect(listed).toBeLessThan(n);
    expect(result.findings.pairs).toHaveLength(listed * 5);
    // Two steps of 512 rows before the third look (the first look comes before any row).
    expect(result.extras).toMatchObject({ individualsListed: listed, rowsScanned: 1024 });
  });

  it('refuses a continuous protected attribute with a typed error', async () => {
    const ageSchema = defineSchema({
      attributes: [
        { name: 'age', kind: 'continuous', protected: true, min: 0, max: 100 },
        { name: 'job', kind: 'categorical', protected: false, categories: ['j0', 'j1'] },
      ],
      outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 },
    });
    const data = createDataset({ schema: ageSchema, x: [20, 0, 30, 1], y: [0, 1] });
    await expect(everyVariantUnasked.run({ dataset: data }, {}, { seed: 1 })).rejects.toMatchObject({
      code: 'SCHEMA_BAD_DOMAIN',
      details: { attribute: 'age' },
    });
  });
});
