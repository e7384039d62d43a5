import { describe, expect, it } from 'vitest';
import {
  type AttributeValueCount,
  CheckStatus,
  CounterfactualChecker,
  CountingClassifier,
  DataError,
  type DiscriminatoryPair,
  defineSchema,
  keyResolution,
  MAX_VARIANTS,
  OptionsError,
  type RunContextInit,
  RunController,
  type Schema,
  SchemaError,
  TestedSampleKey,
  type VariantMode,
} from '../src/index.js';
import { AGE, auditSchema, expectError, INCOME, RACE, rowsOf, ruleLabel, SEX, SpyModel } from './helpers.js';

function setup(
  mode: VariantMode = 'all-combinations',
  init: RunContextInit = {},
  schema: Schema = auditSchema,
) {
  const spy = new SpyModel(schema.attributes.length, ruleLabel);
  const model = new CountingClassifier(spy);
  const ctl = new RunController(init);
  const checker = new CounterfactualChecker(schema, model, ctl, mode);
  return { spy, model, ctl, checker };
}

// (sex, age, race, income). Approve when income + 10 (sex = m) + 5 (race = c) >= 50.
const r0 = [0, 1, 0, 45]; // 45: flips to approve with race c (50) or sex m (55, 55, 60)
const r1 = [1, 2, 1, 20]; // at most 35: never approved
const r2 = [1, 0, 0, 38]; // 48: approved only as (m, c) = 53
const r3 = [1, 1, 2, 45]; // same non-protected values as r0
const r4 = [0, 4, 0, 90]; // always approved
const batch = rowsOf([r0, r1, r2, r3, r4]);

type PairContent = Omit<DiscriminatoryPair, 'caseId'>;
const pair = (sample: number[], counterfactual: number[], changed: string[]): PairContent => ({
  sample,
  counterfactual,
  sampleOutcome: ruleLabel(sample),
  counterfactualOutcome: ruleLabel(counterfactual),
  changed,
});
const sortPairs = (ps: readonly PairContent[]) => [...ps].map((p) => JSON.stringify(p)).sort();
function contents(pairs: readonly DiscriminatoryPair[]): string[] {
  expect(pairs.map((p) => p.caseId)).toEqual(pairs.map((_, i) => i));
  return sortPairs(pairs.map(({ caseId: _c, ...rest }) => rest));
}
const count = (
  attribute: string,
  value: number,
  label: string,
  dsn: number,
  pairs: number,
): AttributeValueCount => ({
  attribute,
  value,
  label,
  dsn,
  pairs,
});

