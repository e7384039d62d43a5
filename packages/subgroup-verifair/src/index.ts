import { defineSubgroupDetector, type SubgroupDetector } from '@fb/core';
import { type Options, optionsSchema } from './options.js';
import { verifyGroups } from './scan.js';
import { VERSION } from './version.js';

export { adaptiveEpsilon, type Judgement, judge, type Verdict } from './bound.js';
export { mutualInformation } from './mutual-information.js';
export type { Options as VerifairOptions } from './options.js';
export { GroupPopulation, type PopulationMode } from './population.js';
export type { PairVerdict } from './scan.js';
export { combine, type Draw, type VerifyOutcome, type VerifySettings, verifyPair } from './verify.js';

/**
 * VeriFair (Bastani, Zhang and Solar-Lezama, OOPSLA 2019): sequential verification of demographic
 * parity between every pair of values of each protected attribute, with an adaptive concentration
 * bound that makes each verdict wrong with probability at most 2 * delta.
 */
export const verifair: SubgroupDetector<Options> = defineSubgroupDetector<Options>({
  id: 'verifair',
  version: VERSION,
  access: 'black-box',
  description:
    'VeriFair: sequential probabilistic verification of demographic parity between protected groups (adaptive concentration bound, batched sampling).',
  requiresModel: true,
  optionsSchema,
  scan: verifyGroups,
});
