export { findMethod, methodRegistry } from './methods.js';
export { type RunStudyOptions, runStudy } from './run-study.js';
export { type CellRecord, ResultStore } from './store.js';
export { type Cell, type MethodPlan, type Study, expandCells, studies } from './study.js';
