import type { CountingClassifier } from './classifier.js';
import type { Dataset } from './dataset.js';
import { ModelError } from './errors.js';

/**
 * The model's probability of the favourable outcome for every row of `dataset`, from one predictProba
 * call. A model without predictProba is a `ModelError` (MODEL_MISMATCH) with the message `noProba`.
 */
export function favourableProbabilities(
  model: CountingClassifier,
  dataset: Dataset,
  noProba: string,
): Float64Array {
  if (!model.hasProba) throw new ModelError('MODEL_MISMATCH', noProba);
  const c = model.nClasses;
  const favourable = dataset.schema.outcome.favorable;
  const proba = model.predictProba(dataset.x);
  return Float64Array.from({ length: dataset.n }, (_, i) => proba[i * c + favourable]!);
}
