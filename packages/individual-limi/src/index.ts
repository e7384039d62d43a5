export { limi, limiWith } from './detector.js';
export type { GeneratorChecks } from './generator-checks.js';
export type { NaturalnessReport } from './naturalness.js';
export type { LimiGenerator, LimiOptions } from './options.js';
export { limiOptions } from './options.js';
export { type FittedLimiGenerator, fitLimiGenerator, generatorDataKey, generatorOptions } from './prefit.js';
