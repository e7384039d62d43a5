import { DataError } from '@fb/core';
import type { Variable } from './variables.js';

/**
 * A naive Bayes model over discrete variables with a binary decision D:
 * P(D = 1) and, per variable and level, P(level | D = 0) and P(level | D = 1).
 */
export interface NaiveBayes {
  /** P(D = 1). */
  prior: number;
  /** Per variable, levels × 2 (P(level | D = 0), P(level | D = 1)). */
  leaves: Float64Array[];
}

/**
 * Maximum-likelihood parameters from counts, with additive smoothing `alpha` (0: pure maximum
 * likelihood). The prior is P(D = 1) = count(D = 1) / n (a known implementation swaps the two).
 */
export function fitNaiveBayes(
  variables: Variable[],
  codes: Int32Array,
  decision: Uint8Array,
  alpha: number,
): NaiveBayes {
  const n = decision.length;
  const v = variables.length;
  let positives = 0;
  for (let i = 0; i < n; i++) positives += decision[i]!;
  if (positives === 0 || positives === n) {
    throw new DataError(
      'DATA_SINGLE_CLASS',
      'the decision takes a single value: a naive Bayes model needs both',
      {
        positives,
        rows: n,
      },
    );
  }
  const counts = variables.map((x) => new Float64Array(x.levels.length * 2));
  for (let i = 0; i < n; i++) {
    const dcl = decision[i]!;
    for (let j = 0; j < v; j++) counts[j]![codes[i * v + j]! * 2 + dcl]!++;
  }
  const classTotals = [n - positives, positives];
  const leaves = counts.map((c, j) => {
    const k = variables[j]!.levels.length;
    const leaf = new Float64Array(k * 2);
    for (let l = 0; l < k; l++) {
      for (let dcl = 0; dcl < 2; dcl++)
        leaf[l * 2 + dcl] = (c[l * 2 + dcl]! + alpha) / (classTotals[dcl]! + alpha * k);
    }
    return leaf;
  });
  return { prior: positives / n, leaves };
}
