import { DataSupport, defineIndividualDetector, type IndividualDetector } from '@fb/core';
import { domainSampler, rowSampler, runGlobalPhase } from './global-phase.js';
import { runLocalPhase } from './local-phase.js';
import { LocalStepper } from './local-step.js';
import { type AequitasOptions, optionsSchema } from './options.js';
import { SearchSpace } from './search-space.js';
import { VERSION } from './version.js';

/**
 * AEQUITAS (Udeshi, Arora, Chattopadhyay, ASE 2018): a global phase of uniform random inputs, then a
 * local walk around every discriminatory one with the random, semi-directed or fully-directed step.
 */
export const aequitas: IndividualDetector<AequitasOptions> = defineIndividualDetector<AequitasOptions>({
  id: 'aequitas',
  version: VERSION,
  access: 'black-box',
  description:
    'AEQUITAS (Udeshi et al., ASE 2018): uniform random global search, then random, semi-directed or fully-directed local walks around each discriminatory input.',
  optionsSchema,
  async search({ dataset, options, ctl, checker }) {
    const space = new SearchSpace(
      dataset.schema,
      options.perturbationUnit,
      options.continuousSteps,
      options.localMoves === 'support' && dataset.n > 0 ? new DataSupport(dataset) : null,
    );
    const names = dataset.schema.attributes.map((a) => a.name);

    const globalStart = performance.now();
    const global = await runGlobalPhase(
      space,
      checker,
      ctl,
      ctl.rng.fork('global'),
      options.globalIterations,
      options.globalInputs === 'rows' && dataset.n > 0
        ? rowSampler(dataset.x, dataset.n, dataset.d)
        : domainSampler(space),
    );
    const globalSeconds = (performance.now() - globalStart) / 1000;

    const localStart = performance.now();
    // Without a non-protected attribute there is nothing to perturb: every neighbour is the same sample.
    const stepper =
      space.movable.length > 0
        ? new LocalStepper(
            space,
            options.strategy,
            options.deltaV * options.perturbationUnit,
            options.deltaPr,
          )
        : null;
    const local =
      stepper && !global.exhausted && options.localIterations > 0
        ? await runLocalPhase(
            global.seeds,
            global.count,
            space.d,
            stepper,
            checker,
            ctl,
            ctl.rng.fork('local'),
            {
              iterations: options.localIterations,
              acceptance: options.acceptance,
              temperature: options.temperature,
            },
          )
        : { tested: 0, discriminatory: 0, walks: 0 };
    const localSeconds = (performance.now() - localStart) / 1000;

    const attributeProbability =
      stepper && options.strategy === 'fully-directed'
        ? Object.fromEntries(Array.from(space.movable, (j, k) => [names[j]!, stepper.weights[k]!]))
        : null;
    return {
      globalTested: global.tested,
      globalDiscriminatory: global.discriminatory,
      localTested: local.tested,
      localDiscriminatory: local.discriminatory,
      localWalks: local.walks,
      strategy: options.strategy,
      attributeProbability,
      timings: { globalSeconds, localSeconds },
    };
  },
});
