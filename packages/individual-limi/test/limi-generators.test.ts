import { CountingClassifier, createRng, RunController } from '@fb/core';
import { fitLinearSvmArrays } from '@fb/models';
import { probabilityModel } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { duplicationWeights, fitLatentBoundary, mostConfident } from '../src/boundary.js';
import type { LatentGenerator } from '../src/generator.js';
import { fitLimiGenerator, limi } from '../src/index.js';
import { boundaryBiasModel, categoricalData, correlatedData } from './fixtures.js';

describe('the surrogate boundary keeps the most confident samples, as the original', () => {
  it('ranks by confidence, largest first, ties in draw order', () => {
    expect(Array.from(mostConfident(Float64Array.of(0.9, 0.75, 0.99, 0.8, 0.99), 3))).toEqual([2, 4, 0]);
    expect(Array.from(mostConfident(Float64Array.of(0.8, 0.9), 5))).toEqual([1, 0]);
  });

  it('duplicates the smaller class by cycling through it, most confident first', () => {
    // Python's `for item in small: small.append(item)` until 8 long: a b c a b c a b.
    expect(Array.from(duplicationWeights(3, 8))).toEqual([3, 3, 2]);
    expect(Array.from(duplicationWeights(4, 4))).toEqual([1, 1, 1, 1]);
  });

  it('fits the squared-hinge SVM on the most confident samples, not the first ones', async () => {
    // A one-dimensional latent space decoding to itself; P(favourable) = sigmoid(2z).
    const draws = [0.4, 0.6, 2.1, 0.5, 1.6, -0.45, 0.1, -0.7, -2.4, -1.1];
    const generator: LatentGenerator = {
      k: 1,
      kind: 'pca',
      sampleLatent: (_rng, m) => Float64Array.from(draws.slice(0, m)),
      decode: (z, m) => Float64Array.from(z.subarray(0, m)),
    };
    const model = new CountingClassifier(
      probabilityModel('sigmoid', (r) => 1 / (1 + Math.exp(-2 * r[0]!)), 1),
    );
    const fitted = await fitLatentBoundary(
      generator,
      model,
      1,
      {
        samples: draws.length,
        maxQueries: null,
        confidence: 0.7,
        perClassLimit: 2,
        c: 1,
        loss: 'squared-hinge',
        maxIter: 100000,
      },
      createRng('unused'),
      new RunController({ seed: 1 }),
    );
    // Confident (probability > 0.7, |z| > 0.424): favourable 0.6, 2.1, 0.5, 1.6; unfavourable -0.45,
    // -0.7, -2.4, -1.1. The two most confident of each: 2.1, 1.6 and -2.4, -1.1 (the first two would
    // be 0.6, 2.1 and -0.45, -0.7).
    expect(fitted!.stats).toMatchObject({ confidentFavourable: 4, confidentUnfavourable: 4, favourable: 2 });
    const x = Float64Array.of(-2.4, -1.1, 2.1, 1.6);
    const y = Int32Array.of(0, 0, 1, 1);
    const expected = fitLinearSvmArrays(x, 1, y, { loss: 'squared-hinge', tol: 1e-12, maxIter: 100000 });
    const plane = fitted!.plane!;
    // The plane is normalised to |w| = 1: its offset b/|w| places the boundary.
    expect(plane.w[0]).toBe(1);
    expect(plane.b).toBeCloseTo(expected.bias / Math.abs(expected.weights[0]!), 3);
    const first = fitLinearSvmArrays(Float64Array.of(-0.45, -0.7, 0.6, 2.1), 1, y, { loss: 'squared-hinge' });
    expect(Math.abs(plane.b - first.bias / first.weights[0]!)).toBeGreaterThan(0.05);
  });
});

describe('the TVAE generator', () => {
  // Ten categorical attributes, 800 rows: the kind of data on which the plain VAE decoded few distinct rows.
  const dataset = categoricalData();

  it('decodes diverse rows at the distance of real rows from the data', async () => {
    const fitted = await fitLimiGenerator(dataset, { generator: 'tvae', trainSteps: 400 }, 1);
    const { diversity, naturalness } = fitted.checks;
    expect(diversity.latentSamples).toBe(10000);
    // Floor: a fifth of the latent samples decode to distinct rows (at most 11,520,000 rows exist).
    expect(diversity.distinctRows).toBeGreaterThan(2000);
    // Natural: closer to the training rows than uniform inputs, and not copies of them (held-out rows
    // are the real-data baseline).
    expect(naturalness.heldOutInTraining).toBe(false);
    expect(naturalness.generated).toBeLessThan(naturalness.uniform);
    expect(naturalness.generated).toBeGreaterThan(0.5 * naturalness.heldOut!);
    expect(fitted.lossPerEpoch!.at(-1)!).toBeLessThan(fitted.lossPerEpoch![0]!);
    // Latent vectors are noise followed by the condition vector (one block per categorical attribute).
    expect(fitted.generator.k).toBe(10 + 2 + 3 + 4 + 5 + 2 + 3 + 4 + 5 + 2 + 3);
  }, 120_000);

  it('is the same, byte for byte, for the same seed', async () => {
    const a = await fitLimiGenerator(dataset, { generator: 'tvae', trainSteps: 30 }, 7);
    const b = await fitLimiGenerator(dataset, { generator: 'tvae', trainSteps: 30 }, 7);
    expect(b.checks).toEqual(a.checks);
    const z = a.generator.sampleLatent(createRng('z'), 50);
    expect(b.generator.decode(z, 50)).toEqual(a.generator.decode(z, 50));
  });

  it('fits mode-specific encodings of numeric attributes and finds pairs', async () => {
    const data = correlatedData(boundaryBiasModel);
    const result = await limi.run(
      { dataset: data, model: boundaryBiasModel },
      { trainSteps: 200, boundarySamples: 5000, maxTested: 3000 },
      { seed: 3 },
    );
    const generator = result.extras.generator as { kind: string; modes: Record<string, number> };
    expect(generator.kind).toBe('tvae');
    // a, b and c are numeric: each has between 1 and 10 modes.
    expect(Object.keys(generator.modes)).toEqual(['a', 'b', 'c']);
    for (const m of Object.values(generator.modes)) expect(m).toBeGreaterThanOrEqual(1);
    expect(result.metrics.dsn).toBeGreaterThan(0);
  }, 60_000);
});

describe('phases sized by model queries', () => {
  it('spends at most boundaryShare of the query budget on the boundary and stops on the query budget', async () => {
    const dataset = correlatedData(boundaryBiasModel);
    const result = await limi.run(
      { dataset, model: boundaryBiasModel },
      { generator: 'pca' },
      { seed: 11, budget: { maxQueries: 20000 } },
    );
    const boundary = result.extras.boundary as { queries: number; sampled: number };
    expect(boundary.queries).toBeLessThanOrEqual(2000);
    expect(boundary.queries).toBeGreaterThan(1900);
    expect(result.run.stopReason).toBe('query-budget');
    // Every tested input costs two distinct queries (itself and its sex twin): the budget is used up.
    expect(result.metrics.distinctQueries).toBeGreaterThan(19990);
    expect(result.metrics.distinctQueries).toBeLessThanOrEqual(20000);
    const half = await limi.run(
      { dataset, model: boundaryBiasModel },
      { generator: 'pca', boundaryShare: 0.05 },
      { seed: 11, budget: { maxQueries: 20000 } },
    );
    expect((half.extras.boundary as { queries: number }).queries).toBeLessThanOrEqual(1000);
  });
});
