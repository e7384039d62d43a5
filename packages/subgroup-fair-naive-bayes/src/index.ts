import { defineSubgroupDetector, type SubgroupDetector } from '@fb/core';
import { type Options, optionsSchema } from './options.js';
import { discriminationPatterns } from './scan.js';
import { VERSION } from './version.js';

export { degree, extremeGain, kldScore, type PatternMass } from './degree.js';
export { fitNaiveBayes, type NaiveBayes } from './naive-bayes.js';
export type { Options as FairNaiveBayesOptions } from './options.js';
export {
  extensionBound,
  findPatterns,
  type Pattern,
  type Role,
  type SearchOutcome,
  type SearchSettings,
} from './search.js';
export { type Discretised, discretise, type Variable } from './variables.js';

/**
 * Discrimination patterns of a naive Bayes model (Choi, Farnadi, Babaki and Van den Broeck, AAAI
 * 2020): assignments x to sensitive attributes and y to others where observing x moves the
 * probability of the decision by more than delta, mined by branch and bound.
 */
export const fairNaiveBayes: SubgroupDetector<Options> = defineSubgroupDetector<Options>({
  id: 'fair-naive-bayes',
  version: VERSION,
  access: 'data-only',
  description:
    'Fair naive Bayes discrimination patterns: top-k |P(d|x,y) - P(d|y)| (or KL divergence) of a naive Bayes model by branch and bound.',
  requiresModel: false,
  optionsSchema,
  scan: discriminationPatterns,
});