describe('CounterfactualChecker: hand-computed batch', () => {
  it('all-combinations: 5 variants per input, TSN 4, DSN 2, 5 pairs', () => {
    const { spy, model, ctl, checker } = setup('all-combinations');
    const res = checker.check(batch);
    expect(Array.from(res.status)).toEqual([1, 0, 1, 1, 0]);
    expect(Array.from(res.fresh)).toEqual([1, 1, 1, 0, 1]);
    expect(checker.tsn).toBe(4);
    expect(checker.dsn).toBe(2);
    expect(checker.pairs).toBe(5);
    expect(ctl.tested).toBe(4);
    expect(ctl.discriminatory).toBe(2);
    // One model call: each of the 4 new inputs and its 5 variants.
    expect(spy.batches.length).toBe(1);
    expect(spy.rowsSeen.length).toBe(24);
    expect(model.queryStats).toEqual({ queries: 24, distinctQueries: 24, batches: 1 });
    const f = checker.findings();
    expect(f.kind).toBe('individual');
    expect(contents(f.pairs)).toEqual(
      sortPairs([
        pair(r0, [0, 1, 2, 45], ['race']),
        pair(r0, [1, 1, 0, 45], ['sex']),
        pair(r0, [1, 1, 1, 45], ['sex', 'race']),
        pair(r0, [1, 1, 2, 45], ['sex', 'race']),
        pair(r2, [1, 0, 2, 38], ['race']),
      ]),
    );
    expect(f.byAttributeValue).toEqual([
      count('sex', 0, 'f', 1, 3),
      count('sex', 1, 'm', 1, 3),
      count('race', 0, 'a', 2, 4),
      count('race', 1, 'b', 1, 1),
      count('race', 2, 'c', 2, 3),
    ]);
  });

  it('one-at-a-time: 1 + 2 = 3 variants per input, TSN 4, DSN 2, 3 pairs', () => {
    const { spy, model, checker } = setup('one-at-a-time');
    const res = checker.check(batch);
    expect(Array.from(res.status)).toEqual([1, 0, 1, 1, 0]);
    expect(checker.tsn).toBe(4);
    expect(checker.dsn).toBe(2);
    expect(checker.pairs).toBe(3);
    expect(spy.rowsSeen.length).toBe(16);
    expect(model.queryStats.distinctQueries).toBe(16);
    // No variant changes both protected attributes.
    for (const row of spy.rowsSeen) {
      const own = [r0, r1, r2, r4].find((r) => r[AGE] === row[AGE] && r[INCOME] === row[INCOME])!;
      expect(Number(row[SEX] !== own[SEX]) + Number(row[RACE] !== own[RACE])).toBeLessThanOrEqual(1);
    }
    const f = checker.findings();
    expect(contents(f.pairs)).toEqual(
      sortPairs([
        pair(r0, [1, 1, 0, 45], ['sex']),
        pair(r0, [0, 1, 2, 45], ['race']),
        pair(r2, [1, 0, 2, 38], ['race']),
      ]),
    );
    expect(f.byAttributeValue).toEqual([
      count('sex', 0, 'f', 1, 1),
      count('sex', 1, 'm', 1, 1),
      count('race', 0, 'a', 2, 2),
      count('race', 1, 'b', 0, 0),
      count('race', 2, 'c', 2, 2),
    ]);
  });

  it('re-checking known inputs returns their status without a model query or a new tested sample', () => {
    const { spy, model, checker } = setup();
    checker.check(batch);
    const stats = model.queryStats;
    // Same non-protected values as r0, r1, r2, with other protected values.
    const again = checker.check(
      rowsOf([
        [1, 1, 1, 45],
        [0, 2, 2, 20],
        [0, 0, 1, 38],
      ]),
    );
    expect(Array.from(again.status)).toEqual([1, 0, 1]);
    expect(Array.from(again.fresh)).toEqual([0, 0, 0]);
    expect(checker.tsn).toBe(4);
    expect(checker.dsn).toBe(2);
    expect(checker.pairs).toBe(5);
    expect(spy.batches.length).toBe(1);
    expect(model.queryStats).toEqual(stats);
  });

  it('counts a duplicate within one batch once', () => {
    const { spy, checker } = setup();
    const res = checker.check(rowsOf([r1, r1, [0, 2, 0, 20], r1]));
    expect(Array.from(res.status)).toEqual([0, 0, 0, 0]);
    expect(Array.from(res.fresh)).toEqual([1, 0, 0, 0]);
    expect(checker.tsn).toBe(1);
    expect(spy.rowsSeen.length).toBe(6);
  });

  it('an empty batch changes nothing', () => {
    const { spy, checker } = setup();
    const res = checker.check(new Float64Array(0));
    expect(res.status.length).toBe(0);
    expect(checker.tsn).toBe(0);
    expect(spy.batches.length).toBe(0);
  });
});

