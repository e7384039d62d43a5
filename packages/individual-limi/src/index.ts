export { limi } from './detector.js';
export type { NaturalnessReport } from './naturalness.js';
export type { LimiGenerator, LimiOptions } from './options.js';
