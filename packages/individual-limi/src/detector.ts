import { defineIndividualDetector, type IndividualDetector } from '@fb/core';
import pkg from '../package.json' with { type: 'json' };
import { fitLatentBoundary } from './boundary.js';
import { TabularCodec } from './codec.js';
import type { LatentGenerator } from './generator.js';
import { naturalness } from './naturalness.js';
import { type LimiOptions, optionsSchema } from './options.js';
import { fitPcaGenerator } from './pca.js';
import { runProbes } from './probe-phase.js';
import { fitVaeGenerator } from './vae.js';

/**
 * LIMI, Latent Imitator (Xiao et al., "Latent Imitator: Generating Natural Individual
 * Discriminatory Instances for Black-Box Fairness Testing", ISSTA 2023): learn a generative
 * model of the data, approximate the model's decision boundary by a hyperplane in its latent space,
 * and probe latent points on and near that hyperplane.
 */
export const limi: IndividualDetector<LimiOptions> = defineIndividualDetector<LimiOptions>({
  id: 'limi',
  version: pkg.version,
  access: 'black-box',
  description:
    'LIMI (Xiao et al., ISSTA 2023): a generative model (VAE, or PCA for quick runs) of the data, a linear SVM imitating the model in its latent space, and probes on and at ±lambda of that boundary.',
  optionsSchema,
  async search({ dataset, model, options, ctl, checker }) {
    const codec = new TabularCodec(dataset);
    const latentDim = Math.min(options.latentDim, codec.width);
    const timings: Record<string, number> = {};
    const extras: Record<string, unknown> = { generator: { kind: options.generator }, timings };
    let t = performance.now();
    let generator: LatentGenerator;
    if (options.generator === 'pca') generator = fitPcaGenerator(dataset, codec, latentDim);
    else {
      const fitted = await fitVaeGenerator(
        dataset,
        codec,
        {
          latentDim,
          hiddenUnits: options.hiddenUnits,
          epochs: options.epochs,
          learningRate: options.learningRate,
          batchSize: options.trainBatchSize,
        },
        ctl.rng.fork('vae'),
        ctl,
      );
      if (!fitted) return extras;
      generator = fitted.generator;
      extras.generator = { kind: 'vae', lossPerEpoch: fitted.training.lossPerEpoch };
    }
    extras.generator = { ...(extras.generator as object), latentDim: generator.k, encodedWidth: codec.width };
    timings.generatorSeconds = (performance.now() - t) / 1000;

    t = performance.now();
    const boundary = await fitLatentBoundary(
      generator,
      model,
      dataset.schema.outcome.favorable,
      {
        samples: options.boundarySamples,
        confidence: options.confidence,
        perClassLimit: options.perClassLimit,
        c: options.svmC,
        maxIter: options.svmMaxIter,
      },
      ctl.rng.fork('boundary'),
      ctl,
    );
    timings.boundarySeconds = (performance.now() - t) / 1000;
    if (!boundary) return extras;
    extras.boundary = boundary.stats;
    // Without confident samples of both classes there is no boundary to imitate.
    if (!boundary.plane) return extras;

    t = performance.now();
    const probes = await runProbes(
      generator,
      boundary.plane,
      dataset.d,
      checker,
      ctl,
      ctl.rng.fork('probe'),
      {
        lambda: options.lambda,
        maxCandidates: options.maxCandidates,
        batchSize: options.probeBatchSize,
        keep: options.naturalnessSample,
      },
    );
    timings.probeSeconds = (performance.now() - t) / 1000;
    extras.latentVectors = probes.latentVectors;
    extras.candidates = probes.candidates;
    extras.discriminatoryByProbe = probes.found;

    const stop = ctl.shouldStop();
    if (options.naturalnessSample > 0 && stop !== 'aborted' && stop !== 'time-budget') {
      t = performance.now();
      extras.naturalness = naturalness(
        dataset,
        codec,
        probes.kept.candidates,
        probes.kept.nCandidates,
        probes.kept.discriminatory,
        probes.kept.nDiscriminatory,
        options.naturalnessSample,
        ctl.rng.fork('naturalness'),
      );
      timings.naturalnessSeconds = (performance.now() - t) / 1000;
    }
    return extras;
  },
});
