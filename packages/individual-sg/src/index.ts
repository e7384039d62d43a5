export { sg } from './detector.js';
export type { SgOptions } from './options.js';
