export { type Correction, lossSlope, PARTITIONS, type PartitionName } from './boost.js';
export { type MultiaccuracyAudit, multiaccuracy, multiaccuracyAudit } from './detector.js';
export {
  type Direction as MultiaccuracyDirection,
  type Options as MultiaccuracyOptions,
  optionsSchema as multiaccuracyOptionsSchema,
} from './options.js';
