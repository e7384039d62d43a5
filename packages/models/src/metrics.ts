import { type Classifier, DataError, type Dataset, ModelError } from '@fb/core';

/** Fraction of the dataset's rows whose predicted class equals the label. */
export function accuracy(model: Classifier, dataset: Dataset): number {
  if (model.nFeatures !== dataset.d) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `the model takes ${model.nFeatures} features, the dataset has ${dataset.d}`,
    );
  }
  if (dataset.n === 0) throw new DataError('DATA_EMPTY', 'the dataset has no rows');
  const pred = model.predict(dataset.x);
  if (pred.length !== dataset.n) {
    throw new ModelError(
      'MODEL_OUTPUT',
      `model.predict returned ${pred.length} labels for ${dataset.n} rows`,
    );
  }
  let hits = 0;
  for (let i = 0; i < dataset.n; i++) if (pred[i] === dataset.y[i]) hits++;
  return hits / dataset.n;
}
