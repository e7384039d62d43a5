import { defineSchema } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { expandCells } from '../src/plan/cells.js';
import { validateStudy } from '../src/plan/config.js';
import { phaseInputs, phaseOptions, sizedByRule } from '../src/plan/phases.js';
import { cellOptions } from '../src/run/run-cell.js';

/** Two protected attributes with 2 and 4 values: 8 combinations, so a tested input costs 8 queries. */
const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c', 'd'] },
    { name: 'x', kind: 'ordinal', protected: false, min: 0, max: 9, step: 1 },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});
const rule = { globalShare: 0.1 };

describe('the phase rule (hand-computed)', () => {
  const inputs = phaseInputs(schema, 100_000);

  it('a tested input costs itself and its 7 protected variants', () => {
    expect(inputs).toEqual({ maxQueries: 100_000, perTested: 8 });
  });

  it('global draws get a tenth of the budget: 10,000 queries / 8 = 1,250 inputs', () => {
    expect(phaseOptions('aequitas', {}, rule, inputs)).toEqual({ globalIterations: 1250 });
    expect(phaseOptions('kosei', {}, rule, inputs)).toEqual({ globalIterations: 1250 });
  });

  it("ADF's seeds each walk maxIter + 1 steps: 10,000 / (8 x 11) = 113 seeds", () => {
    expect(phaseOptions('adf', {}, rule, inputs)).toEqual({ maxGlobal: 113 });
    expect(phaseOptions('adf', { maxIter: 4 }, rule, inputs)).toEqual({ maxGlobal: 250, maxIter: 4 });
  });

  it('LIME-based seeds cost an explanation each, and the caps on the search are lifted', () => {
    // 10,000 / (5,000 + 8) = 1; with 500 samples per explanation, 10,000 / 508 = 19.
    expect(phaseOptions('sg', {}, rule, inputs)).toEqual({ seeds: 1, sampleLimit: 100_000 });
    expect(phaseOptions('expga', { limeSamples: 500 }, rule, inputs)).toEqual({
      globalSamples: 19,
      generations: 100_000,
      limeSamples: 500,
    });
  });

  it("LIMI's boundary samples are one query each", () => {
    expect(phaseOptions('limi', {}, rule, inputs)).toEqual({
      boundarySamples: 10_000,
      maxTested: 100_000,
      maxLatentVectors: 100_000,
    });
  });

  it("a study's explicit option wins over the rule; methods without phases keep their options", () => {
    expect(phaseOptions('aequitas', { globalIterations: 7 }, rule, inputs)).toEqual({ globalIterations: 7 });
    expect(sizedByRule('fliptest')).toBe(false);
    const own = { sampleSize: 50 };
    expect(phaseOptions('fliptest', own, rule, inputs)).toBe(own);
  });

  it('at least one starting point, however small the budget', () => {
    expect(phaseOptions('sg', {}, rule, phaseInputs(schema, 1000))).toMatchObject({ seeds: 1 });
  });
});

const study = (extra: Record<string, unknown> = {}) => ({
  name: 'x',
  seeds: [1],
  synthetic: { generator: 'planted-pair', factors: { bias: [-2] } },
  questions: ['data', 'model'],
  models: [{ kind: 'logistic-regression' }],
  methods: [
    { label: 'AEQUITAS', method: 'aequitas' },
    {
      label: 'CBS',
      method: 'cbs',
      byQuestion: { data: { scanType: 'sufficiency-predictions' } },
    },
    { label: 'GerryFair', method: 'gerryfair', unranked: 'returns a linear-threshold group' },
  ],
  budget: { maxQueries: 1000, maxSeconds: 10 },
  ...extra,
});

describe('a study with the phase rule, options per question and unranked methods', () => {
  it('refuses the rule without a query budget', () => {
    expect(() => validateStudy(study({ budget: { maxSeconds: 1 }, phases: rule }))).toThrow(
      /phases: the rule shares out budget.maxQueries/,
    );
  });

  it("refuses an option per question that the method's schema refuses", () => {
    const bad = study();
    (bad.methods[1] as { byQuestion: unknown }).byQuestion = { data: { scanType: 'no-such-scan' } };
    expect(() => validateStudy(bad)).toThrow(/byQuestion\/data/);
  });

  it("a cell runs its question's options, the rule applied to its data; unranked plans say why", async () => {
    const cells = await expandCells(validateStudy(study({ phases: rule })));
    const cbs = cells.filter((c) => c.plan.method === 'cbs');
    // CBS answers the data question only here (two reference models), both with its data scan.
    expect(cbs.map((c) => [c.question, c.plan.options['scanType']])).toEqual([
      ['data', 'sufficiency-predictions'],
      ['data', 'sufficiency-predictions'],
    ]);
    const aequitas = cells.find((c) => c.plan.method === 'aequitas')!;
    expect(aequitas.phases).toEqual(rule);
    expect(cellOptions(aequitas, schema)).toEqual({ globalIterations: 12 });
    expect(cells.find((c) => c.plan.method === 'gerryfair')!.plan.unranked).toBe(
      'returns a linear-threshold group',
    );
    // Without the rule, the same plan keeps its options and its cells their keys.
    const plain = await expandCells(validateStudy(study()));
    const a0 = plain.find((c) => c.plan.method === 'aequitas')!;
    expect(cellOptions(a0, schema)).toBe(a0.plan.options);
    expect(a0.key).not.toBe(aequitas.key);
  });
});

