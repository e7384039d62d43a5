import { DataError, OptionsError } from '@fb/core';

/**
 * Score functions of the expectation-based scan. Each is a log-likelihood ratio F(S) = max over a
 * free parameter t of F(S, t), concave in t with F(S, 0) = 0 (t = 0 is the null hypothesis):
 * - `bernoulli`: binary observations yᵢ against probabilities pᵢ; t = ln q, odds multiplied by q;
 * - `poisson`: counts against expected counts; t = ln q, rates multiplied by q;
 * - `gaussian`: real observations against expectations, Δᵢ = yᵢ − eᵢ ~ N(t, σ²); t = μ, a mean shift;
 * - `berk-jones`: binary observations against one null proportion α; t = the log odds ratio of the
 *   subgroup's proportion to α (the score equals N·KL(Y/N ‖ α) at the optimum).
 */
export type ScoreFunction = 'bernoulli' | 'poisson' | 'gaussian' | 'berk-jones';

/** `positive`: observations above their expectations (t > 0); `negative`: below (t < 0). */
export type ScanDirection = 'positive' | 'negative';

/** Records prepared once for scanning: per-attribute value codes and per-record observation/expectation. */
export interface ScanData {
  /** Per attribute, the value code (0..arity−1) of each record. */
  readonly codes: readonly Int32Array[];
  /** Per attribute, the number of value codes. */
  readonly arity: readonly number[];
  /** Per record, the observed value (outcome, count, or real value). */
  readonly observed: Float64Array;
  /** Per record, its expectation under the null hypothesis. */
  readonly expected: Float64Array;
}

export interface ScanConfig {
  score: ScoreFunction;
  direction: ScanDirection;
  /** Iterations (restarts) of the coordinate ascent; the first starts from all records. */
  iterations: number;
  /** Cost per value of each constrained attribute (an unconstrained attribute costs nothing). */
  penalty: number;
  /** Per attribute, whether its value set must be a contiguous range of codes (ordinal attributes). */
  contiguous?: readonly boolean[];
  /** Gaussian: σ of Δᵢ under the null; default √(mean Δᵢ²), its maximum-likelihood estimate under H₀. */
  sigma?: number;
  /** Berk-Jones: the null proportion α; default the mean expectation. */
  alpha?: number;
  /**
   * How an attribute step finds its best value set: `intervals` (the parameter intervals of ALTSS,
   * exact for every score and penalty), `prefix` (priority sort and prefix scan, exact for the
   * sufficient-statistic scores without penalty), or `auto` (prefix when it is exact, else intervals).
   */
  stepMethod?: 'auto' | 'intervals' | 'prefix';
}

/** Probabilities are kept this far from 0 and 1 so that every likelihood ratio stays finite. */
export const PROBABILITY_FLOOR = 1e-9;

/** The data in the form the kernels use: per-record values and the score's constants. */
export interface PreparedScore {
  score: ScoreFunction;
  n: number;
  /** Bernoulli, Poisson, Berk-Jones: the observations; Gaussian: Δᵢ = yᵢ − eᵢ. */
  values: Float64Array;
  /** Bernoulli: clamped probabilities; Poisson: expected counts; others: unused (the expectations). */
  expected: Float64Array;
  /** Gaussian σ² (1 otherwise). */
  variance: number;
  /** Berk-Jones α (0 otherwise). */
  alpha: number;
}

const dataError = (msg: string, row?: number) =>
  new DataError('DATA_OUT_OF_DOMAIN', msg, row === undefined ? {} : { row });

