export { biasScan } from './detector.js';
export {
  type BiasScanMode,
  type BiasScanOptions,
  type BiasScanScoring,
  biasScanOptionsSchema,
} from './options.js';
