import { createRng, type DiscoveryResult, inDomain, ModelError, OptionsError } from '@fb/core';
import { expectPairsInRegion, labelledSample, probabilityModel, regionSchema } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { LocalExplainer, rankOf } from '../src/explainer.js';
import { expga } from '../src/index.js';
import { blindModel, regionModel } from './fixtures.js';

interface Extras {
  explained: number;
  seeds: number;
  protectedRankHistogram: number[];
  generations: number;
  meanFitness: number;
}
const extrasOf = (r: DiscoveryResult) => r.extras as unknown as Extras;
const small = { globalSamples: 300, seeds: 50, limeSamples: 300, generations: 60, thresholdRank: 5 };

describe('expga on a planted discriminating region', () => {
  const dataset = labelledSample(regionModel);

  it.each(['probability', 'label'] as const)(
    '%s fitness: finds the region and reports only true pairs',
    async (fitness) => {
      const result = await expga.run({ dataset, model: regionModel }, { ...small, fitness }, { seed: 3 });
      expect(result.run.stopReason).toBe('completed');
      expect(extrasOf(result).seeds).toBe(50);
      expect(extrasOf(result).generations).toBe(60);
      // Uniform draws would hit the region 5 % of the time; the GA concentrates on it.
      expect(result.metrics.dsn).toBeGreaterThan(0);
      expect(result.metrics.sur).toBeGreaterThan(0.2);
      expectPairsInRegion(result, regionModel);
    },
  );

  it('reports nothing on a model that ignores the protected attribute', async () => {
    const result = await expga.run({ dataset: labelledSample(blindModel), model: blindModel }, small, {
      seed: 3,
    });
    expect(result.metrics.dsn).toBe(0);
    expect(result.metrics.tsn).toBeGreaterThan(0);
  });

  it('needs predictProba for the probability fitness only', async () => {
    const { predictProba: _, ...labelsOnly } = regionModel;
    await expect(expga.run({ dataset, model: labelsOnly }, small)).rejects.toThrow(ModelError);
    const result = await expga.run(
      { dataset, model: labelsOnly },
      { ...small, fitness: 'label' },
      { seed: 1 },
    );
    expect(result.metrics.tsn).toBeGreaterThan(0);
  });
});

