import { describe, expect, it } from 'vitest';
import {
  CounterfactualChecker,
  CountingClassifier,
  checkResult,
  countMembers,
  createDataset,
  createRng,
  DataError,
  type Dataset,
  type DiscoveryResult,
  datasetFingerprint,
  defineIndividualDetector,
  defineSubgroupDetector,
  ModelError,
  memberMask,
  OptionsError,
  RunController,
  reproducibleView,
  SchemaError,
  type SubgroupFinding,
  subsetRows,
  type VariantMode,
} from '../src/index.js';
import {
  AGE,
  auditSchema,
  expectError,
  expectRejection,
  INCOME,
  RACE,
  ruleLabel,
  SEX,
  SpyModel,
} from './helpers.js';

/** 200 random rows over the audit schema, labelled by the rule. */
function toyDataset(n = 200): Dataset {
  const rng = createRng('toy-data');
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = [rng.int(0, 1), rng.int(0, 4), rng.int(0, 2), Math.round(rng.uniform(20, 70))];
    x.push(...row);
    y.push(ruleLabel(row));
  }
  return createDataset({ schema: auditSchema, x, y, name: 'toy' });
}

interface ToyOptions {
  sampleSize: number;
  batchSize: number;
  variantMode: VariantMode;
}

const toyIndividual = defineIndividualDetector<ToyOptions>({
  id: 'toy-individual',
  version: '0.0.1',
  access: 'black-box',
  description: 'Checks a random sample of dataset rows.',
  optionsSchema: {
    type: 'object',
    properties: {
      sampleSize: { type: 'integer', minimum: 1, default: 40, description: 'Rows to check.' },
      batchSize: { type: 'integer', minimum: 1, default: 8, description: 'Rows per model batch.' },
      variantMode: {
        enum: ['all-combinations', 'one-at-a-time'],
        default: 'all-combinations',
        description: 'How protected variants are built.',
      },
    },
  },
  async search({ dataset, options, ctl, checker }) {
    const picked = ctl.rng.fork('pick').sampleIndices(dataset.n, Math.min(options.sampleSize, dataset.n));
    let batches = 0;
    for (let s = 0; s < picked.length; s += options.batchSize) {
      if (await ctl.checkpoint({ phase: 'sample', done: s, total: picked.length })) break;
      checker.check(subsetRows(dataset, picked.subarray(s, s + options.batchSize)).x);
      batches++;
    }
    return { batches, timings: { search: ctl.elapsedSeconds() } };
  },
});

const model = () => new SpyModel(4, ruleLabel);

