import { type Detector, defineIndividualDetector } from '@fb/core';
import pkg from '../package.json' with { type: 'json' };
import { type Options, optionsSchema } from './options.js';
import { uniformRandomSearch } from './search.js';

export type { Options as ExpgaOptions } from './options.js';

/**
 * Expga.
 *
 * Placeholder: until the paper's search replaces `uniformRandomSearch`, it tests uniform
 * random inputs and reports those whose decision changes with a protected attribute.
 */
export const expga: Detector<Options> = defineIndividualDetector<Options>({
  id: 'expga',
  version: pkg.version,
  access: 'black-box',
  description:
    'Placeholder: uniform random testing with counterfactual checks (replace with the method and paper).',
  optionsSchema,
  search: uniformRandomSearch,
});
