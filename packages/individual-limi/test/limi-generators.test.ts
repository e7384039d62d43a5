import { CountingClassifier, createRng, RunController } from '@fb/core';
import { fitLinearSvmArrays, fitLogisticRegression } from '@fb/models';
import { probabilityModel } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { duplicationWeights, fitLatentBoundary, mostConfident } from '../src/boundary.js';
import type { LatentGenerator } from '../src/generator.js';
import { fitLimiGenerator, generatorOptions, limi, limiWith } from '../src/index.js';
import { probeCandidates } from '../src/probe.js';
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

describe('the TVAE, made faster, computes what it did', () => {
  // Recorded from the implementation that trained row by row and decoded every probe through the
  // decoder's whole first layer (before the typed-array batching): the losses of every pass, the
  // generator's checks and a whole search on the categorical data.
  it('trains to the same losses and checks, to the last bit', async () => {
    const numeric = await fitLimiGenerator(correlatedData(boundaryBiasModel), { trainSteps: 40 }, 5);
    expect(numeric.lossPerEpoch).toEqual([
      33.78892013271499, 27.844352106151216, 26.253795246273974, 25.75709530438016, 21.403532717722946,
      22.840072036206376, 21.230487842151746, 20.910141725089307, 19.029497247751195, 19.651268628151023,
      18.204746853099, 19.562093621240432, 18.275567007507526, 17.527176795658626, 17.819932735845555,
      17.19183406660543, 17.41603602966628, 17.349011349922495, 16.857422920272285, 16.066903877560307,
    ]);
    expect(numeric.checks.naturalness).toEqual({
      sample: 500,
      generated: 1.2942084970921104,
      heldOut: 0.22768161407429965,
      uniform: 1.1137072272576334,
      heldOutInTraining: false,
    });
    const data = categoricalData();
    const fitted = await fitLimiGenerator(data, { trainSteps: 40 }, 5);
    expect(fitted.lossPerEpoch).toEqual([
      23.01772512249727, 22.793142403548263, 22.698571596750003, 22.67232840847133, 22.611142973780307,
      22.509250411521563, 22.42517355665018, 22.357192597548774, 22.24093238355481, 22.0585486850631,
      21.846590250550992, 21.49737282323125, 21.07524689032573, 21.039690120754436,
    ]);
    expect(fitted.checks.naturalness).toEqual({
      sample: 500,
      generated: 1.1026819509053676,
      heldOut: 1.2946003380484803,
      uniform: 2.1223929498341936,
      heldOutInTraining: false,
    });
    const r = await limiWith(fitted).run(
      { dataset: data, model: fitLogisticRegression(data) },
      { boundarySamples: 3000, maxTested: 100000, maxLatentVectors: 20000 },
      { seed: 2 },
    );
    expect([r.metrics.tsn, r.metrics.dsn, r.metrics.distinctQueries, r.extras.candidates]).toEqual([
      1964, 138, 4030, 59794,
    ]);
    expect(r.extras.boundary).toMatchObject({
      queries: 647,
      svmIterations: 1885,
      surrogateAccuracy: 0.9968553459119497,
    });
  }, 60_000);

  it("decodes the probes through its first layer's linearity as the probes formed and decoded", async () => {
    for (const data of [categoricalData(), correlatedData(boundaryBiasModel)]) {
      const { generator } = await fitLimiGenerator(data, { trainSteps: 30 }, 2);
      const m = 500;
      const z = generator.sampleLatent(createRng('probe-z'), m);
      const rng = createRng('probe-plane');
      const w = Float64Array.from({ length: generator.k }, () => rng.normal());
      const norm = Math.hypot(...w);
      const plane = { w: w.map((v) => v / norm), b: 0.2 };
      const formed = probeCandidates(z, m, plane, 0.3);
      const prober = generator.prober!(plane, 0.3);
      prober.load(z, m);
      const all = Int32Array.from({ length: m }, (_, i) => i);
      for (const [side, name] of [
        [0, 'onBoundary'],
        [1, 'plus'],
        [-1, 'minus'],
      ] as const) {
        const direct = generator.decode(formed[name], m);
        const fast = prober.decode(side, all, m);
        // The same rows; a continuous value may differ in its last bits (another order of the sums).
        data.schema.attributes.forEach((a, j) => {
          for (let i = 0; i < m; i++) {
            const [u, v] = [fast[i * data.d + j]!, direct[i * data.d + j]!];
            if (a.kind === 'continuous') expect(Math.abs(u - v)).toBeLessThan(1e-12);
            else expect(u).toBe(v);
          }
        });
      }
      // A subset in another order decodes to the same rows.
      const sub = prober.decode(1, Int32Array.of(7, 3, 420), 3);
      const full = prober.decode(1, all, m);
      const d = data.d;
      expect(Array.from(sub)).toEqual(
        [7, 3, 420].flatMap((i) => Array.from(full.subarray(i * d, (i + 1) * d))),
      );
    }
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

describe('the options a generator fit depends on', () => {
  it('are the generator options with their defaults; the search options leave them alone', () => {
    const base = generatorOptions({});
    expect(base).toMatchObject({ generator: 'tvae', trainSteps: 1000 });
    // A run with another boundary share, budget or probing cap reuses the same fit.
    expect(
      generatorOptions({ boundarySamples: 500, boundaryShare: 0.3, maxTested: 10, lambda: 0.5 }),
    ).toEqual(base);
    expect(generatorOptions({ trainSteps: 10 })).not.toEqual(base);
    expect(generatorOptions({ generator: 'pca' })).toMatchObject({ generator: 'pca' });
  });
});
