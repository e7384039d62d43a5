import { defineIndividualDetector, type IndividualDetector } from '@fb/core';
import { runGlobalPhase } from './global-phase.js';
import { runLocalPhase } from './local-phase.js';
import { Neighbours } from './neighbours.js';
import { type KoseiOptions, optionsSchema } from './options.js';
import { RowQueue } from './queue.js';
import { TestedSet } from './tested-set.js';
import { VERSION } from './version.js';

/**
 * KOSEI (Sano, Kitamura, Takada, SEKE 2022): AEQUITAS's random global search, then a breadth-first
 * walk over the ±1 neighbours of every discriminatory input that never evaluates an input twice.
 */
export const kosei: IndividualDetector<KoseiOptions> = defineIndividualDetector<KoseiOptions>({
  id: 'kosei',
  version: VERSION,
  access: 'black-box',
  description:
    'KOSEI (Sano et al., SEKE 2022): uniform random global search, then a breadth-first walk over the unit neighbours of each discriminatory input, never evaluating an input twice.',
  optionsSchema,
  async search({ dataset, options, ctl, checker }) {
    const neighbours = new Neighbours(dataset.schema, options.continuousSteps);
    const tested = new TestedSet(dataset.schema);
    const queue = new RowQueue(dataset.d);

    const globalStart = performance.now();
    const global = await runGlobalPhase(
      dataset.schema,
      checker,
      ctl,
      ctl.rng.fork('global'),
      tested,
      queue,
      options.globalIterations,
      options.batchSize,
    );
    const globalSeconds = (performance.now() - globalStart) / 1000;

    const limit = options.localLimit * global.discriminatory;
    const localStart = performance.now();
    const local =
      global.exhausted || ctl.shouldStop()
        ? { tested: 0, discriminatory: 0, expanded: 0, duplicatesSkipped: 0, outOfDomain: 0 }
        : await runLocalPhase(neighbours, checker, ctl, tested, queue, {
            limit,
            unit: options.localLimitUnit,
            batchSize: options.batchSize,
          });
    const localSeconds = (performance.now() - localStart) / 1000;

    return {
      globalTested: global.tested,
      globalDiscriminatory: global.discriminatory,
      globalRepeats: global.repeats,
      localLimit: limit,
      localTested: local.tested,
      localDiscriminatory: local.discriminatory,
      expanded: local.expanded,
      duplicatesSkipped: local.duplicatesSkipped,
      outOfDomain: local.outOfDomain,
      timings: { globalSeconds, localSeconds },
    };
  },
});
