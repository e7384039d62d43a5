export { type AuditOptions, type AuditRow, aequitasAudit } from './aequitas.js';
export { type Confusion, confusionByGroup, RATES, type RateName } from './confusion.js';
export {
  type ConsistencyOptions,
  consistency,
  type SmoothedEdfResult,
  smoothedEdf,
} from './dataset-metrics.js';
export {
  type BootstrapOptions,
  bootstrapRounds,
  type DisparityInput,
  type DisparityOptions,
  type DisparityResult,
  type DistanceMeasure,
  distance,
  GROUP_METRICS,
  type GroupMetric,
  groupDisparity,
  type Interval,
  percentileInterval,
  type Reduction,
  type SubgroupDisparity,
  theilOf,
} from './disparity.js';
export { type Subgroups, subgroupsFromColumns, subgroupsOf } from './groups.js';
export {
  demographicParityDifference,
  demographicParityRatio,
  equalizedOddsDifference,
  equalizedOddsRatio,
  type FrameMethod,
  type FrameMetric,
  frameMetrics,
  MetricFrame,
} from './metric-frame.js';
export {
  datasetStatisticalParity,
  equalizedOdds,
  errorRate,
  FairnessScorer,
  falseDiscoveryRate,
  falseNegativeRate,
  falseOmissionRate,
  falsePositiveRate,
  modelStatisticalParity,
  theilIndex,
  truePositiveRate,
} from './scorer.js';
export {
  type BiasMap,
  type BiasMapEntry,
  type CusumResult,
  cusum,
  intersectionalBiasMap,
  type LabelBiasOptions,
  type LabelBiasResult,
  labelBiasTest,
  statisticalParityTest,
  welchGreater,
  type ZTestResult,
} from './stat-tests.js';
