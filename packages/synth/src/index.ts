export { buildCopula, fitCopula, type GaussianCopula, sampleCopula } from './copula.js';
export {
  type GroundTruth,
  generate,
  type PairTruth,
  resolveSynthOptions,
  type SubgroupTruth,
  type SynthResult,
} from './generate.js';
export { subgroupKey, synthTable, synthToCsv, synthToJson } from './keys.js';
export { nearestCorrelation } from './linalg.js';
export type { ContinuousMarginal, DiscreteMarginal, Marginal } from './marginal.js';
export { normalCdf, normalQuantile, truncatedNormal } from './normal.js';
export { type MarginalSpec, type PairSpec, type SynthOptions, synthOptionsSchema } from './options.js';
export type { OutcomeModel } from './outcome-model.js';
export {
  type GeneratedData,
  generatePlantedPair,
  type PlantedPair,
  type PlantedPairOptions,
  type PlantedPairTruth,
  plantedPairOptionsSchema,
} from './planted-pair.js';
