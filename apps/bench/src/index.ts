export { findMethod, methodRegistry } from './methods.js';
export { builtCodeHash, type Cell, type DatasetSpec, expandCells, type Plan } from './plan/cells.js';
export { loadStudy, type Study, studySchema, validateStudy } from './plan/config.js';
export { estimateStudy, formatEstimate, type StudyEstimate, sampleBlocks } from './plan/estimate.js';
export { parseOnly } from './plan/only.js';
export { buildReport, writeReport } from './report/report.js';
export { type PoolEvents, type PoolOptions, runPool } from './run/pool.js';
export { type CellRecord, failedRecord } from './run/record.js';
export { type CellProgress, cellProgress, runCell } from './run/run-cell.js';
export {
  type CellExecutor,
  describeOutcome,
  type RunStudyOptions,
  runStudy,
  type StudyOutcome,
} from './run/run-study.js';
export { ResultStore } from './run/store.js';
