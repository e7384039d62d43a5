export { type GerryfairAudit, gerryfair, gerryfairAudit } from './detector.js';
export {
  type FairnessDefinition,
  type Options as GerryfairOptions,
  optionsSchema as gerryfairOptionsSchema,
  type Side,
} from './options.js';
