import { argmaxRows, type Classifier, ModelError } from '@fb/core';

/** A user model: class probabilities (n x nClasses, or n values of P(class 1) for two classes) of n rows. */
export type ProbabilityFunction = (rows: Float64Array, n: number) => ArrayLike<number>;

export interface FunctionClassifierInit {
  nFeatures: number;
  nClasses?: number;
  description?: string;
}

// Probabilities may carry rounding from the user's arithmetic (e.g. float32 softmax).
const SLACK = 1e-6;

/**
 * Wrap any synchronous function of a batch of rows as a black-box `Classifier`: `predictProba` returns its
 * checked output and `predict` the argmax (first class on ties). Output of the wrong length, non-finite,
 * outside [0, 1] or with rows not summing to 1 throws `ModelError` (MODEL_OUTPUT).
 */
export function classifierFromFunction(fn: ProbabilityFunction, init: FunctionClassifierInit): Classifier {
  if (typeof fn !== 'function')
    throw new ModelError('MODEL_MISSING', 'classifierFromFunction needs a function');
  const d = init.nFeatures;
  const K = init.nClasses ?? 2;
  if (!Number.isInteger(d) || d < 1) {
    throw new ModelError('MODEL_MISMATCH', `nFeatures must be a positive integer, got ${d}`);
  }
  if (!Number.isInteger(K) || K < 2)
    throw new ModelError('MODEL_MISMATCH', `nClasses must be an integer >= 2, got ${K}`);
  const predictProba = (x: Float64Array): Float64Array => {
    if (x.length % d !== 0) {
      throw new ModelError('MODEL_MISMATCH', `a batch of ${x.length} values is not whole rows of width ${d}`);
    }
    const n = x.length / d;
    const raw = fn(x, n);
    if (raw === null || typeof raw !== 'object' || typeof (raw as { then?: unknown }).then === 'function') {
      throw new ModelError(
        'MODEL_OUTPUT',
        'the model function must return an array of probabilities synchronously',
      );
    }
    const single = K === 2 && raw.length === n && n > 0;
    if (!single && raw.length !== n * K) {
      throw new ModelError(
        'MODEL_OUTPUT',
        `the model function returned ${raw.length} values for ${n} rows x ${K} classes`,
      );
    }
    const out = new Float64Array(n * K);
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let k = 0; k < K; k++) {
        const p = single ? (k === 1 ? raw[i]! : 1 - raw[i]!) : raw[i * K + k]!;
        if (!(p >= -SLACK && p <= 1 + SLACK)) {
          throw new ModelError('MODEL_OUTPUT', `row ${i}: probability ${p} is not in [0, 1]`, { row: i });
        }
        out[i * K + k] = Math.min(1, Math.max(0, p));
        sum += p;
      }
      if (Math.abs(sum - 1) > SLACK * K) {
        throw new ModelError('MODEL_OUTPUT', `row ${i}: probabilities sum to ${sum}, not 1`, { row: i });
      }
    }
    return out;
  };
  return {
    nFeatures: d,
    nClasses: K,
    description: init.description ?? 'function',
    predictProba,
    predict: (x) => argmaxRows(predictProba(x), K),
  };
}