describe('explanation-guided seeds', () => {
  it('checks and reports the seeds found when the budget ends in the seed phase', async () => {
    // Every decision follows sex, so every seed is discriminatory. The seed phase alone would explain
    // a million candidates: the 0.3 s budget ends it.
    const bySex = probabilityModel('sex', (r) => 0.2 + 0.6 * r[0]!);
    const dataset = labelledSample(bySex);
    const result = await expga.run(
      { dataset, model: bySex },
      { globalSamples: 1_000_000, seeds: 1_000_000, limeSamples: 300, thresholdRank: 1 },
      { seed: 4, budget: { maxSeconds: 0.3 } },
    );
    expect(result.run.stopReason).toBe('time-budget');
    expect(extrasOf(result).generations).toBe(0);
    expect(extrasOf(result).seeds).toBeGreaterThan(0);
    // Every distinct seed is a discriminatory sample (before, none was checked: DSN 0).
    expect(result.metrics.dsn).toBeGreaterThan(0);
    expect(result.metrics.dsn).toBeLessThanOrEqual(extrasOf(result).seeds);
  });

  it('keeps its explanations within a query budget and leaves enough of it to check the seeds', async () => {
    // One explanation batch would send 54 candidates x 300 perturbations = 16,200 rows at once.
    const bySex = probabilityModel('sex', (r) => 0.2 + 0.6 * r[0]!);
    const dataset = labelledSample(bySex);
    const result = await expga.run(
      { dataset, model: bySex },
      { globalSamples: 1_000_000, seeds: 1_000_000, limeSamples: 300, thresholdRank: 1 },
      { seed: 4, budget: { maxQueries: 5000 } },
    );
    expect(result.run.stopReason).toBe('query-budget');
    expect(result.metrics.distinctQueries).toBeLessThanOrEqual(5000);
    // Each explanation takes 300 queries and each seed's check 2: at most 5000 / 302 candidates.
    expect(extrasOf(result).seeds).toBeGreaterThan(10);
    expect(extrasOf(result).seeds).toBeLessThanOrEqual(Math.floor(5000 / 302));
    // Every seed kept is checked and discriminatory (distinct seeds count once).
    expect(result.metrics.dsn).toBe(result.metrics.tsn);
    expect(result.metrics.tsn).toBeGreaterThan(10);
  });

  it('keeps the candidates whose explanation ranks the protected attribute high enough', async () => {
    // The score depends on sex only: sex ranks first in every explanation.
    const bySex = probabilityModel('sex', (r) => 0.2 + 0.6 * r[0]!);
    const dataset = labelledSample(bySex);
    const opts = { globalSamples: 40, seeds: 100, limeSamples: 300, generations: 0, thresholdRank: 1 };
    const biased = extrasOf(await expga.run({ dataset, model: bySex }, opts, { seed: 2 }));
    expect(biased.explained).toBe(40);
    expect(biased.seeds).toBe(40);
    expect(biased.protectedRankHistogram[0]).toBe(40);
    // The blind model's score ignores sex: it never ranks first, and no candidate is kept.
    const blind = extrasOf(
      await expga.run({ dataset: labelledSample(blindModel), model: blindModel }, opts, { seed: 2 }),
    );
    expect(blind.seeds).toBe(0);
    expect(blind.protectedRankHistogram[0]).toBe(0);
  });

  it('stops explaining once enough seeds are found', async () => {
    const dataset = labelledSample(regionModel);
    const r = await expga.run(
      { dataset, model: regionModel },
      {
        globalSamples: 1000,
        seeds: 7,
        limeSamples: 100,
        generations: 0,
        thresholdRank: 5,
        seedSource: 'data',
      },
      { seed: 2 },
    );
    expect(extrasOf(r).explained).toBe(7);
    expect(extrasOf(r).seeds).toBe(7);
  });

  it('explains a linear score by its dominant attribute, from perturbations inside the domain', () => {
    const model = probabilityModel('b', (r) => 1 / (1 + Math.exp(-(r[2]! - 10) / 2)));
    const dataset = labelledSample(model);
    const explainer = new LocalExplainer(dataset, 500, 1);
    const rng = createRng('lime');
    const input = Float64Array.from([1, 30, 9, 0.5, 2]);
    const rows = new Float64Array(500 * 5);
    explainer.perturb(rng, input, 0, rows, 0);
    expect(Array.from(rows.subarray(0, 5))).toEqual(Array.from(input));
    for (let s = 0; s < 500; s++)
      for (let j = 0; j < 5; j++) expect(inDomain(regionSchema.attributes[j]!, rows[s * 5 + j]!)).toBe(true);
    const proba = model.predictProba!(rows);
    const score = Float64Array.from({ length: 500 }, (_, s) => proba[2 * s + 1]!);
    const coef = explainer.explain(rows, 0, score, 0)!;
    expect(rankOf(coef, 2)).toBe(0);
    expect(coef[2]).toBeGreaterThan(0);
  });
});

describe('options', () => {
  it('documents the original defaults and rejects unknown options', () => {
    expect(expga.resolveOptions()).toEqual({
      globalSamples: 1000,
      seeds: 100,
      seedSource: 'domain',
      thresholdRank: 7,
      limeSamples: 5000,
      ridgeAlpha: 1,
      generations: 1000,
      crossoverRate: 0.9,
      mutationRate: 0.05,
      fitness: 'probability',
      referenceOperators: false,
      variantMode: 'all-combinations',
    });
    expect(() => expga.resolveOptions({ mutation: 0.1 } as never)).toThrow(OptionsError);
    expect(() => expga.resolveOptions({ crossoverRate: 2 })).toThrow(OptionsError);
  });
});
