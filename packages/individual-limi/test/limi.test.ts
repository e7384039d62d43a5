import {
  CountingClassifier,
  createDataset,
  createRng,
  DataError,
  type DiscoveryResult,
  defineSchema,
  OptionsError,
  RunController,
  reproducibleView,
} from '@fb/core';
import { describe, expect, it } from 'vitest';
import { fitLatentBoundary } from '../src/boundary.js';
import { TabularCodec } from '../src/codec.js';
import { fitLimiGenerator, limi, limiWith, type NaturalnessReport } from '../src/index.js';
import { fitPcaGenerator } from '../src/pca.js';
import { probeCandidates } from '../src/probe.js';
import { blindModel, boundaryBiasModel, correlatedData, logitModel } from './fixtures.js';

interface Extras {
  generator: { kind: string; latentDim: number; lossPerEpoch?: number[] };
  boundary: {
    favourable: number;
    unfavourable: number;
    surrogateAccuracy: number | null;
    svmConverged: boolean;
    svmIterations: number;
    svmStoppedBy: string | null;
  };
  tested: number;
  latentVectors: number;
  candidates: number;
  discriminatoryByProbe: { onBoundary: number; plus: number; minus: number };
  naturalness: NaturalnessReport;
}
const extrasOf = (r: DiscoveryResult) => r.extras as unknown as Extras;
const quick = { generator: 'pca' as const, boundarySamples: 5000, maxTested: 3000 };

describe('probe candidates', () => {
  it('project onto the hyperplane and step lambda along its unit normal (hand computation)', () => {
    const plane = { w: Float64Array.from([0.6, 0.8]), b: -1 };
    const { onBoundary, plus, minus } = probeCandidates(Float64Array.from([3, 4, 1, 0]), 2, plane, 0.3);
    // z = (3, 4): signed distance 0.6·3 + 0.8·4 - 1 = 4, z0 = z - 4w = (0.6, 0.8).
    expect(onBoundary[0]).toBeCloseTo(0.6, 12);
    expect(onBoundary[1]).toBeCloseTo(0.8, 12);
    expect(plus[0]).toBeCloseTo(0.78, 12);
    expect(plus[1]).toBeCloseTo(1.04, 12);
    expect(minus[0]).toBeCloseTo(0.42, 12);
    expect(minus[1]).toBeCloseTo(0.56, 12);
    // z = (1, 0): distance -0.4, z0 = (1.24, 0.32), on the plane.
    expect(0.6 * onBoundary[2]! + 0.8 * onBoundary[3]! - 1).toBeCloseTo(0, 12);
    expect(onBoundary[2]).toBeCloseTo(1.24, 12);
  });
});