describe('defineIndividualDetector', () => {
  it('resolves options with defaults', () => {
    expect(toyIndividual.resolveOptions({ batchSize: 3 })).toEqual({
      sampleSize: 40,
      batchSize: 3,
      variantMode: 'all-combinations',
    });
    expect(toyIndividual.kind).toBe('individual');
    expect(toyIndividual.requiresModel).toBe(true);
  });

  it('fills the result from the checker: metrics agree with an independent count', async () => {
    const ds = toyDataset();
    const result = await toyIndividual.run({ dataset: ds, model: model() }, { sampleSize: 60 }, { seed: 5 });
    expect(checkResult(result).valid).toBe(true);

    // The same rows, checked by a fresh checker.
    const picked = createRng(5).fork('pick').sampleIndices(ds.n, 60);
    const sampled = subsetRows(ds, picked);
    const keys = new Set<string>();
    for (let i = 0; i < sampled.n; i++) keys.add(`${sampled.x[i * 4 + AGE]},${sampled.x[i * 4 + INCOME]}`);
    const counted = new CountingClassifier(model());
    const checker = new CounterfactualChecker(ds.schema, counted, new RunController());
    for (let s = 0; s < 60; s += 8) checker.check(sampled.x.subarray(s * 4, Math.min(60, s + 8) * 4));

    const m = result.metrics;
    expect(m.tsn).toBe(keys.size);
    expect(m.tsn).toBe(checker.tsn);
    expect(m.dsn).toBe(checker.dsn);
    expect(m.dsn).toBeGreaterThan(0);
    expect(m.pairs).toBe(checker.pairs);
    expect(m.sur).toBeCloseTo(m.dsn / m.tsn, 15);
    expect(m.dss).toBeCloseTo(result.run.wallSeconds / m.dsn, 12);
    // Each tested input and its 5 variants are distinct rows: 6 queries per tested sample.
    expect(m.distinctQueries).toBe(6 * m.tsn);
    expect(m.queries).toBe(6 * m.tsn);
    expect(result.findings).toEqual(checker.findings());

    expect(result.method).toEqual({
      id: 'toy-individual',
      version: '0.0.1',
      kind: 'individual',
      access: 'black-box',
      options: { sampleSize: 60, batchSize: 8, variantMode: 'all-combinations' },
    });
    expect(result.dataset).toEqual({
      name: 'toy',
      fingerprint: datasetFingerprint(ds),
      rows: 200,
      attributes: ['sex', 'age', 'race', 'income'],
      protected: ['sex', 'race'],
      outcome: 'approved',
    });
    expect(result.model).toEqual({ description: 'spy', nFeatures: 4, nClasses: 2 });
    expect(result.seed).toBe(5);
    expect(result.budget).toEqual({ maxSeconds: null, maxTested: null, maxQueries: null, maxPairs: 100_000 });
    expect(result.run.stopReason).toBe('completed');
    expect(result.run.aborted).toBe(false);
    expect(result.extras['batches']).toBe(8);
  });

  it('keeps the first budget.maxPairs pairs and counts every pair', async () => {
    const input = { dataset: toyDataset(), model: model() };
    const full = await toyIndividual.run(input, { sampleSize: 80 }, { seed: 1 });
    const capped = await toyIndividual.run(input, { sampleSize: 80 }, { seed: 1, budget: { maxPairs: 3 } });
    if (full.findings.kind !== 'individual' || capped.findings.kind !== 'individual') {
      throw new Error('individual findings expected');
    }
    expect(full.metrics.pairs).toBeGreaterThan(3);
    expect(capped.metrics).toEqual({ ...full.metrics, dss: capped.metrics.dss });
    expect(capped.findings.pairs).toEqual(full.findings.pairs.slice(0, 3));
    expect(capped.findings.byAttributeValue).toEqual(full.findings.byAttributeValue);
    expect(capped.budget.maxPairs).toBe(3);
    expect(capped.run.stopReason).toBe('completed');
  });

  it('every reported pair is a real counterfactual pair', async () => {
    const result = await toyIndividual.run(
      { dataset: toyDataset(), model: model() },
      { sampleSize: 80 },
      { seed: 1 },
    );
    // An individual detector's result has findings.pairs with no check of findings.kind (tsc checks this).
    expect(result.findings.kind).toBe('individual');
    expect(result.findings.pairs.length).toBe(result.metrics.pairs);
    for (const p of result.findings.pairs) {
      expect([p.sample[AGE], p.sample[INCOME]]).toEqual([p.counterfactual[AGE], p.counterfactual[INCOME]]);
      expect(ruleLabel(p.sample)).toBe(p.sampleOutcome);
      expect(ruleLabel(p.counterfactual)).toBe(p.counterfactualOutcome);
      expect(p.sampleOutcome).not.toBe(p.counterfactualOutcome);
      const changed = [SEX, RACE]
        .filter((j) => p.sample[j] !== p.counterfactual[j])
        .map((j) => ['sex', '', 'race'][j]);
      expect(p.changed).toEqual(changed);
    }
  });

  it('the same seed gives the same reproducible view; another seed samples other rows', async () => {
    const ds = toyDataset();
    const a = await toyIndividual.run({ dataset: ds, model: model() }, {}, { seed: 11 });
    const b = await toyIndividual.run({ dataset: ds, model: model() }, {}, { seed: 11 });
    const c = await toyIndividual.run({ dataset: ds, model: model() }, {}, { seed: 12 });
    expect(reproducibleView(a)).toEqual(reproducibleView(b));
    expect(reproducibleView(a)).not.toEqual(reproducibleView(c));
    const view = reproducibleView(a) as Record<string, Record<string, unknown>>;
    expect(view['run']).toEqual({ stopReason: 'completed', aborted: false });
    expect(view['metrics']!['dss']).toBeNull();
    expect(view['extras']).toEqual({ batches: 5 });
  });

  it('holds the tested budget and reports why it stopped', async () => {
    const result = await toyIndividual.run(
      { dataset: toyDataset(), model: model() },
      { sampleSize: 100 },
      { seed: 2, budget: { maxTested: 10 } },
    );
    expect(result.metrics.tsn).toBe(10);
    expect(result.run.stopReason).toBe('tested-budget');
    expect(result.budget.maxTested).toBe(10);
    expect(checkResult(result).valid).toBe(true);
  });

  it('an aborted run returns a valid partial result', async () => {
    const ac = new AbortController();
    ac.abort();
    const result = await toyIndividual.run(
      { dataset: toyDataset(), model: model() },
      {},
      { signal: ac.signal },
    );
    expect(result.run).toMatchObject({ stopReason: 'aborted', aborted: true });
    expect(result.metrics.tsn).toBe(0);
    expect(result.metrics.sur).toBe(0);
    expect(result.metrics.dss).toBeNull();
    expect(checkResult(result).valid).toBe(true);
  });

  it('rejects bad input with typed errors', async () => {
    const ds = toyDataset();
    await expectRejection(toyIndividual.run({ dataset: ds }), ModelError, 'MODEL_MISSING');
    await expectRejection(
      toyIndividual.run({ dataset: ds, model: new SpyModel(3, () => 0) }),
      ModelError,
      'MODEL_MISMATCH',
    );
    await expectRejection(
      toyIndividual.run({ dataset: ds, model: model() }, { batchsize: 2 } as never),
      OptionsError,
      'OPTIONS_UNKNOWN',
      {
        option: '/batchsize',
      },
    );
    await expectRejection(
      toyIndividual.run({ dataset: ds, model: model() }, { batchSize: 0 }),
      OptionsError,
      'OPTIONS_INVALID',
    );
    await expectRejection(
      toyIndividual.run({ dataset: ds, model: model() }, {}, { budget: { maxTested: -1 } }),
      OptionsError,
      'OPTIONS_INVALID',
    );
    const oneClass = createDataset({ schema: auditSchema, x: [0, 1, 0, 45, 1, 1, 1, 30], y: [1, 1] });
    await expectRejection(
      toyIndividual.run({ dataset: oneClass, model: model() }),
      DataError,
      'DATA_SINGLE_CLASS',
    );
    await expectRejection(toyIndividual.run(null as never), ModelError, 'MODEL_MISSING');
  });
});