describe('CounterfactualChecker: budgets', () => {
  it('the tested budget marks the excess new rows skipped and TSN never exceeds it', () => {
    const { ctl, checker } = setup('all-combinations', { budget: { maxTested: 3 } });
    const res = checker.check(batch);
    // r0, r1, r2 are tested; r3 repeats r0 (known); r4 would be a 4th tested sample.
    expect(Array.from(res.status)).toEqual([1, 0, 1, 1, CheckStatus.Skipped]);
    expect(Array.from(res.fresh)).toEqual([1, 1, 1, 0, 0]);
    expect(checker.tsn).toBe(3);
    expect(ctl.shouldStop()).toBe('tested-budget');
    const later = checker.check(rowsOf([[0, 3, 0, 10], r1, r4]));
    expect(Array.from(later.status)).toEqual([-1, 0, -1]);
    expect(checker.tsn).toBe(3);
  });

  it('TSN stays within the tested budget over many random batches', () => {
    const { ctl, checker } = setup('one-at-a-time', { budget: { maxTested: 37 } });
    const rng = ctl.rng.fork('inputs');
    for (let b = 0; b < 30; b++) {
      const rows = Array.from({ length: 7 }, () => [
        rng.int(0, 1),
        rng.int(0, 4),
        rng.int(0, 2),
        rng.int(0, 100),
      ]);
      const res = checker.check(rowsOf(rows));
      expect(checker.tsn).toBeLessThanOrEqual(37);
      const fresh = res.fresh.reduce((a, v) => a + v, 0);
      expect(fresh).toBeLessThanOrEqual(7);
    }
    expect(checker.tsn).toBe(37);
  });

  it('the query budget caps the rows tested: each costs 1 + variants distinct queries', () => {
    const { model, checker } = setup('all-combinations', { budget: { maxQueries: 13 } });
    const res = checker.check(rowsOf([r0, r1, r2]));
    expect(Array.from(res.status)).toEqual([1, 0, -1]);
    expect(model.queryStats.distinctQueries).toBe(12);
    expect(Array.from(checker.check(rowsOf([r4])).status)).toEqual([-1]);
    expect(model.queryStats.distinctQueries).toBe(12);

    const one = setup('one-at-a-time', { budget: { maxQueries: 13 } });
    expect(Array.from(one.checker.check(rowsOf([r0, r1, r2, r4])).status)).toEqual([1, 0, 1, -1]);
    expect(one.model.queryStats.distinctQueries).toBe(12);
  });

  it('an aborted run tests nothing new', () => {
    const ac = new AbortController();
    ac.abort();
    const { spy, checker } = setup('all-combinations', { signal: ac.signal });
    expect(Array.from(checker.check(batch).status)).toEqual([-1, -1, -1, -1, -1]);
    expect(checker.tsn).toBe(0);
    expect(spy.batches.length).toBe(0);
  });
});

describe('CounterfactualChecker: agrees with a brute-force count', () => {
  /** Straightforward re-implementation of the counting contract with plain objects. */
  function bruteForce(batches: number[][][], mode: VariantMode) {
    const known = new Map<string, number>();
    const pairs: PairContent[] = [];
    const statuses: number[][] = [];
    const dsnBy = new Map<string, Set<string>>();
    const pairsBy = new Map<string, number>();
    let dsn = 0;
    for (const rows of batches) {
      const st: number[] = [];
      for (const row of rows) {
        const key = `${row[AGE]},${row[INCOME]}`;
        if (!known.has(key)) {
          const own = ruleLabel(row);
          let disc = false;
          for (let s = 0; s < 2; s++) {
            for (let r = 0; r < 3; r++) {
              const changes = Number(s !== row[SEX]) + Number(r !== row[RACE]);
              if (changes === 0 || (mode === 'one-at-a-time' && changes > 1)) continue;
              const cf = [...row];
              cf[SEX] = s;
              cf[RACE] = r;
              if (ruleLabel(cf) === own) continue;
              disc = true;
              const changed = [s !== row[SEX] ? 'sex' : null, r !== row[RACE] ? 'race' : null].filter(
                (c): c is string => c !== null,
              );
              pairs.push(pair(row, cf, changed));
              for (const [name, j] of [
                ['sex', SEX],
                ['race', RACE],
              ] as const) {
                if (row[j] === cf[j]) continue;
                for (const v of [row[j], cf[j]]) {
                  const k = `${name}=${v}`;
                  pairsBy.set(k, (pairsBy.get(k) ?? 0) + 1);
                  if (!dsnBy.has(k)) dsnBy.set(k, new Set());
                  dsnBy.get(k)!.add(key);
                }
              }
            }
          }
          if (disc) dsn++;
          known.set(key, disc ? 1 : 0);
        }
        st.push(known.get(key)!);
      }
      statuses.push(st);
    }
    const byValue = [
      ...[0, 1].map((v) => ['sex', v, ['f', 'm'][v]] as const),
      ...[0, 1, 2].map((v) => ['race', v, ['a', 'b', 'c'][v]] as const),
    ].map(([a, v, label]) =>
      count(a, v, label!, dsnBy.get(`${a}=${v}`)?.size ?? 0, pairsBy.get(`${a}=${v}`) ?? 0),
    );
    return { tsn: known.size, dsn, pairs, statuses, byValue };
  }

  it.each<VariantMode>(['all-combinations', 'one-at-a-time'])('%s on random batches with repeats', (mode) => {
    const { ctl, checker } = setup(mode, { seed: 17 });
    const rng = ctl.rng.fork('inputs');
    const incomes = [20, 35, 38, 40, 42, 45, 48, 50, 55, 90];
    const batches = Array.from({ length: 12 }, () =>
      Array.from({ length: rng.int(1, 15) }, () => [
        rng.int(0, 1),
        rng.int(0, 4),
        rng.int(0, 2),
        rng.choice(incomes),
      ]),
    );
    const expected = bruteForce(batches, mode);
    const statuses = batches.map((rows) => Array.from(checker.check(rowsOf(rows)).status));
    expect(statuses).toEqual(expected.statuses);
    expect(checker.tsn).toBe(expected.tsn);
    expect(checker.dsn).toBe(expected.dsn);
    expect(checker.dsn).toBeGreaterThan(3);
    const f = checker.findings();
    expect(contents(f.pairs)).toEqual(sortPairs(expected.pairs));
    expect(f.byAttributeValue).toEqual(expected.byValue);
  });
});

