export { builtCodeHash, type Cell, type DatasetSpec, expandCells, type Plan } from './cells.js';
export { loadStudy, type Study, studySchema, validateStudy } from './config.js';
export { estimateStudy, formatEstimate, type StudyEstimate, sampleCells } from './estimate.js';
export { findMethod, methodRegistry } from './methods.js';
export { parseOnly } from './only.js';
export { type PoolEvents, type PoolOptions, runPool } from './pool.js';
export { type CellRecord, failedRecord } from './record.js';
export { buildReport, writeReport } from './report.js';
export { type CellProgress, cellProgress, runCell } from './run-cell.js';
export {
  type CellExecutor,
  describeOutcome,
  type RunStudyOptions,
  runStudy,
  type StudyOutcome,
} from './run-study.js';
export { ResultStore } from './store.js';
