export { argmaxRows } from './argmax.js';
export { attributeColumns, namedAttributeIndices } from './attribute-columns.js';
export { type BoundingConditions, boundingConditions } from './bounding-conditions.js';
export * from './classifier.js';
export * from './counterfactual.js';
export { parseCsv, toCsv } from './csv.js';
export * from './dataset.js';
export { parseDecimal } from './decimal.js';
export * from './describe.js';
export * from './detector.js';
export * from './discretise.js';
export { type DomainGrid, domainGrid } from './domain-grid.js';
export { DomainSampler } from './domain-sampler.js';
export * from './errors.js';
export { favourableProbabilities } from './favourable-probabilities.js';
export { Hasher, hashString32 } from './hash.js';
export * from './interop.js';
export { type KMeansOptions, type KMeansResult, kmeans } from './kmeans.js';
export { type NumberArray, type OptionsInput, type OptionsSchema, resolveOptions } from './options.js';
export {
  gammaOption,
  MAX_VARIANTS,
  ProtectedVariants,
  type VariantMode,
  variantModeOption,
} from './protected-variants.js';
export { discoveryResultSchema } from './result-schema.js';
export * from './result-types.js';
export { createRng, Rng } from './rng.js';
export { GrowableArray, RowIndex } from './row-index.js';
export * from './run-control.js';
export * from './schema.js';
export {
  betaQuantile,
  incompleteBeta,
  logGamma,
  logNormalCdf,
  logNormalUpperTail,
  logUpperIncompleteGamma,
  normalCdf,
  normalCdfInPlace,
  normalDensity,
  normalQuantile,
  normalQuantileInPlace,
  normalUpperTail,
  studentTCdf,
  studentTQuantile,
  studentTUpperTail,
  upperIncompleteGamma,
} from './statistics.js';
export { conditionMatcher, countMembers, maskRows, memberMask } from './subgroup.js';
export { DataSupport, type Dependency } from './support.js';
export { symmetricEigen } from './symmetric-eigen.js';
export { assertValidResult, checkResult, readResult } from './validate-result.js';
