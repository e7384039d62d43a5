export { type ExhaustiveOptions, exhaustiveCounterfactual } from './exhaustive.js';
export { type RandomFinderOptions, randomFinder } from './random-finder.js';
export { type ValueDisparityOptions, valueDisparity } from './value-disparity.js';