describe('defineSubgroupDetector', () => {
  /** Reports each protected value whose favourable rate differs from the overall rate by more than 0.1. */
  const gapScan = (requiresModel: boolean) =>
    defineSubgroupDetector<{ minGap: number }>({
      id: 'toy-subgroup',
      version: '0.0.1',
      access: 'data-only',
      description: 'Favourable-rate gaps of protected values.',
      requiresModel,
      optionsSchema: {
        type: 'object',
        properties: {
          minGap: { type: 'number', minimum: 0, default: 0.1, description: 'Smallest reported gap.' },
        },
      },
      async scan({ dataset, options }) {
        const overall = dataset.y.reduce((a, v) => a + v, 0) / dataset.n;
        const found: Omit<SubgroupFinding, 'rank'>[] = [];
        for (const [name, size] of [
          ['sex', 2],
          ['race', 3],
        ] as const) {
          for (let v = 0; v < size; v++) {
            const conditions = [{ attribute: name, values: [v] }];
            const mask = memberMask(dataset, conditions);
            let members = 0;
            let fav = 0;
            for (let i = 0; i < dataset.n; i++) {
              members += mask[i]!;
              fav += mask[i]! * dataset.y[i]!;
            }
            const gap = fav / members - overall;
            if (Math.abs(gap) > options.minGap) {
              found.push({
                conditions,
                size: members,
                score: Math.abs(gap),
                effect: gap,
                pValue: null,
                direction: gap > 0 ? 'higher' : 'lower',
                details: {},
              });
            }
          }
        }
        found.sort((a, b) => b.score - a.score);
        return { subgroups: found.map((f, i) => ({ ...f, rank: i + 1 })), extras: { overall } };
      },
    });

  it('keeps a result valid when the subgroups outnumber the rows (SUR above 1)', async () => {
    // Overlapping subgroups are not bounded by the rows: three values of race and two of sex on 2 rows.
    const everyValue = defineSubgroupDetector<Record<string, never>>({
      id: 'toy-every-value',
      version: '0.0.1',
      access: 'data-only',
      description: 'Reports every value of sex and race.',
      requiresModel: false,
      optionsSchema: { type: 'object', properties: {} },
      async scan() {
        const subgroups = [0, 1, 0, 1, 2].map((v, k) => ({
          rank: k + 1,
          conditions: [{ attribute: k < 2 ? 'sex' : 'race', values: [v] }],
          size: 0,
          score: 1,
          effect: null,
          pValue: null,
          direction: 'lower' as const,
          details: {},
        }));
        return { subgroups, extras: {} };
      },
    });
    const result = await everyValue.run({ dataset: toyDataset(2) }, {});
    expect(result.metrics).toMatchObject({ tsn: 2, dsn: 5, sur: 2.5 });
    expect(checkResult(result).valid).toBe(true);
  });

  it('turns the scan into a valid result with tsn = rows and dsn = subgroups', async () => {
    const ds = toyDataset();
    const result: DiscoveryResult = await gapScan(false).run({ dataset: ds }, { minGap: 0.05 });
    expect(checkResult(result).valid).toBe(true);
    if (result.findings.kind !== 'subgroup') throw new Error('subgroup findings expected');
    const subgroups = result.findings.subgroups;
    expect(subgroups.length).toBeGreaterThan(0);
    expect(result.metrics).toMatchObject({
      tsn: 200,
      dsn: subgroups.length,
      pairs: 0,
      queries: 0,
      distinctQueries: 0,
    });
    expect(result.metrics.sur).toBeCloseTo(subgroups.length / 200, 15);
    expect(result.model).toBeNull();
    expect(result.method.kind).toBe('subgroup');
    // Sizes agree with a plain count of matching rows.
    for (const s of subgroups) {
      const c = s.conditions[0]!;
      const j = c.attribute === 'sex' ? SEX : RACE;
      let n = 0;
      for (let i = 0; i < ds.n; i++) if ('values' in c && c.values.includes(ds.x[i * 4 + j]!)) n++;
      expect(s.size).toBe(n);
      expect(countMembers(ds, s.conditions)).toBe(n);
    }
    // The rule favours sex = m: it must be reported as higher.
    const male = subgroups.find(
      (s) =>
        s.conditions[0]!.attribute === 'sex' &&
        'values' in s.conditions[0]! &&
        s.conditions[0].values[0] === 1,
    );
    expect(male?.direction).toBe('higher');
    expect(result.extras['overall']).toBeCloseTo(ds.y.reduce((a, v) => a + v, 0) / 200, 15);
  });

  it('records a model when one is given and requires it when asked', async () => {
    const ds = toyDataset();
    const withModel = await gapScan(false).run({ dataset: ds, model: model() });
    expect(withModel.model).toEqual({ description: 'spy', nFeatures: 4, nClasses: 2 });
    await expectRejection(gapScan(true).run({ dataset: ds }), ModelError, 'MODEL_MISSING');
    await expectRejection(
      gapScan(false).run({ dataset: ds }, { minGap: -1 }),
      OptionsError,
      'OPTIONS_INVALID',
    );
  });
});

