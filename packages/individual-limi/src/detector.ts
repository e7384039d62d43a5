import { DataError, defineIndividualDetector, type IndividualDetector } from '@fb/core';
import { fitLatentBoundary } from './boundary.js';
import { naturalness } from './naturalness.js';
import { type LimiOptions, optionsSchema } from './options.js';
import { type FittedLimiGenerator, generatorDataKey, trainGenerator } from './prefit.js';
import { runProbes } from './probe-phase.js';
import { VERSION } from './version.js';

/**
 * LIMI, Latent Imitator (Xiao et al., "Latent Imitator: Generating Natural Individual
 * Discriminatory Instances for Black-Box Fairness Testing", ISSTA 2023): learn a generative
 * model of the data, approximate the model's decision boundary by a hyperplane in its latent space,
 * and probe latent points on and near that hyperplane. With `prefit`, the generator is the one given
 * (fitted once per dataset by `fitLimiGenerator`) and the run's budget goes to the boundary and probing.
 */
function defineLimi(prefit: FittedLimiGenerator | null): IndividualDetector<LimiOptions> {
  return defineIndividualDetector<LimiOptions>({
    id: 'limi',
    version: VERSION,
    access: 'black-box',
    description:
      'LIMI (Xiao et al., ISSTA 2023): a generative model of the data (a TVAE with mode-specific normalisation and a conditional vector; a VAE, or PCA for quick runs), a linear SVM imitating the model in its latent space, and probes on and at ±lambda of that boundary.',
    optionsSchema,
    async search({ dataset, model, options, ctl, checker }) {
      const timings: Record<string, number> = {};
      const extras: Record<string, unknown> = { timings };
      let t = performance.now();
      // A generator fitted inside the run has no checks when the budget ended before they did.
      let fitted: Pick<FittedLimiGenerator, 'generator' | 'codec' | 'lossPerEpoch' | 'tvae'> & {
        checks: FittedLimiGenerator['checks'] | null;
      };
      if (prefit === null) {
        const trained = await trainGenerator(dataset, options, ctl);
        timings.generatorSeconds = (performance.now() - t) / 1000;
        if (trained.generator === null) return extras;
        fitted = { ...trained, generator: trained.generator };
        extras.generator = { kind: options.generator, prefit: false };
      } else {
        const key = generatorDataKey(dataset);
        if (prefit.dataKey !== key) {
          throw new DataError(
            'DATA_SHAPE',
            `the LIMI generator was fitted on other rows or attributes (data key ${prefit.dataKey}, this dataset ${key})`,
          );
        }
        fitted = prefit;
        timings.generatorSeconds = 0;
        // The generator options of the run are those of the fit; the fit's cost is its own.
        extras.generator = {
          kind: prefit.kind,
          prefit: true,
          options: prefit.options,
          trainingSeconds: prefit.trainingSeconds,
        };
      }
      const { generator, codec } = fitted;
      extras.generator = {
        ...(extras.generator as object),
        latentDim: generator.k,
        encodedWidth: codec.width,
        ...(fitted.tvae ?? {}),
        ...(fitted.lossPerEpoch ? { lossPerEpoch: fitted.lossPerEpoch } : {}),
        checks: fitted.checks,
      };

      t = performance.now();
      const boundary = await fitLatentBoundary(
        generator,
        model,
        dataset.schema.outcome.favorable,
        {
          samples: options.boundarySamples,
          // The preparatory phase's share of a query budget; the probes get the rest.
          maxQueries:
            ctl.budget.maxQueries === undefined
              ? null
              : Math.max(1, Math.floor(options.boundaryShare * ctl.budget.maxQueries)),
          confidence: options.confidence,
          perClassLimit: options.perClassLimit,
          c: options.svmC,
          loss: options.svmLoss,
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
          maxTested: options.maxTested,
          maxLatentVectors: options.maxLatentVectors ?? Number.POSITIVE_INFINITY,
          batchSize: options.probeBatchSize,
          keep: options.naturalnessSample,
        },
      );
      timings.probeSeconds = (performance.now() - t) / 1000;
      extras.latentVectors = probes.latentVectors;
      extras.candidates = probes.candidates;
      extras.tested = probes.tested;
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
}

/** LIMI, training its generator in every run (inside the run's budget). */
export const limi: IndividualDetector<LimiOptions> = defineLimi(null);

/**
 * LIMI searching with a generator fitted once by `fitLimiGenerator`: every run on the same dataset (any
 * model, any seed) reuses it, its training cost stays in `fitted.trainingSeconds`, and the run's budget
 * goes to the boundary and the probes. Runs on other rows or attribute domains are refused (DataError);
 * the protected attributes and the labels may differ. The run's
 * generator options are ignored; `extras.generator.options` gives the fit's.
 */
export function limiWith(fitted: FittedLimiGenerator): IndividualDetector<LimiOptions> {
  return defineLimi(fitted);
}
