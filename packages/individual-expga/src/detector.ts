import { defineIndividualDetector, type IndividualDetector, ModelError, ProtectedVariants } from '@fb/core';
import { LocalExplainer } from './explainer.js';
import { runGenetic } from './genetic-phase.js';
import { GeneSampler } from './operators.js';
import { type ExpgaOptions, optionsSchema } from './options.js';
import { selectSeeds } from './seed-phase.js';
import { VERSION } from './version.js';

/**
 * ExpGA (Fan, Wang, Chen, Xie, ICSE 2022): explanation-guided seeds, then a genetic algorithm whose
 * fitness rewards a decision gap across protected variants.
 */
export const expga: IndividualDetector<ExpgaOptions> = defineIndividualDetector<ExpgaOptions>({
  id: 'expga',
  version: VERSION,
  access: 'black-box',
  description:
    'ExpGA (Fan et al., ICSE 2022): seeds whose local linear explanation ranks a protected attribute high, then a genetic algorithm breeding inputs with a large decision gap across protected variants.',
  optionsSchema,
  async search({ dataset, model, options, ctl, checker }) {
    if (options.fitness === 'probability' && !model.hasProba) {
      throw new ModelError(
        'MODEL_MISMATCH',
        'fitness "probability" needs class probabilities, but the model has no predictProba: pass fitness: "label"',
      );
    }
    const explainer = new LocalExplainer(dataset, options.limeSamples, options.ridgeAlpha);
    const seedStart = performance.now();
    const seeds = await selectSeeds(
      dataset,
      model,
      explainer,
      ctl,
      { candidates: ctl.rng.fork('candidates'), lime: ctl.rng.fork('lime') },
      {
        candidates: options.globalSamples,
        seeds: options.seeds,
        source: options.seedSource,
        thresholdRank: options.thresholdRank,
        checkQueries: new ProtectedVariants(dataset.schema, options.variantMode).perInput + 1,
      },
    );
    const seedSeconds = (performance.now() - seedStart) / 1000;

    const gaStart = performance.now();
    const genetic =
      seeds.count > 0 && !ctl.shouldStop()
        ? await runGenetic(
            seeds.seeds,
            seeds.count,
            checker,
            model,
            new ProtectedVariants(dataset.schema, options.variantMode),
            new GeneSampler(dataset.schema, options.referenceOperators),
            ctl,
            ctl.rng.fork('genetic'),
            options,
          )
        : { generations: 0, tested: 0, discriminatory: 0, meanFitness: 0 };
    // The first generation checks the seeds. When no generation ran (the budget ended in the seed
    // phase, or generations: 0), the seeds found are still checked, in one batch, and reported; the
    // checker skips what the tested-sample or query budget no longer allows.
    let seedsChecked = false;
    if (genetic.generations === 0 && seeds.count > 0) {
      checker.check(seeds.seeds.subarray(0, seeds.count * dataset.d));
      seedsChecked = true;
    }
    const gaSeconds = (performance.now() - gaStart) / 1000;

    return {
      explained: seeds.explained,
      seeds: seeds.count,
      seedsCheckedWithoutGenetic: seedsChecked,
      protectedRankHistogram: seeds.rankHistogram,
      generations: genetic.generations,
      meanFitness: genetic.meanFitness,
      timings: { seedSeconds, gaSeconds },
    };
  },
});
