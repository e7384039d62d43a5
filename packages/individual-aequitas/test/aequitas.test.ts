import {
  createDataset,
  DataSupport,
  type DiscoveryResult,
  defineSchema,
  OptionsError,
  reproducibleView,
} from '@fb/core';
import { blindModel, expectPairsInRegion, probabilityModel, regionModel, regionSchema } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { aequitas } from '../src/index.js';
import { datasetFor, raceModel, raceSchema, SEX } from './fixtures.js';

const dataset = datasetFor();
const small = { globalIterations: 1000, localIterations: 200 };

interface Extras {
  globalTested: number;
  globalDiscriminatory: number;
  localTested: number;
  localDiscriminatory: number;
  localWalks: number;
  strategy: string;
  attributeProbability: Record<string, number> | null;
}
const extrasOf = (r: DiscoveryResult) => r.extras as unknown as Extras;
const pairsOf = (r: DiscoveryResult) => (r.findings.kind === 'individual' ? r.findings.pairs : []);

describe('aequitas on a planted discriminating region', () => {
  it.each(['random', 'semi-directed', 'fully-directed'] as const)(
    '%s: reports only true pairs, all inside the region',
    async (strategy) => {
      const result = await aequitas.run({ dataset, model: regionModel }, { ...small, strategy }, { seed: 1 });
      const pairs = pairsOf(result);
      expect(result.metrics.dsn).toBeGreaterThan(0);
      // One binary protected attribute: each discriminatory sample has exactly one flipping twin.
      expectPairsInRegion(result, regionModel);
      const keys = new Set(pairs.map((p) => p.sample.slice(1).join(',')));
      expect(keys.size).toBe(pairs.length);
      for (const p of pairs) {
        p.sample.forEach((v, j) => {
          if (j !== SEX) expect(p.counterfactual[j]).toBe(v);
        });
        expect(p.counterfactual[SEX]).not.toBe(p.sample[SEX]);
        expect(p.changed).toEqual(['sex']);
      }
    },
  );

  it('splits TSN and DSN between the two phases', async () => {
    const result = await aequitas.run({ dataset, model: regionModel }, small, { seed: 2 });
    const x = extrasOf(result);
    expect(x.globalTested + x.localTested).toBe(result.metrics.tsn);
    expect(x.globalDiscriminatory + x.localDiscriminatory).toBe(result.metrics.dsn);
    // The continuous attribute makes every uniform draw a new sample.
    expect(x.globalTested).toBe(small.globalIterations);
    expect(x.localWalks).toBe(x.globalDiscriminatory);
    expect(x.strategy).toBe('fully-directed');
  });

  it.each(['random', 'semi-directed', 'fully-directed'] as const)(
    '%s: the local phase raises the success rate over the global phase',
    async (strategy) => {
      const globalOnly = await aequitas.run(
        { dataset, model: regionModel },
        { ...small, strategy, localIterations: 0 },
        { seed: 3 },
      );
      const full = await aequitas.run({ dataset, model: regionModel }, { ...small, strategy }, { seed: 3 });
      const x = extrasOf(full);
      // The region covers 5 % of the domain; uniform sampling should land near that rate.
      expect(globalOnly.metrics.sur).toBeGreaterThan(0.02);
      expect(globalOnly.metrics.sur).toBeLessThan(0.09);
      expect(x.localDiscriminatory / x.localTested).toBeGreaterThan(3 * globalOnly.metrics.sur);
      expect(full.metrics.sur).toBeGreaterThan(2 * globalOnly.metrics.sur);
      expect(full.metrics.dsn).toBeGreaterThan(globalOnly.metrics.dsn);
    },
  );

  it('greedy acceptance keeps the walks inside the region more than metropolis', async () => {
    const run = (acceptance: 'greedy' | 'metropolis') =>
      aequitas.run({ dataset, model: regionModel }, { ...small, acceptance }, { seed: 4 });
    const greedy = extrasOf(await run('greedy'));
    const metropolis = extrasOf(await run('metropolis'));
    expect(greedy.localDiscriminatory / greedy.localTested).toBeGreaterThan(
      metropolis.localDiscriminatory / metropolis.localTested,
    );
  });

  it('fully-directed learns attribute weights that form a distribution', async () => {
    const result = await aequitas.run({ dataset, model: regionModel }, small, { seed: 5 });
    const w = extrasOf(result).attributeProbability!;
    expect(Object.keys(w).sort()).toEqual(['a', 'b', 'c', 'colour']);
    const values = Object.values(w);
    for (const v of values) expect(v).toBeGreaterThanOrEqual(0);
    expect(values.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 9);
    const semi = await aequitas.run(
      { dataset, model: regionModel },
      { ...small, strategy: 'semi-directed' },
      { seed: 5 },
    );
    expect(extrasOf(semi).attributeProbability).toBeNull();
  });
});

