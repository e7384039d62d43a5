import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expandCells, scenarioGrid } from '../src/plan/cells.js';
import { loadStudy, validateStudy } from '../src/plan/config.js';
import { cleanTempDirs, crossedSynthetic, tempDir, tinyStudy } from './helpers.js';

afterEach(cleanTempDirs);

const valid = () => ({
  name: 'x',
  seeds: [1],
  synthetic: { generator: 'planted-pair', factors: { bias: [-2] } },
  models: [{ kind: 'logistic-regression' }],
  methods: [{ label: 'A', method: 'aequitas' }],
  budget: { maxSeconds: 1 },
});

/** The message of the error `validateStudy` throws for this study. */
function rejection(study: unknown): string {
  try {
    validateStudy(study, 'bad.yaml');
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the study was accepted');
}

describe('study config schema', () => {
  it('fills defaults of a minimal study', () => {
    const s = validateStudy(valid());
    expect(s).toMatchObject({ real: [], workers: null, cellTimeoutSeconds: 120, jaccardThreshold: 0.5 });
    expect(s.synthetic).toMatchObject({ base: {}, unbiased: null });
    expect(s.models[0]!.label).toBe('logistic-regression');
  });

  it.each([
    ['an unknown top-level field', { ...valid(), seed: [1] }, '/seed: unknown field'],
    [
      'an unknown field in a method',
      { ...valid(), methods: [{ label: 'A', method: 'aequitas', optons: {} }] },
      '/methods/0/optons: unknown field',
    ],
    ['a negative budget', { ...valid(), budget: { maxSeconds: -1 } }, '/budget/maxSeconds'],
    ['a missing required field', { ...valid(), seeds: undefined }, "must have required property 'seeds'"],
    ['an empty seed list', { ...valid(), seeds: [] }, '/seeds'],
    ['an unknown model kind', { ...valid(), models: [{ kind: 'svm' }] }, '/models/0/kind'],
    ['an unknown real data set', { ...valid(), real: ['iris'] }, '/real/0'],
    [
      'an unknown method id',
      { ...valid(), methods: [{ label: 'A', method: 'nope' }] },
      '/methods/0/method: unknown method "nope"',
    ],
    [
      'an invalid method option',
      { ...valid(), methods: [{ label: 'A', method: 'aequitas', options: { strategy: 'sideways' } }] },
      '/methods/0/options',
    ],
    [
      'a duplicate label',
      {
        ...valid(),
        methods: [
          { label: 'A', method: 'aequitas' },
          { label: 'A', method: 'aequitas' },
        ],
      },
      '/methods/1/label: duplicate label',
    ],
    [
      'an invalid generator option',
      { ...valid(), synthetic: { generator: 'planted-pair', factors: { bias: [-2, 99] } } },
      '/synthetic: scenario "bias=99"',
    ],
    [
      'an invalid varied option value',
      { ...valid(), methods: [{ label: 'A', method: 'aequitas', vary: { globalIterations: [10, -5] } }] },
      '/methods/0/options',
    ],
  ])('rejects %s, naming the field', (_, study, field) => {
    const message = rejection(study);
    expect(message).toContain('bad.yaml');
    expect(message).toContain(field);
  });

  it('reads JSON and YAML files and names the file in errors', () => {
    const dir = tempDir();
    const json = join(dir, 'a.json');
    writeFileSync(json, JSON.stringify(valid()));
    expect(loadStudy(json).name).toBe('x');
    const yaml = join(dir, 'b.yaml');
    writeFileSync(
      yaml,
      'name: y\nseeds: [1]\nmodels: [{ kind: logistic-regression }]\nmethods: [{ label: A, method: aequitas }]\nbudget: { maxTested: 0 }\n',
    );
    expect(() => loadStudy(yaml)).toThrow(/b\.yaml: .*\/budget\/maxTested/);
  });

  it('loads every shipped study', () => {
    for (const name of ['default', 'smoke', 'full']) expect(loadStudy(name).name).toBe(name);
  });
});

describe('cells', () => {
  it('expands data sets x seeds x questions x models x plans with one key each, stable across expansions', async () => {
    const study = tinyStudy({
      ...crossedSynthetic,
      methods: [
        { label: 'A', method: 'aequitas' },
        { label: 'S', method: 'mdss-bias-scan', vary: { numIters: [1, 2, 3] } },
      ],
    });
    const cells = await expandCells(study);
    // 4 planted scenarios + 2 no-bias twins (one per granularity: the bias does not shape the rows),
    // x 3 seeds x (model question: 1 trained model x A; data question: 2 reference models x 3 S plans).
    expect(cells).toHaveLength(6 * 3 * (1 + 2 * 3));
    expect(new Set(cells.map((c) => c.key)).size).toBe(cells.length);
    expect((await expandCells(study)).map((c) => c.key)).toEqual(cells.map((c) => c.key));
    const twins = cells.filter((c) => c.dataset.kind === 'synthetic' && c.dataset.null);
    expect(twins).toHaveLength(2 * 3 * 7);
    expect(new Set(twins.map((c) => c.dataset.label))).toEqual(
      new Set(['no bias (granularity=1)', 'no bias (granularity=2)']),
    );
    // A twin is scored against the planted subgroups of the scenarios that share its rows.
    expect(twins[0]!.chanceAgainst.map((d) => d.label)).toEqual([
      'bias=-3, granularity=1',
      'bias=-1, granularity=1',
    ]);
    expect(cells[0]!.dataset).toMatchObject({
      label: 'bias=-3, granularity=1',
      options: { rows: 300, bias: -3, granularity: 1 },
    });
    expect(cells.filter((c) => c.plan.varied?.option === 'numIters').map((c) => c.plan.label)).toContain(
      'S (numIters=2)',
    );
    // Individual methods answer the model question only here; BiasScan the data question.
    expect(new Set(cells.filter((c) => c.question === 'model').map((c) => c.plan.label))).toEqual(
      new Set(['A']),
    );
    // Every method of a block shares its data set, seed, question and model.
    const block = cells.filter((c) => c.block === cells.find((x) => x.question === 'data')!.block);
    expect(block.map((c) => c.plan.label)).toEqual(['S (numIters=1)', 'S (numIters=2)', 'S (numIters=3)']);
  });

  it('refuses a directory given as a study file with a typed error', () => {
    const dir = join(tempDir(), 'x.json');
    mkdirSync(dir);
    expect(() => loadStudy(dir)).toThrow(/not a file/);
  });

  it('accepts a real data set as the generator source (semi-synthetic) and rejects an unknown one', async () => {
    const semi = (source: string) =>
      tinyStudy({
        synthetic: { generator: 'generate', base: { pairs: 2 }, factors: { data: [{ source }] } },
      });
    const [cell] = await expandCells(semi('compas'));
    expect(cell!.dataset).toMatchObject({ label: 'source=compas', options: { source: 'compas' } });
    expect(() => semi('martian')).toThrow(/source: "martian" is not a real data set/);
  });

  it('keys cells by content and labels; blocks by content only', async () => {
    const study = (label: string) => tinyStudy({ methods: [{ label, method: 'aequitas' }] });
    const one = await expandCells(study('one'));
    const two = await expandCells(study('two'));
    // The same work under another label is another cell (the label is part of what is stored)...
    expect(one.map((c) => c.key).filter((k) => two.some((t) => t.key === k))).toEqual([]);
    // ...but the block (data and model) is the same: keyed by content, not by label.
    expect(one.map((c) => c.block)).toEqual(two.map((c) => c.block));
  });

  it('rejects duplicate model labels and labels nested factor levels by content', async () => {
    expect(() =>
      tinyStudy({
        models: [
          { label: 'm', kind: 'logistic-regression' },
          { label: 'm', kind: 'decision-tree' },
        ],
      }),
    ).toThrow(/\/models\/1\/label: duplicate label "m"/);
    const study = tinyStudy({
      synthetic: {
        generator: 'generate',
        base: { attributes: 4 },
        factors: { level: [{ marginals: [{ probabilities: [0.5, 0.5] }, null, null, null] }] },
      },
    });
    const [cell] = await expandCells(study);
    expect(cell!.dataset.label).not.toContain('[object Object]');
    expect(cell!.dataset.label).toContain('"probabilities":[0.5,0.5]');
  });

  it('spreads object factor levels into the generator options', async () => {
    const study = tinyStudy({
      synthetic: {
        generator: 'generate',
        base: { attributes: 6 },
        factors: { bias: [{ minBias: 0.5, maxBias: 1 }] },
        unbiased: { minBias: 0, maxBias: 0 },
      },
    });
    const [scenario, none] = [...new Set((await expandCells(study)).map((c) => c.dataset))];
    expect(scenario).toMatchObject({
      label: 'bias=0.5–1',
      options: { attributes: 6, minBias: 0.5, maxBias: 1 },
    });
    expect(none).toMatchObject({
      label: 'no bias',
      null: true,
      options: { attributes: 6, minBias: 0, maxBias: 0 },
    });
  });

  it('changes the key when an input changes', async () => {
    const base = (await expandCells(tinyStudy()))[0]!.key;
    expect((await expandCells(tinyStudy({ budget: { maxTested: 201 } })))[0]!.key).not.toBe(base);
    const s = tinyStudy();
    s.methods[0]!.options = { ...s.methods[0]!.options, globalIterations: 51 };
    expect((await expandCells(s))[0]!.key).not.toBe(base);
  });
});

describe('scenarioGrid', () => {
  it('crosses factors, and varies the one-at-a-time factors from their first level', () => {
    const grid = scenarioGrid({ bias: ['b1', 'b2'], noise: ['n1', 'n2'], size: ['s1', 's2', 's3'] }, [
      'noise',
      'size',
    ]);
    const rows = grid.map((g) => `${g['bias']} ${g['noise']} ${g['size']}`);
    expect(rows).toEqual([
      'b1 n1 s1',
      'b1 n2 s1',
      'b1 n1 s2',
      'b1 n1 s3',
      'b2 n1 s1',
      'b2 n2 s1',
      'b2 n1 s2',
      'b2 n1 s3',
    ]);
    // Every factor crossed: the full product.
    expect(
      scenarioGrid({ bias: ['b1', 'b2'], noise: ['n1', 'n2'], size: ['s1', 's2', 's3'] }, []),
    ).toHaveLength(12);
  });

  it('names a scenario by its levels (a one-at-a-time factor only away from its first level): one option, a range, or a source with what else it sets', async () => {
    const study = validateStudy({
      ...valid(),
      synthetic: {
        generator: 'generate',
        base: { pairs: 1 },
        factors: {
          bias: [{ minBias: 0.5, maxBias: 1 }],
          data: [{ attributes: 10 }, { source: 'adult', minGranularity: 1 }],
        },
        oneAtATime: ['data'],
      },
    });
    const labels = new Set((await expandCells(study)).map((c) => c.dataset.label));
    expect(labels).toEqual(new Set(['bias=0.5–1', 'bias=0.5–1, source=adult (minGranularity=1)']));
  });

  it('refuses a one-at-a-time factor that is not a factor', () => {
    expect(() =>
      validateStudy({
        ...valid(),
        synthetic: {
          generator: 'planted-pair',
          factors: { bias: [-1, -2] },
          oneAtATime: ['noise'],
        },
      }),
    ).toThrow(/oneAtATime: "noise" is not a factor/);
  });
});

describe('per-method budgets', () => {
  it("a method's budget overrides the study's for its cells only", async () => {
    const study = tinyStudy({
      budget: { maxTested: 200, maxSeconds: 10 },
      methods: [
        { label: 'A', method: 'aequitas', options: { strategy: 'random' }, budget: { maxTested: 50 } },
        { label: 'B', method: 'aequitas', options: { strategy: 'random' } },
      ],
    });
    const cells = await expandCells(study);
    const of = (label: string) => cells.filter((c) => c.plan.label === label).map((c) => c.budget);
    expect(new Set(of('A').map((b) => JSON.stringify(b)))).toEqual(
      new Set([JSON.stringify({ maxTested: 50, maxSeconds: 10 })]),
    );
    expect(of('B')[0]).toEqual({ maxTested: 200, maxSeconds: 10 });
  });
});

describe('duplicate plans', () => {
  it('refuses two plans that resolve to the same method, options and budget', () => {
    expect(() =>
      tinyStudy({
        methods: [
          { label: 'A', method: 'aequitas', options: { strategy: 'fully-directed' } },
          // The default strategy left out is the same plan.
          { label: 'B', method: 'aequitas', options: {} },
        ],
      }),
    ).toThrow(/plan "B" runs the same method, options and budget as "A"/);
  });
});
