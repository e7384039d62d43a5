import { type DiscoveryResult, ModelError, OptionsError, reproducibleView } from '@fb/core';
import { expectPairsInRegion, inRegion } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { adf, adfPresets } from '../src/index.js';
import { A, bandModel, blindModel, datasetFor, regionModel, SEX } from './fixtures.js';

interface Extras {
  seedsUsed: number;
  globalTested: number;
  globalDiscriminatory: number;
  localTested: number;
  localDiscriminatory: number;
  localWalks: number;
  meanIterationsToDiscriminate: number | null;
  seeds: number;
  clusterSizes: number[];
  gradientRows: number;
  refinement: string;
}
const extrasOf = (r: DiscoveryResult) => r.extras as unknown as Extras;
const pairsOf = (r: DiscoveryResult) => (r.findings.kind === 'individual' ? r.findings.pairs : []);
const small = { maxGlobal: 150, maxLocal: 150 };

describe('adf on a planted discriminating region', () => {
  const dataset = datasetFor(regionModel);

  it('the fixture model flips with sex exactly inside the region (brute force over the grid)', () => {
    const rows: number[] = [];
    for (let a = 0; a <= 99; a++)
      for (let b = 0; b <= 19; b++) for (const c of [0, 1]) rows.push(0, a, b, c, 0, 1, a, b, c, 0);
    const labels = regionModel.predict(Float64Array.from(rows));
    let k = 0;
    for (let a = 0; a <= 99; a++)
      for (let b = 0; b <= 19; b++)
        for (const _c of [0, 1]) {
          expect(labels[k]! !== labels[k + 1]!).toBe(inRegion([0, a, b]));
          k += 2;
        }
  });

  it.each(['none', 'eidig'] as const)(
    'refinement %s: finds pairs, all true and inside the region',
    async (refinement) => {
      const result = await adf.run({ dataset, model: regionModel }, { ...small, refinement }, { seed: 1 });
      const pairs = pairsOf(result);
      const x = extrasOf(result);
      expect(result.metrics.dsn).toBeGreaterThan(20);
      expectPairsInRegion(result, regionModel);
      for (const p of pairs) {
        p.sample.forEach((v, j) => {
          if (j !== SEX) expect(p.counterfactual[j]).toBe(v);
        });
      }
      expect(x.globalTested + x.localTested).toBe(result.metrics.tsn);
      expect(x.globalDiscriminatory + x.localDiscriminatory).toBe(result.metrics.dsn);
      expect(x.localWalks).toBe(x.globalDiscriminatory);
      // The local walks stay near the region: their success rate is far above its 5 % share of the domain.
      expect(x.localDiscriminatory / x.localTested).toBeGreaterThan(0.2);
      expect(x.refinement).toBe(refinement);
    },
  );

  it('takes at most maxGlobal seeds, round-robin over clusters covering the data', async () => {
    const result = await adf.run(
      { dataset, model: regionModel },
      { maxGlobal: 50, maxLocal: 0 },
      { seed: 2 },
    );
    const x = extrasOf(result);
    expect(x.seeds).toBe(50);
    expect(x.seedsUsed).toBe(50);
    expect(x.clusterSizes).toHaveLength(4);
    expect(x.clusterSizes.reduce((s, v) => s + v, 0)).toBe(dataset.n);
    expect(x.localTested).toBe(0);
    const all = await adf.run(
      { dataset, model: regionModel },
      { maxGlobal: 10_000, maxLocal: 0 },
      { seed: 2 },
    );
    expect(extrasOf(all).seeds).toBe(dataset.n);
    // EIDIG takes the whole data unclustered when maxGlobal covers it, as its original does.
    const eidig = await adf.run(
      { dataset, model: regionModel },
      { maxGlobal: 10_000, maxLocal: 0, refinement: 'eidig' },
      { seed: 2 },
    );
    expect(extrasOf(eidig).seeds).toBe(dataset.n);
    expect(extrasOf(eidig).clusterSizes).toEqual([]);
  });
});

