export { findMethod, methodRegistry } from './methods.js';
export { type RunStudyOptions, runStudy } from './run-study.js';
export { type CellRecord, ResultStore } from './store.js';
export { type Cell, expandCells, type MethodPlan, type Study, studies } from './study.js';
