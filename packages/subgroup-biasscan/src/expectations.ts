import { DataError, type Dataset, type NumberArray } from '@fb/core';
import type { BiasScanMode } from './options.js';

/** How far a row of class probabilities may sum from 1. */
const SUM_TOLERANCE = 1e-6;

/**
 * Expectations given without a model, in one of the forms of AIF360's `bias_scan(expectations=...)`:
 * - n numbers (binary mode): the probability of the favourable outcome for each row;
 * - n × K numbers, row-major: the probability of each outcome class for each row (what a model's
 *   `predictProba` returns), in any mode;
 * - `null`: AIF360's default when no expectations are given: every row expects the observed mean of
 *   the outcome (binary, ordinal, continuous: each row gets the observed class frequencies), and in
 *   nominal mode every class 1/K.
 */
export type BiasScanExpectations = NumberArray | null;

/**
 * The class probabilities (n × K, row-major) that the scan compares with the outcomes and that the
 * randomisation test draws from. Throws a `DataError` naming the row when the expectations do not fit.
 */
export function classProbabilities(
  dataset: Dataset,
  expectations: BiasScanExpectations,
  mode: BiasScanMode,
): Float64Array {
  const { n, y } = dataset;
  const { labels, favorable } = dataset.schema.outcome;
  const k = labels.length;
  const proba = new Float64Array(n * k);
  if (expectations === null) {
    if (mode === 'nominal') return proba.fill(1 / k);
    const freq = new Float64Array(k);
    for (let i = 0; i < n; i++) freq[y[i]!]!++;
    for (let c = 0; c < k; c++) freq[c]! /= n;
    for (let i = 0; i < n; i++) proba.set(freq, i * k);
    return proba;
  }
  if (expectations === undefined || typeof expectations.length !== 'number') {
    throw new DataError('DATA_SHAPE', 'expectations must be an array of numbers or null');
  }
  const len = expectations.length;
  const check = (v: number, i: number, what: string) => {
    if (!Number.isFinite(v) || v < 0 || v > 1) {
      throw new DataError('DATA_OUT_OF_DOMAIN', `row ${i}: ${what} ${v} is not a probability in [0, 1]`, {
        row: i,
      });
    }
  };
  if (len === n * k) {
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let c = 0; c < k; c++) {
        const v = expectations[i * k + c]!;
        check(v, i, `P(${labels[c]})`);
        proba[i * k + c] = v;
        sum += v;
      }
      if (Math.abs(sum - 1) > SUM_TOLERANCE) {
        throw new DataError(
          'DATA_OUT_OF_DOMAIN',
          `row ${i}: the class probabilities sum to ${sum}, not 1 (expectations of ${n} rows × ${k} classes, row-major)`,
          { row: i },
        );
      }
    }
    return proba;
  }
  if (len === n && mode === 'binary') {
    // The other classes share 1 − p; only P(favourable) matters to the binary scan and its replicates.
    const others = k - 1;
    for (let i = 0; i < n; i++) {
      const p = expectations[i]!;
      check(p, i, `P(${labels[favorable]})`);
      for (let c = 0; c < k; c++) proba[i * k + c] = c === favorable ? p : (1 - p) / others;
    }
    return proba;
  }
  throw new DataError(
    'DATA_SHAPE',
    `expectations have ${len} numbers; mode "${mode}" takes ${mode === 'binary' ? `${n} (P(${labels[favorable]}) per row) or ` : ''}${n * k} (${n} rows × ${k} class probabilities, row-major)`,
  );
}
