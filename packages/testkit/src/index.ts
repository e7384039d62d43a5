export {
  attributeRunsFromArgv,
  benchCensus13,
  type Census13Loader,
  type CensusBenchConfig,
  type CensusRun,
  fitBenchModel,
  protectingOnly,
  readCensus13,
} from './bench.js';
export { resultDigest, wideTable } from './budget-table.js';
export {
  formatRejectionRate,
  type NullWorld,
  type NullWorldOptions,
  nullSchema,
  nullWorld,
  type RejectionRate,
  rejectionRate,
} from './calibration.js';
export {
  type ConformanceCheck,
  type ConformanceConfig,
  ConformanceError,
  conformanceChecks,
} from './checks.js';
export { describeConformance } from './describe.js';
export { type ConformanceFixture, fixtureSchema, makeFixture, PlantedBiasModel } from './fixture.js';
export {
  blindModel,
  expectPairsInRegion,
  inRegion,
  labelledSample,
  probabilityModel,
  RowModel,
  regionModel,
  regionSchema,
} from './region-fixture.js';
