export { adf } from './detector.js';
export { type AdfAcceptance, type AdfOptions, type AdfRefinement, adfPresets } from './options.js';
