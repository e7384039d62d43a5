export { fliptest } from './detector.js';
export type { FeatureChange, TransparencyReport } from './flipsets.js';
export type { FliptestOptions, TransportMethod } from './options.js';
