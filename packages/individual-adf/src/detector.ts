import {
  defineIndividualDetector,
  type IndividualDetector,
  isDifferentiable,
  ModelError,
  ProtectedVariants,
} from '@fb/core';
import { runGlobalPhase } from './global-phase.js';
import { TwinGradients } from './gradients.js';
import { runLocalPhase } from './local-phase.js';
import { type AdfOptions, optionsSchema } from './options.js';
import { SearchSpace } from './search-space.js';
import { clusterSeeds, eidigSeeds } from './seeds.js';
import { VERSION } from './version.js';

/**
 * ADF (Zhang et al., "White-box Fairness Testing through Adversarial Sampling", ICSE 2020): seeds
 * from k-means clusters of the data; a global phase that follows the sign of the loss gradient where
 * an input and its twin agree, towards the decision boundary; a local phase around each
 * discriminatory input that perturbs attributes with small gradients. EIDIG's refinement (momentum,
 * reuse of the seed's gradient information) is an option.
 */
export const adf: IndividualDetector<AdfOptions> = defineIndividualDetector<AdfOptions>({
  id: 'adf',
  version: VERSION,
  access: 'white-box',
  description:
    'ADF (Zhang et al., ICSE 2020): gradient-guided global search from clustered data seeds towards the decision boundary, then a local walk that perturbs low-gradient attributes; EIDIG refinement optional.',
  optionsSchema,
  async search({ dataset, model, options, ctl, checker }) {
    const inner = model.inner;
    if (!isDifferentiable(inner)) {
      throw new ModelError(
        'MODEL_MISMATCH',
        'ADF is white-box: the model must implement scoreGradient(x) (a DifferentiableClassifier)',
      );
    }
    if (model.nClasses !== 2) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `ADF needs a binary model (its score is the probability of class 1), got ${model.nClasses} classes`,
      );
    }
    const eidig = options.refinement === 'eidig';
    const space = new SearchSpace(dataset.schema, options.continuousSteps);
    const gradients = new TwinGradients(
      inner,
      new ProtectedVariants(dataset.schema, options.variantMode),
      eidig ? 'output' : 'loss',
    );
    const seeds = (eidig ? eidigSeeds : clusterSeeds)(
      dataset,
      options.clusters,
      options.maxGlobal,
      ctl.rng.fork('seeds'),
    );
    const globalRng = ctl.rng.fork('global');
    const localRng = ctl.rng.fork('local');
    const d = space.d;
    const stats = {
      seedsUsed: 0,
      globalTested: 0,
      globalDiscriminatory: 0,
      globalIterations: 0,
      localTested: 0,
      localDiscriminatory: 0,
      localWalks: 0,
    };
    let globalSeconds = 0;
    let localSeconds = 0;
    for (let start = 0; start < seeds.count; start += options.batchSize) {
      if (await ctl.checkpoint({ phase: 'global', done: start, total: seeds.count })) break;
      const m = Math.min(options.batchSize, seeds.count - start);
      const t0 = performance.now();
      const global = await runGlobalPhase(
        seeds.rows.subarray(start * d, (start + m) * d),
        m,
        space,
        checker,
        gradients,
        ctl,
        globalRng,
        {
          maxIter: options.maxIter,
          stepSize: options.globalStepSize,
          momentumDecay: eidig ? options.momentumDecay : null,
        },
      );
      const t1 = performance.now();
      globalSeconds += (t1 - t0) / 1000;
      stats.seedsUsed += m;
      stats.globalTested += global.tested;
      stats.globalDiscriminatory += global.count;
      stats.globalIterations += global.iterations;
      if (global.exhausted || ctl.shouldStop()) break;
      if (global.count === 0 || options.maxLocal === 0 || space.movable.length === 0) continue;
      stats.localWalks += global.count;
      const local = await runLocalPhase(
        global.found,
        global.count,
        space,
        checker,
        gradients,
        ctl,
        localRng,
        {
          maxLocal: options.maxLocal,
          stepSize: options.localStepSize,
          acceptance: options.acceptance,
          temperature: options.temperature,
          eidig,
          updateInterval: options.updateInterval,
        },
      );
      localSeconds += (performance.now() - t1) / 1000;
      stats.localTested += local.tested;
      stats.localDiscriminatory += local.discriminatory;
    }
    return {
      ...stats,
      meanIterationsToDiscriminate:
        stats.globalDiscriminatory === 0 ? null : stats.globalIterations / stats.globalDiscriminatory,
      seeds: seeds.count,
      clusterSizes: seeds.clusterSizes,
      gradientRows: gradients.gradientRows,
      refinement: options.refinement,
      timings: { globalSeconds, localSeconds },
    };
  },
});
