export {
  type ComparedMetric,
  type DetectorProgress,
  type Disadvantage,
  type GroupMetrics,
  type GroupReference,
  type GroupRow,
  groupMetrics,
  LEAD_METRICS,
  type LeadMetric,
  leadMetric,
  type MethodRun,
  type Rate,
  referenceGroups,
  runDetectors,
} from './audit.js';
export {
  ALPHA,
  type CalibrateOptions,
  type Calibration,
  type CalibrationResult,
  calibrate,
  type FailedTrial,
  finds,
  MIN_JACCARD,
} from './calibrate.js';
export { audit, CALIBRATE_USAGE, calibrateCommand, USAGE } from './cli.js';
export {
  type AuditData,
  type BinnedAttribute,
  checkSchemaFile,
  type DataOptions,
  loadAuditData,
  quantileEdges,
  type SchemaFile,
  schemaLines,
} from './data.js';
export { BlockingClassifier, loadEndpointClassifier } from './endpoint.js';
export { OutputRefusedError, UsageError } from './errors.js';
export { interruptCell, onInterrupt, raiseInterrupt, watchInterruptPipe } from './interrupt.js';
export { type AuditMethod, DEFAULT_METHODS, type Family } from './methods.js';
export { type ModelSource, type PreparedModel, prepareModel, RecordedDecisions } from './models.js';
export { csvCell, findingsCsv, safeCsv } from './report/csv.js';
export { type AuditReport, type RankedSubgroup, renderHtml, topSubgroups } from './report/html.js';
export { claimOutput, MANIFEST, writeOutput } from './report/output.js';
export { writeReport } from './report/write.js';
export { type CompareOp, compileWhere, parseWhere, type RowTest, type WhereNode } from './where.js';