describe('CounterfactualChecker: protected grids with a fractional step', () => {
  const schema = defineSchema({
    attributes: [
      { name: 'score', kind: 'ordinal', protected: true, min: 0, max: 1, step: 0.1 },
      { name: 'x', kind: 'ordinal', protected: false, min: 0, max: 3 },
    ],
    outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
  });

  it.each<VariantMode>(['all-combinations', 'one-at-a-time'])(
    '%s: values written as 0.3 and 0.7 are matched to their grid points, never varied onto themselves',
    (mode) => {
      const spy = new SpyModel(2, (r) => (r[0]! > 0.55 ? 1 : 0));
      const checker = new CounterfactualChecker(
        schema,
        new CountingClassifier(spy),
        new RunController(),
        mode,
      );
      const res = checker.check(Float64Array.of(0.3, 1, 0.7, 2));
      expect(Array.from(res.status)).toEqual([1, 1]);
      // 10 other grid values per input.
      expect(spy.rowsSeen.length).toBe(22);
      const pairs = checker.findings().pairs;
      // From 0.3: 0.6 .. 1.0 flip (5); from 0.7: 0 .. 0.5 flip (6).
      expect(pairs.length).toBe(11);
      for (const p of pairs) {
        expect(Math.abs(p.sample[0]! - p.counterfactual[0]!)).toBeGreaterThan(0.05);
        expect(p.changed).toEqual(['score']);
      }
      const by = checker.findings().byAttributeValue;
      expect(by.length).toBe(11);
      // 0.3: sample of 5 pairs, counterfactual of one (0.7 -> 0.3); 0.7: sample of 6, counterfactual of one.
      expect([by[3]!.pairs, by[3]!.dsn, by[7]!.pairs, by[7]!.dsn]).toEqual([6, 2, 7, 2]);
      expect([by[5]!.pairs, by[5]!.dsn, by[6]!.pairs, by[6]!.dsn]).toEqual([1, 1, 1, 1]);
      expect(by.reduce((a, b) => a + b.pairs, 0)).toBe(22);
    },
  );
});

