export {
  type DetectorProgress,
  type GroupMetrics,
  type GroupRow,
  groupMetrics,
  type MethodRun,
  type Rate,
  runDetectors,
} from './audit.js';
export {
  ALPHA,
  type CalibrateOptions,
  type Calibration,
  calibrate,
  finds,
  MIN_JACCARD,
} from './calibrate.js';
export { audit, CALIBRATE_USAGE, calibrateCommand, USAGE } from './cli.js';
export {
  type AuditData,
  type BinnedAttribute,
  type DataOptions,
  loadAuditData,
  quantileEdges,
  type SchemaFile,
  schemaLines,
} from './data.js';
export { BlockingClassifier, loadEndpointClassifier } from './endpoint.js';
export { UsageError } from './errors.js';
export { type AuditMethod, DEFAULT_METHODS, type Family } from './methods.js';
export { type ModelSource, type PreparedModel, prepareModel, RecordedDecisions } from './models.js';
export { type AuditReport, type RankedSubgroup, renderHtml, topSubgroups } from './report/html.js';
export { writeReport } from './report/write.js';
