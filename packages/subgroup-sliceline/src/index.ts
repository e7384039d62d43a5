export { SliceEvaluator } from './bitset-kernels.js';
export { CandidateTable } from './candidates.js';
export { minSupportRows, sliceline } from './detector.js';
export {
  type AttributeCodes,
  type Bin,
  type RecodedTable,
  type RecodeOptions,
  recodeDataset,
  spreadBins,
} from './encoding.js';
export { type ErrorType, predictionErrors } from './error-vectors.js';
export { columnStatistics, type OneHotMatrix, oneHot } from './one-hot.js';
export { type Options as SlicelineOptions, optionsSchema as slicelineOptionsSchema } from './options.js';
export { score, scoreUpperBound } from './score.js';
export {
  type LevelStatistics,
  type Slice,
  type SliceLineParams,
  type SliceLineResult,
  sliceLine,
} from './sliceline.js';