describe('aequitas on models without the planted bias', () => {
  it('finds nothing when the model ignores the protected attribute', async () => {
    const result = await aequitas.run(
      { dataset: datasetFor(regionSchema, blindModel), model: blindModel },
      small,
      {
        seed: 6,
      },
    );
    expect(result.metrics.tsn).toBe(small.globalIterations);
    expect(result.metrics.dsn).toBe(0);
    expect(result.metrics.pairs).toBe(0);
    expect(extrasOf(result).localTested).toBe(0);
  });

  it('checks every protected value, not only 0 against 1', async () => {
    const ds = datasetFor(raceSchema, raceModel);
    const result = await aequitas.run(
      { dataset: ds, model: raceModel },
      { globalIterations: 300, localIterations: 20 },
    );
    const pairs = pairsOf(result);
    expect(result.metrics.dsn).toBeGreaterThan(0);
    for (const p of pairs) {
      // Only a change to or from race 4 can flip this model, and only when a <= 50.
      expect(p.sample[0] === 4 || p.counterfactual[0] === 4).toBe(true);
      expect(p.sample[1]).toBeLessThanOrEqual(50);
    }
    // Race 0 against race 1 never flips, so a binary 0-vs-1 check would report nothing.
    expect(
      pairs.some(
        (p) => (p.sample[0] === 0 && p.counterfactual[0] === 1) || p.sample[0] + p.counterfactual[0] === 1,
      ),
    ).toBe(false);
  });
});

describe('aequitas runs', () => {
  it('is reproducible for a seed and varies with it', async () => {
    const a = await aequitas.run({ dataset, model: regionModel }, small, { seed: 11 });
    const b = await aequitas.run({ dataset, model: regionModel }, small, { seed: 11 });
    const c = await aequitas.run({ dataset, model: regionModel }, small, { seed: 12 });
    expect(reproducibleView(b)).toEqual(reproducibleView(a));
    expect(pairsOf(c).map((p) => p.sample)).not.toEqual(pairsOf(a).map((p) => p.sample));
  });

  it.each([150, 1000 + 40])('never tests more than budget.maxTested = %i', async (maxTested) => {
    const result = await aequitas.run({ dataset, model: regionModel }, small, {
      seed: 7,
      budget: { maxTested },
    });
    expect(result.metrics.tsn).toBe(maxTested);
    expect(result.run.stopReason).toBe('tested-budget');
  });

  it('never sends more distinct queries than budget.maxQueries', async () => {
    const result = await aequitas.run({ dataset, model: regionModel }, small, {
      seed: 8,
      budget: { maxQueries: 501 },
    });
    expect(result.metrics.distinctQueries).toBeLessThanOrEqual(501);
    expect(result.metrics.tsn).toBeGreaterThan(0);
  });

  it('tests the single possible sample when every attribute is protected', async () => {
    const onlySex = defineSchema({
      attributes: [regionSchema.attributes[SEX]!],
      outcome: regionSchema.outcome,
    });
    const model = { nFeatures: 1, nClasses: 2, predict: (x: Float64Array) => Int32Array.from(x) };
    const ds = createDataset({ schema: onlySex, x: [0, 1], y: [0, 1] });
    const result = await aequitas.run({ dataset: ds, model }, small);
    expect(result.metrics.tsn).toBe(1);
    expect(result.metrics.dsn).toBe(1);
    expect(extrasOf(result).localWalks).toBe(0);
  });

  it('stops at once on an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await aequitas.run({ dataset, model: regionModel }, small, { signal: controller.signal });
    expect(result.run.stopReason).toBe('aborted');
    expect(result.metrics.tsn).toBe(0);
  });

  it('documents the original defaults and rejects unknown options', () => {
    const o = aequitas.resolveOptions();
    expect(o).toMatchObject({
      globalIterations: 1000,
      localIterations: 1000,
      strategy: 'fully-directed',
      perturbationUnit: 1,
      deltaV: 0.001,
      deltaPr: 0.001,
      acceptance: 'metropolis',
      temperature: 1,
      variantMode: 'all-combinations',
    });
    expect(() => aequitas.resolveOptions({ globalIteration: 5 } as never)).toThrow(OptionsError);
    expect(() => aequitas.resolveOptions({ strategy: 'directed' } as never)).toThrow(OptionsError);
  });
});

describe('aequitas discrimination threshold gamma', () => {
  // Sex moves the approval probability by 0.1 everywhere, but it stays below 0.5: no decision changes.
  const shift = probabilityModel('sex-shift', (r) => 0.2 + 0.002 * r[1]! + 0.1 * r[0]!);
  const data = datasetFor(regionSchema, shift);

  it("counts changed decisions at the seed's 0 and probability gaps above gamma", async () => {
    const run = (gamma?: number) =>
      aequitas.run(
        { dataset: data, model: shift },
        { ...small, ...(gamma === undefined ? {} : { gamma }) },
        { seed: 3 },
      );
    const flips = await run();
    expect(flips.method.options.gamma).toBe(0);
    expect(flips.metrics.dsn).toBe(0);
    const gaps = await run(0.05);
    expect(gaps.metrics.tsn).toBeGreaterThan(100);
    expect(gaps.metrics.dsn).toBe(gaps.metrics.tsn);
    expect((await run(0.2)).metrics.dsn).toBe(0);
  });

  it('refuses gamma >= 1 and a threshold on a model without probabilities', async () => {
    await expect(aequitas.run({ dataset: data, model: shift }, { gamma: 1 })).rejects.toThrow(OptionsError);
    await expect(aequitas.run({ dataset, model: regionModel }, { gamma: 0.1 })).rejects.toThrow(
      /predictProba/,
    );
  });
});