describe('the base scenario on more seeds, and its replication on fresh ones', () => {
  const design = (extra: Record<string, unknown> = {}) => ({
    name: 'x',
    seeds: [1, 2],
    synthetic: {
      generator: 'planted-pair',
      factors: { bias: [-2, -1] },
      oneAtATime: ['bias'],
      unbiased: { bias: 0 },
      baseSeeds: [1, 2, 3],
    },
    questions: ['model'],
    models: [{ kind: 'logistic-regression' }],
    methods: [{ label: 'AEQUITAS', method: 'aequitas' }],
    budget: { maxQueries: 1000 },
    replication: { seeds: [7, 8] },
    ...extra,
  });

  it('seeds per data set: the base and its shared twin on three, the other level on two, the replication on its own', async () => {
    const cells = await expandCells(validateStudy(design()));
    const seeds = new Map<string, number[]>();
    for (const c of cells) seeds.set(c.dataset.label, [...(seeds.get(c.dataset.label) ?? []), c.seed]);
    expect(Object.fromEntries(seeds)).toEqual({
      base: [1, 2, 3],
      'bias=-1': [1, 2],
      'base (replication)': [7, 8],
      'no bias': [1, 2, 3],
      'no bias (replication)': [7, 8],
    });
    const twin = cells.find((c) => c.dataset.label === 'no bias (replication)')!;
    expect(twin.chanceAgainst.map((d) => d.label)).toEqual(['base (replication)']);
  });

  it('refuses a replication on seeds the study uses, and one without a base scenario', () => {
    expect(() => validateStudy(design({ replication: { seeds: [3, 9] } }))).toThrow(
      /fresh seeds; 3 already used/,
    );
    const crossed = design();
    crossed.synthetic.oneAtATime = [];
    expect(() => validateStudy(crossed)).toThrow(/need a base scenario/);
  });
});

describe('questions per factor', () => {
  const design = (factorQuestions: unknown) => ({
    name: 'x',
    seeds: [1],
    synthetic: {
      generator: 'planted-pair',
      factors: { bias: [-2, -1], size: [{ rows: 200 }, { rows: 400 }] },
      oneAtATime: ['bias', 'size'],
      unbiased: { bias: 0 },
    },
    questions: ['data', 'model', 'model-output'],
    models: [{ kind: 'logistic-regression' }],
    methods: [{ label: 'BiasScan', method: 'mdss-bias-scan' }],
    budget: { maxQueries: 1000 },
    factorQuestions,
  });

  it('asks a factor level (and its own twin) only its listed questions; the base, its twin and unlisted factors every one', async () => {
    const cells = await expandCells(validateStudy(design({ size: ['data'] })));
    const asked = new Map<string, Set<string>>();
    for (const c of cells)
      asked.set(c.dataset.label, (asked.get(c.dataset.label) ?? new Set()).add(c.question));
    const all = ['data', 'model-output'];
    expect(Object.fromEntries([...asked].map(([k, v]) => [k, [...v].sort()]))).toEqual({
      base: all,
      'bias=-1': all,
      'rows=400': ['data'],
      'no bias': all,
      'no bias (rows=400)': ['data'],
    });
    // Without the field, every question everywhere.
    const every = await expandCells(validateStudy(design(null)));
    expect(
      [...new Set(every.filter((c) => c.dataset.label === 'rows=400').map((c) => c.question))].sort(),
    ).toEqual(all);
  });

  it('refuses a factor that is not one, and a question the study does not ask', () => {
    expect(() => validateStudy(design({ noise: ['data'] }))).toThrow(
      /factorQuestions: "noise" is not a factor/,
    );
    expect(() => validateStudy({ ...design({ size: ['model'] }), questions: ['data'] })).toThrow(
      /factorQuestions\/size: model not among the study's questions/,
    );
  });
});