describe('memberMask and countMembers', () => {
  const ds = createDataset({
    schema: auditSchema,
    x: [0, 0, 0, 10, 1, 2, 1, 20, 1, 4, 2, 30, 0, 2, 2, 25],
    y: [0, 1, 1, 0],
  });

  it('matches value sets and half-open or closed intervals', () => {
    expect(Array.from(memberMask(ds, []))).toEqual([1, 1, 1, 1]);
    expect(Array.from(memberMask(ds, [{ attribute: 'race', values: [1, 2] }]))).toEqual([0, 1, 1, 1]);
    const open = { attribute: 'income', min: 20, max: 30, maxInclusive: false };
    expect(Array.from(memberMask(ds, [open]))).toEqual([0, 1, 0, 1]);
    expect(countMembers(ds, [{ ...open, maxInclusive: true }])).toBe(3);
    expect(
      countMembers(ds, [
        { attribute: 'sex', values: [0] },
        { ...open, maxInclusive: true },
      ]),
    ).toBe(1);
  });

  it('rejects an empty value set and an unknown attribute', () => {
    expectError(() => memberMask(ds, [{ attribute: 'race', values: [] }]), DataError, 'DATA_EMPTY_GROUP', {
      attribute: 'race',
    });
    expectError(() => countMembers(ds, [{ attribute: 'zip', values: [1] }]), SchemaError, 'SCHEMA_INVALID');
  });
});
