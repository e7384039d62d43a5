import { type Classifier, DataError, type Dataset, ModelError } from '@fb/core';

function checkLabels(y: Int32Array, pred: ArrayLike<number>, what: string): number {
  if (y.length === 0) throw new DataError('DATA_EMPTY', 'no rows to score');
  if (pred.length !== y.length) {
    throw new DataError('DATA_SHAPE', `${pred.length} ${what} for ${y.length} labels`);
  }
  return y.length;
}

/** Fraction of rows whose predicted class equals the label. */
export function accuracyScore(y: Int32Array, pred: Int32Array): number {
  const n = checkLabels(y, pred, 'predictions');
  let hits = 0;
  for (let i = 0; i < n; i++) if (pred[i] === y[i]) hits++;
  return hits / n;
}

/** Mean over the classes present in `y` of the recall (fraction of that class predicted as itself). */
export function balancedAccuracyScore(y: Int32Array, pred: Int32Array, nClasses: number): number {
  const n = checkLabels(y, pred, 'predictions');
  const total = new Float64Array(nClasses);
  const hit = new Float64Array(nClasses);
  for (let i = 0; i < n; i++) {
    total[y[i]!]!++;
    if (pred[i] === y[i]) hit[y[i]!]!++;
  }
  let sum = 0;
  let present = 0;
  for (let k = 0; k < nClasses; k++) {
    if (total[k]! === 0) continue;
    sum += hit[k]! / total[k]!;
    present++;
  }
  return sum / present;
}

/**
 * F1 (harmonic mean of precision and recall). Binary: of class `positive` (default 1). More classes: the
 * unweighted mean over the classes present in the labels or the predictions (scikit-learn's "macro").
 * A class never predicted nor present scores 0, as in scikit-learn.
 */
export function f1Score(y: Int32Array, pred: Int32Array, nClasses: number, positive = 1): number {
  const n = checkLabels(y, pred, 'predictions');
  const tp = new Float64Array(nClasses);
  const predicted = new Float64Array(nClasses);
  const actual = new Float64Array(nClasses);
  for (let i = 0; i < n; i++) {
    predicted[pred[i]!]!++;
    actual[y[i]!]!++;
    if (pred[i] === y[i]) tp[y[i]!]!++;
  }
  const f1 = (k: number) => {
    const denom = predicted[k]! + actual[k]!;
    return denom === 0 ? 0 : (2 * tp[k]!) / denom;
  };
  if (nClasses === 2) return f1(positive);
  let sum = 0;
  let count = 0;
  for (let k = 0; k < nClasses; k++) {
    if (predicted[k]! + actual[k]! === 0) continue;
    sum += f1(k);
    count++;
  }
  return sum / count;
}

/**
 * Area under the ROC curve of `score` for the rows with label `positive` against the rest: the
 * Mann–Whitney probability that a positive row outscores a negative one, ties counting one half.
 */
export function rocAucScore(y: Int32Array, score: ArrayLike<number>, positive = 1): number {
  const n = checkLabels(y, score, 'scores');
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => score[a]! - score[b]!);
  let pos = 0;
  let rankSum = 0;
  for (let s = 0; s < n; ) {
    let e = s + 1;
    while (e < n && score[order[e]!] === score[order[s]!]) e++;
    const midRank = (s + e + 1) / 2;
    for (let t = s; t < e; t++) {
      if (y[order[t]!] === positive) {
        pos++;
        rankSum += midRank;
      }
    }
    s = e;
  }
  const neg = n - pos;
  if (pos === 0 || neg === 0) {
    throw new DataError('DATA_SINGLE_CLASS', 'the AUC needs rows of both the positive and the other classes');
  }
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** Mean negative log-likelihood of the labels under n x K probabilities, clipped to [eps, 1 - eps]. */
export function logLossScore(y: Int32Array, proba: Float64Array, nClasses: number, eps = 1e-15): number {
  const n = y.length;
  if (n === 0) throw new DataError('DATA_EMPTY', 'no rows to score');
  if (proba.length !== n * nClasses) {
    throw new DataError('DATA_SHAPE', `${proba.length} probabilities for ${n} rows x ${nClasses} classes`);
  }
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const p = Math.min(1 - eps, Math.max(eps, proba[i * nClasses + y[i]!]!));
    sum -= Math.log(p);
  }
  return sum / n;
}

export interface Evaluation {
  readonly accuracy: number;
  readonly balancedAccuracy: number;
  /** Binary: F1 of the schema's favourable class; more classes: macro F1. */
  readonly f1: number;
  /** Binary: AUC of P(favourable class); more classes: mean one-vs-rest AUC. Null without predictProba. */
  readonly auc: number | null;
  readonly logLoss: number | null;
}

function checkModel(model: Classifier, dataset: Dataset): void {
  if (model.nFeatures !== dataset.d) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `the model takes ${model.nFeatures} features, the dataset has ${dataset.d}`,
    );
  }
  if (dataset.n === 0) throw new DataError('DATA_EMPTY', 'the dataset has no rows');
}

function predictLabels(model: Classifier, dataset: Dataset): Int32Array {
  const pred = model.predict(dataset.x);
  if (pred.length !== dataset.n) {
    throw new ModelError(
      'MODEL_OUTPUT',
      `model.predict returned ${pred.length} labels for ${dataset.n} rows`,
    );
  }
  return pred;
}

/** Fraction of the dataset's rows whose predicted class equals the label. */
export function accuracy(model: Classifier, dataset: Dataset): number {
  checkModel(model, dataset);
  return accuracyScore(dataset.y, predictLabels(model, dataset));
}

/** Every metric of `Evaluation` for one model on one dataset (one predict and one predictProba call). */
export function evaluate(model: Classifier, dataset: Dataset): Evaluation {
  checkModel(model, dataset);
  const K = dataset.schema.outcome.labels.length;
  if (model.nClasses !== K) {
    throw new ModelError('MODEL_MISMATCH', `the model has ${model.nClasses} classes, the outcome has ${K}`);
  }
  const y = dataset.y;
  const pred = predictLabels(model, dataset);
  const favourable = dataset.schema.outcome.favorable;
  let auc: number | null = null;
  let logLoss: number | null = null;
  if (model.predictProba) {
    const proba = model.predictProba(dataset.x);
    logLoss = logLossScore(y, proba, K);
    const column = (k: number) => Float64Array.from({ length: dataset.n }, (_, i) => proba[i * K + k]!);
    if (K === 2) auc = rocAucScore(y, column(favourable), favourable);
    else {
      let sum = 0;
      let count = 0;
      for (let k = 0; k < K; k++) {
        const members = y.reduce((c, v) => c + (v === k ? 1 : 0), 0);
        if (members === 0 || members === dataset.n) continue;
        sum += rocAucScore(y, column(k), k);
        count++;
      }
      auc = count > 0 ? sum / count : null;
    }
  }
  return {
    accuracy: accuracyScore(y, pred),
    balancedAccuracy: balancedAccuracyScore(y, pred, K),
    f1: f1Score(y, pred, K, favourable),
    auc,
    logLoss,
  };
}
