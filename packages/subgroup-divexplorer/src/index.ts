export { divexplorer } from './detector.js';
export { outcomeRate, tValue, twoSidedPValue } from './divergence.js';
export { type FrequentPatterns, fpGrowth } from './fp-growth.js';
export { type ItemOptions, type ItemTable, itemize } from './items.js';
export { type Options as DivexplorerOptions, optionsSchema as divexplorerOptionsSchema } from './options.js';
export { type Metric, type OutcomeKind, outcomeValues, rowStatistics, slots } from './outcomes.js';
export { globalShapley, isRedundant, itemShapley, PatternIndex } from './shapley.js';
