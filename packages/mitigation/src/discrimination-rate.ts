import {
  type Classifier,
  CounterfactualChecker,
  CountingClassifier,
  RunController,
  type Schema,
  type VariantMode,
} from '@fb/core';

/** Individual-discrimination rate of a set of inputs: discriminatory samples over tested samples. */
export interface DiscriminationRate {
  /** Distinct inputs (by non-protected values) checked. */
  readonly tested: number;
  readonly discriminatory: number;
  /** discriminatory / tested (0 when nothing was tested). */
  readonly rate: number;
}

/**
 * Counterfactual check of `rows` (n x d) on `model` through @fb/core's `CounterfactualChecker`: an input
 * is discriminatory when some change of its protected values changes the decision. One batched query.
 */
export function discriminationRate(
  schema: Schema,
  model: Classifier,
  rows: Float64Array,
  mode: VariantMode,
): DiscriminationRate {
  const checker = new CounterfactualChecker(schema, new CountingClassifier(model), new RunController(), mode);
  checker.check(rows);
  // Inputs with the same non-protected values are one tested sample, as TSN counts them.
  const tested = checker.tsn;
  return { tested, discriminatory: checker.dsn, rate: tested > 0 ? checker.dsn / tested : 0 };
}
