import { type CountingClassifier, type Dataset, ModelError } from '@fb/core';

export type LossKind = 'log-loss' | 'zero-one';

/** Probabilities are clipped to [1e-15, 1 − 1e-15] before the log, as scikit-learn's log_loss does. */
const EPS = 1e-15;

/**
 * Per-example loss of the model on the dataset, from one batch query: the log loss −ln p(yᵢ | xᵢ) of
 * the predicted probabilities, or the 0/1 loss of the predicted labels.
 */
export function exampleLosses(dataset: Dataset, model: CountingClassifier, kind: LossKind): Float64Array {
  const { n, y } = dataset;
  const loss = new Float64Array(n);
  if (kind === 'zero-one') {
    const pred = model.predict(dataset.x);
    for (let i = 0; i < n; i++) loss[i] = pred[i] === y[i] ? 0 : 1;
    return loss;
  }
  if (!model.hasProba) {
    throw new ModelError(
      'MODEL_MISMATCH',
      'loss "log-loss" needs the model\'s predictProba; use loss "zero-one" for a label-only model',
    );
  }
  const k = model.nClasses;
  const proba = model.predictProba(dataset.x);
  for (let i = 0; i < n; i++) {
    const p = Math.min(1 - EPS, Math.max(EPS, proba[i * k + y[i]!]!));
    loss[i] = -Math.log(p);
  }
  return loss;
}