describe('CounterfactualChecker: errors', () => {
  it('rejects out-of-domain inputs with a DataError naming the row and attribute', () => {
    const { checker } = setup();
    expectError(() => checker.check(rowsOf([r0, [2, 1, 0, 45]])), DataError, 'DATA_OUT_OF_DOMAIN', {
      row: 1,
      attribute: 'sex',
    });
    expectError(() => checker.check(rowsOf([[0, 1, 0.5, 45]])), DataError, 'DATA_OUT_OF_DOMAIN', {
      attribute: 'race',
    });
    expectError(() => checker.check(rowsOf([[0, 1, 0, 101]])), DataError, 'DATA_OUT_OF_DOMAIN', {
      attribute: 'income',
    });
    expectError(() => checker.check(rowsOf([[0, Number.NaN, 0, 1]])), DataError, 'DATA_OUT_OF_DOMAIN', {
      attribute: 'age',
    });
    expectError(() => checker.check(Float64Array.of(0, 1, 0)), DataError, 'DATA_SHAPE');
    expect(checker.tsn).toBe(0);
  });

  it('rejects a continuous protected attribute with a SchemaError', () => {
    const schema = defineSchema({
      attributes: [
        { name: 'age', kind: 'continuous', protected: true, min: 0, max: 100 },
        { name: 'x', kind: 'ordinal', protected: false, min: 0, max: 3 },
      ],
      outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
    });
    expectError(() => setup('all-combinations', {}, schema), SchemaError, 'SCHEMA_BAD_DOMAIN', {
      attribute: 'age',
    });
  });

  it('rejects too many combinations with an OptionsError, unless one-at-a-time', () => {
    // 65 x 65 = 4225 combinations: 4224 variants > MAX_VARIANTS.
    const wide = { kind: 'ordinal', protected: true, min: 0, max: 64, step: 1 } as const;
    const schema = defineSchema({
      attributes: [
        { name: 'p', ...wide },
        { name: 'q', ...wide },
        { name: 'x', kind: 'ordinal', protected: false, min: 0, max: 3 },
      ],
      outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
    });
    expect(65 * 65 - 1).toBeGreaterThan(MAX_VARIANTS);
    expectError(() => setup('all-combinations', {}, schema), OptionsError, 'OPTIONS_INVALID', {
      option: '/variantMode',
    });
    const { checker, spy } = setup('one-at-a-time', {}, schema);
    checker.check(Float64Array.of(3, 4, 1));
    expect(spy.rowsSeen.length).toBe(1 + 64 + 64);
  });

  it('rejects an unknown variant mode and a model of the wrong width', () => {
    expectError(() => setup('pairwise' as VariantMode), OptionsError, 'OPTIONS_INVALID');
    const model = new CountingClassifier(new SpyModel(3, () => 0));
    expectError(
      () => new CounterfactualChecker(auditSchema, model, new RunController()),
      DataError,
      'DATA_SHAPE',
    );
  });
});

describe('CounterfactualChecker: tested samples on the declared resolution', () => {
  it('gives each kind of attribute its resolution', () => {
    const [, age, , income] = auditSchema.attributes;
    expect(keyResolution(auditSchema.attributes[0]!)).toBe(1);
    expect(keyResolution(age!)).toBe(1);
    // Range 100: 10^(2 - 3).
    expect(keyResolution(income!)).toBeCloseTo(0.1, 15);
    const wide = defineSchema({
      attributes: [
        { name: 'fnlwgt', kind: 'continuous', protected: false, min: 0, max: 1_500_000 },
        { name: 'rate', kind: 'continuous', protected: false, min: 0, max: 1, step: 0.1 },
        { name: 'g', kind: 'categorical', protected: true, categories: ['a', 'b'] },
      ],
      outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
    });
    expect(keyResolution(wide.attributes[0]!)).toBe(1000);
    expect(keyResolution(wide.attributes[1]!)).toBe(0.1);
  });

  it('counts generated reals closer than the resolution as one tested sample', () => {
    const { checker, spy } = setup();
    // income 45, 45.03 and 44.96 share the cell 450 (resolution 0.1); 45.2 does not.
    const first = checker.check(rowsOf([r0, [0, 1, 0, 45.03], [1, 1, 1, 44.96], [0, 1, 0, 45.2]]));
    expect(checker.tsn).toBe(2);
    expect(Array.from(first.fresh)).toEqual([1, 0, 0, 1]);
    // The repeats get the status of the first input of their cell without a query.
    expect(first.status[1]).toBe(first.status[0]);
    expect(first.status[2]).toBe(first.status[0]);
    const queried = spy.batches.length;
    const again = checker.check(rowsOf([[1, 1, 2, 45.04]]));
    expect(Array.from(again.fresh)).toEqual([0]);
    expect(spy.batches.length).toBe(queried);
    expect(checker.tsn).toBe(2);
  });

  it('keys a grid value by its grid index, so rounding noise does not make a new sample', () => {
    const schema = defineSchema({
      attributes: [
        { name: 'g', kind: 'categorical', protected: true, categories: ['a', 'b'] },
        { name: 'rate', kind: 'continuous', protected: false, min: 0, max: 1, step: 0.1 },
      ],
      outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
    });
    const { checker } = setup('all-combinations', {}, schema);
    // 0.1 * 3 = 0.30000000000000004, a different double from 0.3 on the same grid point.
    checker.check(
      rowsOf([
        [0, 0.3],
        [0, 0.1 * 3],
        [1, 0.7],
      ]),
    );
    expect(checker.tsn).toBe(2);
  });
});

