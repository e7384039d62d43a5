export { cbs, conditionalBiasScan, needsProbabilities } from './detector.js';
export { cbsFitCache, DEFAULT_FIT_CACHE_BYTES, FitCache, type FitCacheStats } from './fit-cache.js';
export { type CbsOptions, cbsOptionsSchema, resamplesFor, type ScanType } from './options.js';
export {
  jaccard,
  SEMI_SYNTHETIC_DEFAULTS,
  type SemiSyntheticData,
  type SemiSyntheticOptions,
  semiSynthetic,
} from './semi-synthetic.js';
