export { kosei } from './detector.js';
export type { KoseiOptions, LocalLimitUnit } from './options.js';
