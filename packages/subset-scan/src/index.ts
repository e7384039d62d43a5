export {
  checkScanData,
  PROBABILITY_FLOOR,
  type PreparedScore,
  prepareScore,
  type ScanConfig,
  type ScanData,
  type ScanDirection,
  type ScoreFunction,
} from './data.js';
export { type AttributeEncoding, type EncodingOptions, encodeAttributes } from './encoding.js';
export { T_BOUND } from './kernels.js';
export {
  exceedancesToStop,
  monteCarloPValue,
  SequentialPValue,
  sequentialLevelOption,
} from './pvalue.js';
export {
  MIN_START_RECORDS,
  type ScanResult,
  type ScanSubset,
  SubsetScan,
  type SubsetScore,
  scanSubsets,
  scoreSubset,
} from './scan.js';
