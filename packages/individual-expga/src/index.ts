export { expga } from './detector.js';
export type { ExpgaOptions, Fitness, SeedSource } from './options.js';
