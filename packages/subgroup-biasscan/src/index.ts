export { biasScan } from './detector.js';
export { type AttributeEncoding, type EncodingOptions, encodeDataset } from './encoding.js';
export { type BiasScanOptions, biasScanOptionsSchema } from './options.js';
export { drawNullOutcomes, monteCarloPValue } from './randomization.js';
export {
  checkScanInput,
  MIN_START_RECORDS,
  type ScanCoordinates,
  type ScanOptions,
  type ScanResult,
  type ScanSubset,
  SubsetScan,
  scanSubsets,
  scoreSubset,
} from './scan.js';
export {
  bernoulliScore,
  lowerRoot,
  maximizeQ,
  type PositiveInterval,
  poissonScore,
  positiveInterval,
  Q_LOWER,
  Q_TOLERANCE,
  Q_UPPER,
  roundScore,
  type ScanDirection,
  type ScoreEvaluator,
  type Scoring,
  scoreEvaluator,
  upperRoot,
} from './scoring.js';
