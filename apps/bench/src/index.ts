export { type Cell, type DatasetSpec, expandCells, type Plan } from './cells.js';
export { loadStudy, type Study, studySchema, validateStudy } from './config.js';
export { findMethod, methodRegistry } from './methods.js';
export { type PoolEvents, type PoolOptions, runPool } from './pool.js';
export { type CellRecord, failedRecord } from './record.js';
export { buildReport, writeReport } from './report.js';
export { runCell } from './run-cell.js';
export { type CellExecutor, type RunStudyOptions, runStudy, type StudyOutcome } from './run-study.js';
export { ResultStore } from './store.js';