describe('surrogate boundary on a known latent boundary', () => {
  // Three continuous attributes with wide bounds: the PCA decoder is affine there, so a linear model's
  // boundary in the latent space is exactly a hyperplane.
  const wide = defineSchema({
    attributes: [
      { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
      { name: 'u', kind: 'continuous', protected: false, min: -100, max: 100 },
      { name: 'v', kind: 'continuous', protected: false, min: -100, max: 100 },
      { name: 'w', kind: 'continuous', protected: false, min: -100, max: 100 },
    ],
    outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
  });
  const rng = createRng('wide');
  const n = 500;
  const x = new Float64Array(n * 4);
  for (let i = 0; i < n; i++) {
    const t = rng.normal();
    x.set([rng.int(0, 1), 3 * t + rng.normal(), -2 * t + rng.normal(0, 2), rng.normal(1, 4)], i * 4);
  }
  const logit = (r: ArrayLike<number>) => r[1]! + 2 * r[2]! - r[3]! + 0.5;
  const model = {
    nFeatures: 4,
    nClasses: 2,
    predict: (rows: Float64Array) =>
      Int32Array.from({ length: rows.length / 4 }, (_, i) =>
        logit(rows.subarray(4 * i, 4 * i + 4)) >= 0 ? 1 : 0,
      ),
  };
  const dataset = createDataset({ schema: wide, x, y: model.predict(x) });
  const codec = new TabularCodec(dataset);
  const generator = fitPcaGenerator(dataset, codec, 10);
  const k = generator.k;
  /** The model's logit along the latent space is affine: its gradient is the true boundary normal. */
  const latentLogit = (z: Float64Array) => logit(generator.decode(z, 1));
  // The surrogate boundary on 20,000 latent samples, under a run controller of the test's choosing.
  const fitUnder = (ctl: RunController) =>
    fitLatentBoundary(
      generator,
      new CountingClassifier(model),
      1,
      {
        samples: 20000,
        maxQueries: null,
        confidence: 0.7,
        perClassLimit: 50000,
        c: 1,
        loss: 'hinge',
        maxIter: 1000,
      },
      createRng('svm'),
      ctl,
    );

  it('recovers the normal of the true latent boundary and probes on it', async () => {
    expect(k).toBe(4); // sex's two one-hot columns are collinear
    const truth = new Float64Array(k);
    const origin = latentLogit(new Float64Array(k));
    for (let r = 0; r < k; r++) {
      const e = new Float64Array(k);
      e[r] = 1;
      truth[r] = latentLogit(e) - origin;
    }
    const norm = Math.hypot(...truth);
    const fitted = await fitUnder(new RunController({ seed: 1 }));
    const plane = fitted!.plane!;
    let cos = 0;
    for (let r = 0; r < k; r++) cos += (plane.w[r]! * truth[r]!) / norm;
    expect(cos).toBeGreaterThan(0.99);
    expect(fitted!.stats.surrogateAccuracy).toBeGreaterThan(0.99);

    const m = 200;
    const z = Float64Array.from({ length: m * k }, () => rng.normal());
    const { onBoundary, plus, minus } = probeCandidates(z, m, plane, 0.3);
    let onAbs = 0;
    let randomAbs = 0;
    let plusPositive = 0;
    let minusNegative = 0;
    for (let i = 0; i < m; i++) {
      onAbs += Math.abs(latentLogit(onBoundary.subarray(i * k, (i + 1) * k)));
      randomAbs += Math.abs(latentLogit(z.subarray(i * k, (i + 1) * k)));
      if (latentLogit(plus.subarray(i * k, (i + 1) * k)) > 0) plusPositive++;
      if (latentLogit(minus.subarray(i * k, (i + 1) * k)) < 0) minusNegative++;
    }
    // The logit changes by |truth| per latent unit: 0.3 along the normal moves it by about 0.3·|truth|.
    expect(onAbs / m).toBeLessThan(0.05 * (randomAbs / m));
    expect(onAbs / m).toBeLessThan(0.1 * norm);
    expect(plusPositive).toBe(m);
    expect(minusNegative).toBe(m);
  });

  it('stops the SVM after the pass that ends its half of the time left', async () => {
    // No time left when the fit starts: one pass, then the deadline has passed.
    class NoTimeLeft extends RunController {
      override remainingSeconds(): number {
        return 0;
      }
    }
    const cut = await fitUnder(new NoTimeLeft({ seed: 1 }));
    expect(cut!.stats.svmIterations).toBe(1);
    expect(cut!.stats.svmConverged).toBe(false);
    expect(cut!.stats.svmStoppedBy).toBe('time-budget');
    const full = await fitUnder(new RunController({ seed: 1 }));
    expect(full!.stats.svmIterations).toBe(1000);
    expect(full!.stats.svmStoppedBy).toBe('max-iter');
  });

  it('stops the SVM after the pass under way when the run is aborted', async () => {
    // The abort comes as the fit checks in after its first pass.
    const abort = new AbortController();
    class AbortAtSvm extends RunController {
      override async checkpoint(progress?: Parameters<RunController['checkpoint']>[0]) {
        if (progress?.phase === 'boundary-svm') abort.abort();
        return super.checkpoint(progress);
      }
    }
    const cut = await fitUnder(new AbortAtSvm({ seed: 1, signal: abort.signal }));
    expect(cut!.stats.svmIterations).toBe(1);
    expect(cut!.stats.svmStoppedBy).toBe('aborted');
  });
});

describe('limi finds discrimination where the model is biased', () => {
  const dataset = correlatedData(boundaryBiasModel);

  it('finds true pairs, far more often than uniform sampling would', async () => {
    const result = await limi.run({ dataset, model: boundaryBiasModel }, quick, { seed: 1 });
    const x = extrasOf(result);
    expect(result.metrics.dsn).toBeGreaterThan(50);
    if (result.findings.kind !== 'individual') throw new Error('individual findings expected');
    for (const p of result.findings.pairs) {
      // Brute force: sex flips the decision only where b >= 10 and 46 <= a <= 53.
      expect(p.sample[2]).toBeGreaterThanOrEqual(10);
      expect(p.sample[1]).toBeGreaterThanOrEqual(46);
      expect(p.sample[1]).toBeLessThanOrEqual(53);
      expect(p.changed).toEqual(['sex']);
    }
    // Uniform inputs discriminate with probability 8/100 x 1/2 = 4 %.
    expect(result.metrics.sur).toBeGreaterThan(0.15);
    const found = x.discriminatoryByProbe;
    expect(found.onBoundary + found.plus + found.minus).toBe(result.metrics.dsn);
    expect(result.metrics.tsn).toBeLessThanOrEqual(quick.maxTested);
    expect(x.boundary.surrogateAccuracy).toBeGreaterThan(0.8);
  });

  it('generates rows closer to the data than uniform inputs are', async () => {
    const result = await limi.run({ dataset, model: boundaryBiasModel }, quick, { seed: 2 });
    const nat = extrasOf(result).naturalness;
    expect(nat.generated!).toBeLessThan(nat.uniform);
    expect(nat.discriminatory).not.toBeNull();
    expect(nat.real).toBeGreaterThanOrEqual(0);
  });

  it('trains a VAE generator whose loss falls, and finds pairs with it', async () => {
    const result = await limi.run(
      { dataset, model: boundaryBiasModel },
      { ...quick, generator: 'vae', epochs: 15, hiddenUnits: 32, latentDim: 4, trainBatchSize: 64 },
      { seed: 3 },
    );
    const x = extrasOf(result);
    const loss = x.generator.lossPerEpoch!;
    expect(loss).toHaveLength(15);
    expect(loss[14]!).toBeLessThan(loss[0]!);
    expect(x.generator.latentDim).toBe(4);
    expect(result.metrics.dsn).toBeGreaterThan(0);
  }, 30_000);

  it('finds nothing on a model blind to the protected attribute', async () => {
    const blindData = correlatedData(blindModel);
    const result = await limi.run({ dataset: blindData, model: blindModel }, quick, { seed: 4 });
    expect(result.metrics.tsn).toBeGreaterThan(100);
    expect(result.metrics.dsn).toBe(0);
  });
});

describe('limi runs', () => {
  const dataset = correlatedData(boundaryBiasModel);

  it('is reproducible for a seed (PCA generator)', async () => {
    const a = await limi.run({ dataset, model: boundaryBiasModel }, quick, { seed: 5 });
    const b = await limi.run({ dataset, model: boundaryBiasModel }, quick, { seed: 5 });
    expect(reproducibleView(b)).toEqual(reproducibleView(a));
  });

  it('stops probing at maxTested distinct tested inputs, at maxLatentVectors and at budget.maxTested', async () => {
    const capped = await limi.run(
      { dataset, model: boundaryBiasModel },
      { ...quick, maxTested: 100 },
      { seed: 6 },
    );
    // The cap counts distinct inputs: repeated candidates do not use it up.
    expect(capped.metrics.tsn).toBe(100);
    expect(extrasOf(capped).tested).toBe(100);
    expect(extrasOf(capped).candidates).toBeGreaterThanOrEqual(100);
    const vectors = await limi.run(
      { dataset, model: boundaryBiasModel },
      { ...quick, maxLatentVectors: 50 },
      { seed: 6 },
    );
    expect(extrasOf(vectors).latentVectors).toBe(50);
    expect(vectors.metrics.tsn).toBeLessThanOrEqual(150);
    const budget = await limi.run({ dataset, model: boundaryBiasModel }, quick, {
      seed: 6,
      budget: { maxTested: 77 },
    });
    expect(budget.metrics.tsn).toBe(77);
    expect(budget.run.stopReason).toBe('tested-budget');
  });

  it('reports whether the SVM converged and what stopped it', async () => {
    const converged = await limi.run({ dataset, model: boundaryBiasModel }, quick, { seed: 8 });
    const b = extrasOf(converged).boundary;
    expect(b.svmConverged).toBe(true);
    expect(b.svmStoppedBy).toBe('converged');
    expect(b.svmIterations).toBeLessThan(500_000);
    const cut = await limi.run(
      { dataset, model: boundaryBiasModel },
      { ...quick, svmMaxIter: 1 },
      { seed: 8 },
    );
    expect(extrasOf(cut).boundary.svmConverged).toBe(false);
    expect(extrasOf(cut).boundary.svmStoppedBy).toBe('max-iter');
    expect(extrasOf(cut).boundary.svmIterations).toBe(1);
  });

  it('searches with a generator fitted once, as a run that fits its own with the same seed', async () => {
    const fitted = await fitLimiGenerator(dataset, { generator: 'pca' }, 9);
    expect(fitted.trainingSeconds).toBeGreaterThanOrEqual(0);
    const own = await limi.run({ dataset, model: boundaryBiasModel }, quick, { seed: 9 });
    const reused = limiWith(fitted);
    const a = await reused.run({ dataset, model: boundaryBiasModel }, quick, { seed: 9 });
    expect(a.findings).toEqual(own.findings);
    expect(a.metrics.tsn).toBe(own.metrics.tsn);
    expect((a.extras.generator as { prefit: boolean }).prefit).toBe(true);
    expect((a.extras.timings as { generatorSeconds: number }).generatorSeconds).toBe(0);
    // Another model on the same data reuses it too; another dataset is refused.
    const other = await reused.run({ dataset, model: blindModel }, quick, { seed: 10 });
    expect(other.metrics.tsn).toBeGreaterThan(0);
    const elsewhere = correlatedData(boundaryBiasModel, 300);
    await expect(
      reused.run({ dataset: elsewhere, model: boundaryBiasModel }, quick, { seed: 9 }),
    ).rejects.toThrow(DataError);
  });

  it('probes nothing when the model gives a single class', async () => {
    const constant = logitModel('constant', () => -5);
    const result = await limi.run({ dataset, model: constant }, quick, { seed: 7 });
    expect(result.metrics.tsn).toBe(0);
    expect(extrasOf(result).boundary.favourable).toBe(0);
  });

  it('documents its defaults and rejects unknown options', () => {
    expect(limi.resolveOptions()).toMatchObject({
      generator: 'tvae',
      svmLoss: 'squared-hinge',
      boundaryShare: 0.1,
      lambda: 0.3,
      confidence: 0.7,
      maxTested: 1_000_000,
      maxLatentVectors: 10_000_000,
      svmMaxIter: 500_000,
    });
    expect(() => limi.resolveOptions({ lamda: 0.2 } as never)).toThrow(OptionsError);
  });
});

describe('building blocks', () => {
  it('the codec decodes its own encoding back to the rows', () => {
    const dataset = correlatedData(boundaryBiasModel, 50);
    const codec = new TabularCodec(dataset);
    expect(codec.width).toBe(2 + 1 + 1 + 1 + 4);
    const out = new Float64Array(dataset.x.length);
    codec.decode(codec.encode(dataset.x, dataset.n), dataset.n, out);
    for (let k = 0; k < out.length; k++) expect(out[k]).toBeCloseTo(dataset.x[k]!, 9);
  });
});