describe('aequitas global inputs from the rows', () => {
  it('draws every global input from the data set (only protected values differ in its variants); the domain draws do not', async () => {
    const rowKeys = new Set<string>();
    for (let i = 0; i < dataset.n; i++) {
      const row = Array.from(dataset.x.subarray(i * dataset.d, (i + 1) * dataset.d));
      rowKeys.add(row.filter((_, j) => j !== SEX).join(','));
    }
    const asked = async (globalInputs: 'rows' | 'domain') => {
      const seen: string[] = [];
      const model = {
        ...regionModel,
        nFeatures: regionModel.nFeatures,
        nClasses: regionModel.nClasses,
        predict: (x: Float64Array) => {
          for (let i = 0; i < x.length / dataset.d; i++) {
            seen.push(
              Array.from(x.subarray(i * dataset.d, (i + 1) * dataset.d))
                .filter((_, j) => j !== SEX)
                .join(','),
            );
          }
          return regionModel.predict(x);
        },
      };
      await aequitas.run(
        { dataset, model },
        { globalIterations: 300, localIterations: 0, globalInputs },
        { seed: 3 },
      );
      return seen;
    };
    const fromRows = await asked('rows');
    expect(fromRows.length).toBeGreaterThan(0);
    expect(fromRows.every((k) => rowKeys.has(k))).toBe(true);
    // Uniform draws on the domain leave the rows' support: most are unlike any row.
    const fromDomain = await asked('domain');
    expect(fromDomain.filter((k) => rowKeys.has(k)).length).toBeLessThan(fromDomain.length / 2);
  });

  it("keeps the paper's domain draws by default, to the byte", async () => {
    const a = await aequitas.run({ dataset, model: regionModel }, small, { seed: 5 });
    const b = await aequitas.run(
      { dataset, model: regionModel },
      { ...small, globalInputs: 'domain' },
      { seed: 5 },
    );
    expect(reproducibleView(b)).toEqual(reproducibleView(a));
  });
});

describe('aequitas local moves within the data’s support', () => {
  // education (held 0, 4, 8, 12) and education-num (= education + 1) determine each other; hours
  // takes even values 20-60; the model discriminates by sex from education 8 on.
  const schema = defineSchema({
    attributes: [
      { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
      { name: 'education', kind: 'ordinal', protected: false, min: 0, max: 15, step: 1 },
      { name: 'education-num', kind: 'ordinal', protected: false, min: 1, max: 16, step: 1 },
      { name: 'hours', kind: 'ordinal', protected: false, min: 0, max: 99, step: 1 },
    ],
    outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
  });
  const rows = Array.from({ length: 400 }, (_, i) => {
    const education = 4 * (i % 4);
    return [(i >> 2) % 2, education, education + 1, 20 + 2 * (i % 21)];
  });
  const data = createDataset({ schema, x: rows.flat(), y: rows.map((_, i) => (i >> 3) % 2) });
  const support = new DataSupport(data);
  const asked = async (localMoves: 'support' | 'domain') => {
    const inputs: number[][] = [];
    const model = {
      nFeatures: 4,
      nClasses: 2,
      predict: (x: Float64Array) => {
        const out = new Int32Array(x.length / 4);
        for (let i = 0; i < out.length; i++) {
          const r = Array.from(x.subarray(4 * i, 4 * i + 4));
          inputs.push(r);
          out[i] = r[1]! >= 8 && r[0] === 1 ? 1 : 0;
        }
        return out;
      },
    };
    const result = await aequitas.run(
      { dataset: data, model },
      { globalIterations: 50, localIterations: 100, globalInputs: 'rows', localMoves },
      { seed: 2 },
    );
    return { inputs, result };
  };

  it('asks the model only about inputs the rows support, and its local walks still find pairs', async () => {
    const { inputs, result } = await asked('support');
    expect(support.dependencies.map((d) => `${d.from}->${d.to}`).sort()).toEqual(['1->2', '2->1']);
    expect(extrasOf(result).localTested).toBeGreaterThan(0);
    expect(extrasOf(result).localDiscriminatory).toBeGreaterThan(0);
    expect(inputs.filter((r) => !support.contains(r))).toEqual([]);
    for (const p of pairsOf(result)) {
      expect(support.contains(p.sample) && support.contains(p.counterfactual)).toBe(true);
    }
  });

  it('leaves the support with the paper’s unit moves from the same rows', async () => {
    const { inputs } = await asked('domain');
    // Education 9 with education-num 9, hours 41: unit moves break both rules.
    expect(inputs.filter((r) => !support.contains(r)).length).toBeGreaterThan(inputs.length / 2);
  });
});
