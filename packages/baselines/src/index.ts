export { type EveryVariantUnaskedOptions, everyVariantUnasked } from './every-variant-unasked.js';
export { type ExhaustiveOptions, exhaustiveCounterfactual } from './exhaustive.js';
export { type LargestCellsOptions, largestProtectedCells } from './largest-cells.js';
export { type RandomFinderOptions, randomFinder } from './random-finder.js';
export { type SizeMatchedRandomOptions, sizeMatchedRandom } from './size-matched-random.js';
export { type UniformDomainOptions, uniformDomain } from './uniform-domain.js';
export { type ValueDisparityOptions, valueDisparity } from './value-disparity.js';
export { type WholePopulationOptions, wholePopulation } from './whole-population.js';
