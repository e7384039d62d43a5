export { biasScan, mdssBiasScan } from './detector.js';
export { type BiasScanExpectations, classProbabilities } from './expectations.js';
export {
  type BiasScanMode,
  type BiasScanOptions,
  type BiasScanScoring,
  biasScanOptionsSchema,
} from './options.js';
