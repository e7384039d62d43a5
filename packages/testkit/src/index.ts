export {
  type ConformanceCheck,
  type ConformanceConfig,
  ConformanceError,
  conformanceChecks,
} from './checks.js';
export { describeConformance } from './describe.js';
export { type ConformanceFixture, fixtureSchema, makeFixture, PlantedBiasModel } from './fixture.js';
