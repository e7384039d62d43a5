export { aequitas } from './detector.js';
export type { AcceptanceRule, AequitasOptions, AequitasStrategy } from './options.js';
