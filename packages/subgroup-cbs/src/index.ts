export { cbs, conditionalBiasScan } from './detector.js';
export { type CbsOptions, cbsOptionsSchema, resamplesFor, type ScanType } from './options.js';
export {
  jaccard,
  SEMI_SYNTHETIC_DEFAULTS,
  type SemiSyntheticData,
  type SemiSyntheticOptions,
  semiSynthetic,
} from './semi-synthetic.js';
