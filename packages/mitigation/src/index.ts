export { type ReweighingOptions, reweighing } from './reweighing.js';
export {
  MAX_COMBINATIONS,
  optimizeThresholds,
  type ThresholdOptions,
  type ThresholdResult,
  withGroupThresholds,
} from './thresholds.js';
