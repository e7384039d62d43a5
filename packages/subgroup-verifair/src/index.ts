import { type Detector, defineSubgroupDetector } from '@fb/core';
import pkg from '../package.json' with { type: 'json' };
import { type Options, optionsSchema } from './options.js';
import { favourableRateGaps } from './scan.js';

export type { Options as VerifairOptions } from './options.js';

/**
 * Verifair.
 *
 * Placeholder: until the paper's scan replaces `favourableRateGaps`, it reports the
 * protected-attribute values whose favourable-outcome rate differs significantly from the rest.
 */
export const verifair: Detector<Options> = defineSubgroupDetector<Options>({
  id: 'verifair',
  version: pkg.version,
  access: 'data-only',
  description:
    'Placeholder: favourable-rate gaps per protected value with permutation p-values (replace with the method and paper).',
  requiresModel: false,
  optionsSchema,
  scan: favourableRateGaps,
});