describe('TestedSampleKey', () => {
  it("is the checker's key: the non-protected values' cell indices", () => {
    // (sex, age, race, income): age codes and income on cells of 0.1 from 0.
    const key = new TestedSampleKey(auditSchema);
    expect(Array.from(key.nonProtected)).toEqual([AGE, INCOME]);
    expect(key.width).toBe(2);
    expect(Array.from(key.of([1, 2, 0, 45.03], 0))).toEqual([2, 450]);
    // An offset into a batch, and a value within half a cell of 45 on the other side.
    expect(Array.from(key.of([9, 9, 9, 9, 0, 2, 1, 44.96], 4))).toEqual([2, 450]);
    expect(Array.from(key.of([0, 2, 0, 45.2], 0))).toEqual([2, 452]);
  });
});

describe('CounterfactualChecker: discrimination threshold gamma', () => {
  // P(approve) = 0.3 + 0.04 x + 0.1 (sex = m); the decision is P > 0.5, so it flips with sex only at
  // x = 3, 4, 5 (0.42/0.52, 0.46/0.56, 0.50/0.60), while the probability always moves by 0.1.
  const schema = defineSchema({
    attributes: [
      { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
      { name: 'x', kind: 'ordinal', protected: false, min: 0, max: 9, step: 1 },
    ],
    outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
  });
  const p = (r: Float64Array, i: number) => 0.3 + 0.04 * r[2 * i + 1]! + 0.1 * r[2 * i]!;
  const model = {
    nFeatures: 2,
    nClasses: 2,
    predict: (r: Float64Array) =>
      Int32Array.from({ length: r.length / 2 }, (_, i) => (p(r, i) > 0.5 ? 1 : 0)),
    predictProba: (r: Float64Array) => {
      const out = new Float64Array(r.length);
      for (let i = 0; i < r.length / 2; i++) {
        out[2 * i + 1] = p(r, i);
        out[2 * i] = 1 - out[2 * i + 1]!;
      }
      return out;
    },
  };
  const rows = rowsOf(Array.from({ length: 10 }, (_, x) => [0, x]));
  const run = (gamma: number) => {
    const checker = new CounterfactualChecker(
      schema,
      new CountingClassifier(model),
      new RunController({}),
      'all-combinations',
      gamma,
    );
    checker.check(rows);
    return checker;
  };

  it('counts changed decisions at the default 0, probability gaps above gamma otherwise', () => {
    const flips = run(0);
    expect([flips.tsn, flips.dsn]).toEqual([10, 3]);
    expect(flips.findings().pairs.map((q) => q.sample[1])).toEqual([3, 4, 5]);
    const close = run(0.05);
    expect([close.tsn, close.dsn, close.pairs]).toEqual([10, 10, 10]);
    // Pairs whose decision does not change are reported with their (equal) outcomes.
    expect(close.findings().pairs[0]).toMatchObject({ sampleOutcome: 0, counterfactualOutcome: 0 });
    expect(run(0.15).dsn).toBe(0);
  });

  it('refuses a threshold outside [0, 1) and a model without probabilities', () => {
    expect(() => run(1)).toThrow(OptionsError);
    expect(() => run(-0.1)).toThrow(OptionsError);
    const labelsOnly = new CountingClassifier({ nFeatures: 2, nClasses: 2, predict: model.predict });
    expect(
      () => new CounterfactualChecker(schema, labelsOnly, new RunController({}), 'all-combinations', 0.1),
    ).toThrow(/predictProba/);
  });
});
