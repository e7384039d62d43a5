export {
  AdversarialDebiasing,
  type AdversarialOptions,
  type AdversarialTraining,
  adversarialOptionsSchema,
  adversarialPresets,
  fitAdversarialDebiasing,
} from './adversarial.js';
export { type DiscriminationRate, discriminationRate } from './discrimination-rate.js';
export {
  FairRepresentation,
  type FairRepresentationOptions,
  type FairRepresentationTraining,
  fairRepresentationOptionsSchema,
  fitFairRepresentation,
  fitMmdVae,
  MmdVae,
  type MmdVaeOptions,
  type MmdVaeTraining,
  mmdVaeOptionsSchema,
} from './mmd-vae.js';
export {
  type AccuracyMetric,
  type BiasMitigatorOptions,
  biasMitigatorOptionsSchema,
  ModelBiasMitigator,
  type MultiplierTrial,
  type TradeoffEntry,
} from './multipliers.js';
export {
  type ConstraintTarget,
  type ConstraintType,
  paretoFront,
  type Selection,
  type SelectionRule,
  selectFromFront,
  type TradeoffPoint,
} from './pareto.js';
export {
  type ModelReport,
  type RetrainInput,
  type RetrainOptions,
  type RetrainResult,
  retrainOptionsSchema,
  retrainWithDiscrimination,
} from './retrain.js';
export { type ReweighingOptions, reweighing } from './reweighing.js';
export {
  MAX_COMBINATIONS,
  optimizeThresholds,
  type ThresholdOptions,
  type ThresholdResult,
  withGroupThresholds,
} from './thresholds.js';
export { type TradeoffPlot, tradeoffSvg } from './tradeoff-svg.js';
export { protectedVariants } from './variants.js';
