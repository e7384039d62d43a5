export { AlphaInvesting } from './alpha-investing.js';
export { type ColumnOptions, type SliceColumn, sliceColumns } from './columns.js';
export { type TreeParams, type TreeResult, type TreeSlice, treeSearch } from './decision-tree.js';
export { slicefinder } from './detector.js';
export { type LatticeParams, type LatticeResult, type LatticeSlice, latticeSearch } from './lattice.js';
export { exampleLosses, type LossKind } from './loss.js';
export { type Options as SlicefinderOptions, optionsSchema as slicefinderOptionsSchema } from './options.js';
export { describeSlice, type EvaluatedSlice, moments, testInOrder } from './slice-stats.js';
export { complement, effectSize, type LossMoments, type WelchTest, welchTest } from './statistics.js';