describe('adf global phase follows the gradient to the boundary', () => {
  // Seeds lie at a in 30..40, f and m alike; discrimination only at 48 <= a <= 51.
  const dataset = datasetFor(bandModel, 200, [30, 40]);

  it('reaches the discriminating band from seeds outside it', async () => {
    const still = await adf.run({ dataset, model: bandModel }, { maxLocal: 0, maxIter: 0 }, { seed: 3 });
    expect(still.metrics.dsn).toBe(0);
    const moving = await adf.run({ dataset, model: bandModel }, { maxLocal: 0, maxIter: 20 }, { seed: 3 });
    const x = extrasOf(moving);
    expect(moving.metrics.dsn).toBeGreaterThan(0);
    // Each seed moves one unit of a per step towards a = 48, so at least 8 steps are needed.
    expect(x.meanIterationsToDiscriminate!).toBeGreaterThanOrEqual(8);
    for (const p of pairsOf(moving)) {
      expect(p.sample[A]).toBeGreaterThanOrEqual(48);
      expect(p.sample[A]).toBeLessThanOrEqual(51);
    }
  });

  it('with momentum (eidig) too', async () => {
    const result = await adf.run(
      { dataset, model: bandModel },
      { maxLocal: 0, maxIter: 20, refinement: 'eidig' },
      { seed: 3 },
    );
    expect(result.metrics.dsn).toBeGreaterThan(0);
  });
});

describe('adf on a model blind to the protected attribute', () => {
  it('finds no discriminatory input', async () => {
    const dataset = datasetFor(blindModel);
    for (const refinement of ['none', 'eidig'] as const) {
      const result = await adf.run({ dataset, model: blindModel }, { ...small, refinement }, { seed: 4 });
      expect(result.metrics.tsn).toBeGreaterThan(0);
      expect(result.metrics.dsn).toBe(0);
      expect(extrasOf(result).localWalks).toBe(0);
    }
  });
});

describe('adf runs', () => {
  const dataset = datasetFor(regionModel);

  it('is reproducible for a seed and varies with it', async () => {
    const a = await adf.run({ dataset, model: regionModel }, small, { seed: 11 });
    const b = await adf.run({ dataset, model: regionModel }, small, { seed: 11 });
    const c = await adf.run({ dataset, model: regionModel }, small, { seed: 12 });
    expect(reproducibleView(b)).toEqual(reproducibleView(a));
    expect(pairsOf(c).map((p) => p.sample)).not.toEqual(pairsOf(a).map((p) => p.sample));
  });

  it('gives the same findings whatever the batch size when walks cannot interact', async () => {
    // Without local walks, seeds never share candidates, so lockstep batching cannot change the result.
    const one = await adf.run({ dataset, model: regionModel }, { maxLocal: 0, batchSize: 1 }, { seed: 5 });
    const many = await adf.run({ dataset, model: regionModel }, { maxLocal: 0, batchSize: 97 }, { seed: 5 });
    expect(new Set(pairsOf(many).map((p) => p.sample.join()))).toEqual(
      new Set(pairsOf(one).map((p) => p.sample.join())),
    );
  });

  it('never tests more than budget.maxTested', async () => {
    const result = await adf.run({ dataset, model: regionModel }, small, {
      seed: 6,
      budget: { maxTested: 333 },
    });
    expect(result.metrics.tsn).toBe(333);
    expect(result.run.stopReason).toBe('tested-budget');
  });

  it('runs the clearbias preset (fractional steps accumulate instead of stalling)', async () => {
    const result = await adf.run(
      { dataset, model: regionModel },
      { ...adfPresets.clearbias, maxGlobal: 100, maxLocal: 100 },
      { seed: 7 },
    );
    expect(extrasOf(result).clusterSizes).toHaveLength(10);
    expect(result.metrics.dsn).toBeGreaterThan(0);
    for (const p of pairsOf(result)) expect(inRegion(p.sample)).toBe(true);
  });

  it('rejects a model without gradients and documents the original defaults', async () => {
    const blackBox = { nFeatures: 5, nClasses: 2, predict: (x: Float64Array) => regionModel.predict(x) };
    await expect(adf.run({ dataset, model: blackBox }, small)).rejects.toThrow(ModelError);
    expect(adf.resolveOptions()).toMatchObject({ ...adfPresets.original, maxIter: 10, refinement: 'none' });
    expect(() => adf.resolveOptions({ max_global: 5 } as never)).toThrow(OptionsError);
  });
});
