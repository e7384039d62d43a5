import {
  createDataset,
  createRng,
  type Dataset,
  defineSchema,
  memberMask,
  RunController,
  type SubgroupFinding,
} from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  type CbsOptions,
  cbs,
  conditionalBiasScan,
  jaccard,
  resamplesFor,
  semiSynthetic,
} from '../src/index.js';

const covariateSchema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
    { name: 'age', kind: 'categorical', protected: false, categories: ['<25', '25-45', '>45'] },
    { name: 'charge', kind: 'categorical', protected: false, categories: ['M', 'F'] },
    { name: 'priors', kind: 'categorical', protected: false, categories: ['0', '1-5', '6+'] },
    { name: 'region', kind: 'categorical', protected: false, categories: ['a', 'b', 'c', 'd'] },
  ],
  outcome: { name: 'o', labels: ['0', '1'], favorable: 1 },
});

function covariates(n: number, seed: string): Dataset {
  const rng = createRng(seed);
  const x = new Float64Array(n * 5);
  for (let i = 0; i < n; i++)
    x.set([rng.int(0, 1), rng.int(0, 2), rng.int(0, 1), rng.int(0, 2), rng.int(0, 3)], 5 * i);
  return createDataset({ schema: covariateSchema, x, y: Int32Array.from({ length: n }, (_, i) => i % 2) });
}

async function detect(
  data: ReturnType<typeof semiSynthetic>,
  options: Partial<CbsOptions>,
  seed = 1,
): Promise<{ found: SubgroupFinding | undefined; accuracy: number; extras: Record<string, unknown> }> {
  const resolved = cbs.resolveOptions({ protectedValues: [data.protectedValue], ...options });
  const { subgroups, extras } = await conditionalBiasScan(
    data.dataset,
    data.p,
    resolved,
    new RunController({ seed }),
  );
  const found = subgroups[0];
  const detected = found ? memberMask(data.dataset, found.conditions) : new Uint8Array(data.dataset.n);
  return { found, accuracy: jaccard(detected, data.injected), extras };
}

describe('conditional bias scan on semi-synthetic data', () => {
  const base = covariates(4000, 'cbs-covariates');

  it('separation scan for predictions finds an injected shift of the predicted log-odds', async () => {
    const data = semiSynthetic(base, { muSep: 1.5 }, createRng('sep'));
    const { found, accuracy } = await detect(data, {
      scanType: 'separation-predictions',
      direction: 'positive',
      permutations: 19,
    });
    expect(accuracy).toBeGreaterThan(0.8);
    expect(found!.pValue).toBe(0.05);
    expect(found!.details.mu).toBeGreaterThan(0);
    expect(found!.conditions[0]).toEqual({
      attribute: data.protectedAttribute,
      values: [data.protectedValue],
    });
  });

  it('sufficiency scan for predictions finds an injected drop of the true log-odds', async () => {
    const data = semiSynthetic(base, { muSuf: 1.5 }, createRng('suf'));
    const { found, accuracy } = await detect(data, {
      scanType: 'sufficiency-predictions',
      direction: 'negative',
      permutations: 0,
    });
    expect(accuracy).toBeGreaterThan(0.7);
    expect(found!.details.q).toBeLessThan(1);
    expect(found!.pValue).toBeNull();
    expect(found!.details.detectedRate).toBeLessThan(found!.details.expectedRate as number);
  });

  it('does not call a bias significant when there is none', async () => {
    let small = 0;
    for (let k = 0; k < 4; k++) {
      const data = semiSynthetic(covariates(1500, `null-${k}`), {}, createRng(`null-${k}`));
      const { found } = await detect(data, { scanType: 'separation-recommendations', permutations: 19 }, k);
      if (found && found.pValue! <= 0.05) small++;
    }
    expect(small).toBeLessThanOrEqual(1);
  });
});

describe('expectations', () => {
  it('equal the comparison class rates per covariate value for saturated unpenalised models', async () => {
    // One covariate: the propensity and event models are saturated, so Î for a protected row is the
    // rate of P_bin = 1 among non-protected rows with Y = 0 and the same value (the odds weights are
    // constant within a value).
    const schema = defineSchema({
      attributes: [
        { name: 'group', kind: 'categorical', protected: true, categories: ['x', 'y'] },
        { name: 'level', kind: 'categorical', protected: false, categories: ['l0', 'l1', 'l2'] },
      ],
      outcome: { name: 'o', labels: ['0', '1'], favorable: 1 },
    });
    const rng = createRng('saturated');
    const n = 3000;
    const x = new Float64Array(2 * n);
    const y = new Int32Array(n);
    const p = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const g = rng.int(0, 1);
      const l = rng.int(0, 2);
      x.set([g, l], 2 * i);
      y[i] = rng.bernoulli(0.4) ? 1 : 0;
      p[i] = rng.uniform(0, 1) + (g === 1 && l === 2 ? 0.3 : 0) > 0.6 ? 0.8 : 0.2;
    }
    const dataset = createDataset({ schema, x, y });
    const options = cbs.resolveOptions({
      scanType: 'separation-recommendations',
      conditionValue: 0,
      protectedValues: [1],
      l2: 0,
      penalty: 0,
      permutations: 0,
    });
    const { subgroups } = await conditionalBiasScan(dataset, p, options, new RunController({ seed: 1 }));
    const found = subgroups[0]!;
    expect(found.conditions).toEqual([
      { attribute: 'group', values: [1] },
      { attribute: 'level', values: [2] },
    ]);
    // Independent: FPR of the non-protected rows with level 2, and of the protected ones.
    let n0 = 0;
    let k0 = 0;
    let n1 = 0;
    let k1 = 0;
    for (let i = 0; i < n; i++) {
      if (y[i] !== 0 || x[2 * i + 1] !== 2) continue;
      const flagged = p[i]! >= 0.5 ? 1 : 0;
      if (x[2 * i] === 0) {
        n0++;
        k0 += flagged;
      } else {
        n1++;
        k1 += flagged;
      }
    }
    expect(found.details.expectedRate).toBeCloseTo(k0 / n0, 4);
    expect(found.details.comparisonRate).toBeCloseTo(k0 / n0, 12);
    expect(found.details.comparisonSize).toBe(n0);
    expect(found.details.detectedRate).toBeCloseTo(k1 / n1, 12);
    expect(found.details.scannedSize).toBe(n1);
  });
});

