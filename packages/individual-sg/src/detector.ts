import { defineIndividualDetector, type IndividualDetector } from '@fb/core';
import { optionsSchema, type SgOptions } from './options.js';
import { symbolicGeneration } from './search.js';
import { VERSION } from './version.js';

/**
 * SG, symbolic generation (Aggarwal, Lohia, Nagar, Dey, Saha, ESEC/FSE 2019): local decision-tree
 * explanations whose path constraints are negated and solved with Z3 to generate new test inputs.
 */
export const sg: IndividualDetector<SgOptions> = defineIndividualDetector<SgOptions>({
  id: 'sg',
  version: VERSION,
  access: 'black-box',
  description:
    'SG (Aggarwal et al., ESEC/FSE 2019): k-means seeds, local decision-tree explanations the LIME way, path constraints negated one at a time and solved with Z3, local search first.',
  optionsSchema,
  search: symbolicGeneration,
});