/** Throws a typed error when codes, arities, observations and expectations do not fit together. */
export function checkScanData(data: ScanData): number {
  const { codes, arity, observed, expected } = data;
  const n = observed.length;
  if (codes.length === 0 || codes.length !== arity.length) {
    throw new DataError(
      'DATA_SHAPE',
      `the scan needs one code array and one arity per attribute (got ${codes.length} and ${arity.length})`,
    );
  }
  if (codes.length > 0xffff) {
    throw new DataError('DATA_SHAPE', `at most 65535 attributes can be scanned, got ${codes.length}`);
  }
  if (n === 0) throw new DataError('DATA_EMPTY', 'the scan needs at least one record');
  if (expected.length !== n) {
    throw new DataError('DATA_SHAPE', `${n} observations but ${expected.length} expectations`);
  }
  codes.forEach((c, m) => {
    const k = arity[m]!;
    if (!(Number.isInteger(k) && k >= 1)) {
      throw new DataError('DATA_SHAPE', `attribute ${m}: arity ${k} is not a positive integer`);
    }
    if (c.length !== n)
      throw new DataError('DATA_SHAPE', `attribute ${m} has ${c.length} codes for ${n} records`);
    for (let i = 0; i < n; i++) {
      if (!(c[i]! >= 0 && c[i]! < k))
        throw dataError(`attribute ${m}, record ${i}: code ${c[i]} is not in 0..${k - 1}`, i);
    }
  });
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(observed[i]!) || !Number.isFinite(expected[i]!)) {
      throw new DataError('DATA_NOT_FINITE', `record ${i}: observation or expectation is not finite`, {
        row: i,
      });
    }
  }
  return n;
}

function checkConfig(config: ScanConfig, attributes: number): void {
  const bad = (option: string, msg: string) =>
    new OptionsError('OPTIONS_INVALID', `${option} ${msg}`, { option: `/${option}` });
  if (!(Number.isInteger(config.iterations) && config.iterations >= 1)) {
    throw bad('iterations', `must be a positive integer, got ${config.iterations}`);
  }
  if (!(config.penalty >= 0 && Number.isFinite(config.penalty))) {
    throw bad('penalty', `must be finite and >= 0, got ${config.penalty}`);
  }
  if (config.contiguous !== undefined && config.contiguous.length !== attributes) {
    throw bad('contiguous', `needs one flag per attribute (${attributes}), got ${config.contiguous.length}`);
  }
  if (config.sigma !== undefined && !(config.sigma > 0 && Number.isFinite(config.sigma))) {
    throw bad('sigma', `must be positive and finite, got ${config.sigma}`);
  }
  if (config.alpha !== undefined && !(config.alpha > 0 && config.alpha < 1)) {
    throw bad('alpha', `must be in (0, 1), got ${config.alpha}`);
  }
}

/** Validate data and configuration and compute what the score's kernel needs. */
export function prepareScore(data: ScanData, config: ScanConfig): PreparedScore {
  const n = checkScanData(data);
  checkConfig(config, data.codes.length);
  const { observed, expected } = data;
  const { score } = config;
  if (score === 'gaussian') {
    const values = new Float64Array(n);
    let ss = 0;
    for (let i = 0; i < n; i++) {
      const d = observed[i]! - expected[i]!;
      values[i] = d;
      ss += d * d;
    }
    const sigma = config.sigma ?? Math.sqrt(ss / n);
    // Observations identical to their expectations carry no evidence: any σ gives F = 0.
    const variance = sigma > 0 ? sigma * sigma : 1;
    return { score, n, values, expected, variance, alpha: 0 };
  }
  for (let i = 0; i < n; i++) {
    const y = observed[i]!;
    const e = expected[i]!;
    if (score === 'poisson') {
      if (!(y >= 0 && e >= 0)) throw dataError(`record ${i}: Poisson needs counts and expectations >= 0`, i);
    } else if (!(y >= 0 && y <= 1 && e >= 0 && e <= 1)) {
      throw dataError(`record ${i}: ${score} needs observations and expectations in [0, 1]`, i);
    }
  }
  if (score === 'poisson') return { score, n, values: observed, expected, variance: 1, alpha: 0 };
  if (score === 'berk-jones') {
    let mean = 0;
    for (let i = 0; i < n; i++) mean += expected[i]!;
    mean /= n;
    const alpha = Math.min(1 - PROBABILITY_FLOOR, Math.max(PROBABILITY_FLOOR, config.alpha ?? mean));
    return { score, n, values: observed, expected, variance: 1, alpha };
  }
  const clamped = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    clamped[i] = Math.min(1 - PROBABILITY_FLOOR, Math.max(PROBABILITY_FLOOR, expected[i]!));
  }
  return { score, n, values: observed, expected: clamped, variance: 1, alpha: 0 };
}