describe('options', () => {
  it('rejects impossible configurations with typed errors', async () => {
    const data = semiSynthetic(covariates(300, 'errors'), {}, createRng('errors'));
    const run = (o: Partial<CbsOptions>) =>
      conditionalBiasScan(data.dataset, data.p, cbs.resolveOptions(o), new RunController({ seed: 1 }));
    await expect(run({ scanType: 'sufficiency-predictions', conditionValue: 1 })).rejects.toMatchObject({
      name: 'OptionsError',
      code: 'OPTIONS_INVALID',
    });
    await expect(run({ protectedAttribute: 'nope' })).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
    await expect(run({ protectedValues: [0, 1, 2, 3] })).rejects.toMatchObject({
      name: 'DataError',
      code: 'DATA_EMPTY_GROUP',
    });
  });
});

describe('protected classes and comparisons', () => {
  const schema = defineSchema({
    attributes: [
      { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
      { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
      { name: 'pregnant', kind: 'categorical', protected: false, categories: ['no', 'yes'] },
      { name: 'level', kind: 'categorical', protected: false, categories: ['l0', 'l1', 'l2'] },
    ],
    outcome: { name: 'o', labels: ['0', '1'], favorable: 1 },
  });

  /** Only women are pregnant, and pregnant women are never recommended whatever their outcome. */
  function data() {
    const rng = createRng('positivity');
    const n = 3000;
    const x = new Float64Array(4 * n);
    const y = new Int32Array(n);
    const p = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const sex = rng.int(0, 1);
      const pregnant = sex === 1 && rng.bernoulli(0.3) ? 1 : 0;
      const level = rng.int(0, 2);
      x.set([sex, rng.int(0, 2), pregnant, level], 4 * i);
      y[i] = rng.bernoulli(0.3 + 0.2 * level) ? 1 : 0;
      p[i] = pregnant ? 0.1 : rng.uniform(0, 1) < 0.3 + 0.2 * level ? 0.8 : 0.2;
    }
    return { dataset: createDataset({ schema, x, y }), p };
  }

  it('reports a null comparison rate and a positivity warning when no comparable row exists', async () => {
    const { dataset, p } = data();
    const options = cbs.resolveOptions({
      protectedAttribute: 'sex',
      protectedValues: [1],
      direction: 'negative',
      permutations: 0,
    });
    const { subgroups, extras } = await conditionalBiasScan(
      dataset,
      p,
      options,
      new RunController({ seed: 1 }),
    );
    const found = subgroups[0]!;
    expect(found.conditions).toContainEqual({ attribute: 'pregnant', values: [1] });
    // No man is pregnant: nothing to compare with (not a rate of 0).
    expect(found.details.comparisonSize).toBe(0);
    expect(found.details.comparisonRate).toBeNull();
    expect(found.details.positivity).toBe(false);
    expect((extras.warnings as string[]).some((w) => w.startsWith('positivity'))).toBe(true);
  });

  it('makes enough resamples by default for the adjusted p-value to fall below the level', () => {
    const defaults = cbs.resolveOptions({});
    expect(defaults.permutations).toBeNull();
    // The smallest adjusted p-value m / (R + 1) is at most half the level 0.05.
    const cases: [number, number][] = [
      [1, 99],
      [2, 99],
      [3, 199],
      [5, 199],
      [10, 399],
      [11, 499],
    ];
    for (const [m, r] of cases) {
      expect(resamplesFor(defaults, m), `${m} scans`).toBe(r);
      expect(m / (r + 1)).toBeLessThanOrEqual(0.025);
    }
    expect(resamplesFor({ ...defaults, sequentialLevel: 0.01 }, 2)).toBe(399);
    expect(resamplesFor({ ...defaults, permutations: 19 }, 10)).toBe(19);
  });

  it('scans every value of every protected attribute in both directions by default, adjusting the p-values', async () => {
    const { dataset, p } = data();
    const options = cbs.resolveOptions({ permutations: 9, iterations: 2 });
    const { subgroups, extras } = await conditionalBiasScan(
      dataset,
      p,
      options,
      new RunController({ seed: 1 }),
    );
    // sex: 2 classes, race: 3 classes; two directions each.
    expect(extras.classesPlanned).toBe(5);
    expect(extras.scansPlanned).toBe(10);
    expect((extras.scans as unknown[]).length).toBe(10);
    const classes = new Set(subgroups.map((s) => JSON.stringify(s.conditions[0])));
    expect(classes.size).toBeGreaterThan(1);
    for (const s of subgroups) {
      expect(s.pValue).toBeCloseTo(Math.min(1, (s.details.unadjustedPValue as number) * 10), 12);
    }
    // The women's negative scan finds the pregnant women (adjusted p = 10 · 0.1 = 1 at most with 9 resamples).
    const women = subgroups.find(
      (s) => s.conditions[0]!.attribute === 'sex' && s.details.scanDirection === 'negative',
    );
    expect(women?.conditions).toContainEqual({ attribute: 'pregnant', values: [1] });
  });
});
