export {
  type GeneratedData,
  type GroundTruth,
  generatePlantedPair,
  type PlantedPair,
  type PlantedPairOptions,
  plantedPairOptionsSchema,
} from './planted-pair.js';
