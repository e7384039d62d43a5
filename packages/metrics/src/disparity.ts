import { DataError, OptionsError, Rng } from '@fb/core';
import { quantileSorted } from 'simple-statistics';
import { type Confusion, confusionByGroup, minus, RATES } from './confusion.js';
import type { Subgroups } from './groups.js';

/** The model metrics of seed 004, each compared for every subgroup against the rest of the population. */
export type GroupMetric =
  | 'statistical_parity'
  | 'tpr'
  | 'fpr'
  | 'fnr'
  | 'for'
  | 'fdr'
  | 'error_rate'
  | 'equalized_odds'
  | 'theil_index';

export const GROUP_METRICS: readonly GroupMetric[] = [
  'statistical_parity',
  'tpr',
  'fpr',
  'fnr',
  'for',
  'fdr',
  'error_rate',
  'equalized_odds',
  'theil_index',
];

export type DistanceMeasure = 'diff' | 'ratio';
export type Reduction = 'mean' | 'max' | null;

export interface DisparityInput {
  /** Actual outcome codes; null only for statistical parity, which needs predictions alone. */
  readonly yTrue: ArrayLike<number> | null;
  /** Predicted outcome codes (for dataset metrics: the labels themselves). */
  readonly yPred: ArrayLike<number>;
  readonly subgroups: Subgroups;
  /** Code of the favourable ("positive") outcome. Default 1. */
  readonly favorable?: number;
}

export interface BootstrapOptions {
  /** Resamples of the rows. Default 1000. */
  rounds?: number;
  /** Two-sided coverage of the percentile interval. Default 0.95. */
  confidence?: number;
  /** Seed of the resampling stream. Default 0. */
  seed?: number | string;
}

export interface DisparityOptions {
  /**
   * `diff`: |subgroup - rest|; `ratio`: subgroup / rest, inverted to be >= 1 (0/0 = 1, x/0 = Infinity).
   * Default `diff`; for `theil_index` default null: the between-group Theil index of {subgroup, rest}.
   */
  distanceMeasure?: DistanceMeasure | null;
  /** `mean` (default) or `max` over subgroups, or null for the per-subgroup map only. */
  reduction?: Reduction;
  /** Seeded bootstrap confidence intervals for the reduced value and every subgroup. Default none. */
  ci?: BootstrapOptions;
}

export interface Interval {
  readonly lower: number;
  readonly upper: number;
  /** Rounds in which the value was defined (the interval uses these). */
  readonly rounds: number;
}

export interface SubgroupDisparity {
  readonly key: string;
  readonly size: number;
  /** Distance between the subgroup and the rest; null when undefined (see `undefinedReason`). */
  readonly value: number | null;
  /** The metric on the subgroup's rows and on the rest's rows. */
  readonly subgroupValue: number | null;
  readonly restValue: number | null;
  readonly undefinedReason?: string;
  readonly ci?: Interval;
}

export interface DisparityResult {
  readonly metric: GroupMetric;
  readonly distanceMeasure: DistanceMeasure | null;
  readonly reduction: Reduction;
  /** The reduced value over subgroups with a defined value; null for reduction null or when none is defined. */
  readonly value: number | null;
  readonly ci?: Interval;
  readonly bySubgroup: readonly SubgroupDisparity[];
}

/** Theil index of a set from its confusion counts: benefit b = yhat - y + 1 is 0 (FN), 1 (TP, TN) or 2 (FP). */
export function theilOf(c: Confusion): number | null {
  const n = c.tp + c.fp + c.tn + c.fn;
  if (n === 0) return null;
  const mu = (c.tp + c.tn + 2 * c.fp) / n;
  if (mu === 0) return 0;
  const term = (b: number) => (b / mu) * Math.log(b / mu);
  return ((c.tp + c.tn) * term(1) + c.fp * term(2)) / n;
}

/** Between-group Theil index of a two-set partition (0 when both sets have the same mean benefit). */
function theilBetween(a: Confusion, b: Confusion): number | null {
  const benefit = (c: Confusion) => c.tp + c.tn + 2 * c.fp;
  const mean = (c: Confusion, n: number) => benefit(c) / n;
  const na = a.tp + a.fp + a.tn + a.fn;
  const nb = b.tp + b.fp + b.tn + b.fn;
  if (na === 0 || nb === 0) return null;
  const mu = (benefit(a) + benefit(b)) / (na + nb);
  if (mu === 0) return 0;
  let t = 0;
  for (const [c, n] of [
    [a, na],
    [b, nb],
  ] as const) {
    const m = mean(c, n);
    if (m > 0) t += (n / (na + nb)) * (m / mu) * Math.log(m / mu);
  }
  return t;
}

export function distance(a: number, b: number, measure: DistanceMeasure): number {
  if (measure === 'diff') return Math.abs(a - b);
  if (a === b) return 1;
  if (a === 0 || b === 0) return Number.POSITIVE_INFINITY;
  const r = a / b;
  return r >= 1 ? r : 1 / r;
}

const METRIC_RATE = {
  statistical_parity: ['selectionRate', 'no rows'],
  tpr: ['tpr', 'no actual positives'],
  fpr: ['fpr', 'no actual negatives'],
  fnr: ['fnr', 'no actual positives'],
  for: ['for', 'no predicted negatives'],
  fdr: ['fdr', 'no predicted positives'],
  error_rate: ['errorRate', 'no rows'],
} as const;

interface Evaluated {
  value: number | null;
  subgroupValue: number | null;
  restValue: number | null;
  reason?: string;
}

function evaluate(
  metric: GroupMetric,
  g: Confusion,
  rest: Confusion,
  measure: DistanceMeasure | null,
): Evaluated {
  if (metric === 'theil_index') {
    const sv = theilOf(g);
    const rv = theilOf(rest);
    if (measure === null) {
      const v = theilBetween(g, rest);
      return v === null
        ? { value: null, subgroupValue: sv, restValue: rv, reason: 'the rest of the population is empty' }
        : { value: v, subgroupValue: sv, restValue: rv };
    }
    if (sv === null || rv === null)
      return { value: null, subgroupValue: sv, restValue: rv, reason: 'the rest of the population is empty' };
    return { value: distance(sv, rv, measure), subgroupValue: sv, restValue: rv };
  }
  const m = measure ?? 'diff';
  if (metric === 'equalized_odds') {
    const tpr = evaluate('tpr', g, rest, m);
    const fpr = evaluate('fpr', g, rest, m);
    const defined = [tpr.value, fpr.value].filter((v): v is number => v !== null);
    if (defined.length === 0)
      return {
        value: null,
        subgroupValue: null,
        restValue: null,
        reason: `TPR: ${tpr.reason}; FPR: ${fpr.reason}`,
      };
    return { value: Math.max(...defined), subgroupValue: null, restValue: null };
  }
  const [rateName, reason] = METRIC_RATE[metric];
  const sv = RATES[rateName](g);
  const rv = RATES[rateName](rest);
  if (sv === null) return { value: null, subgroupValue: sv, restValue: rv, reason: `subgroup has ${reason}` };
  if (rv === null)
    return { value: null, subgroupValue: sv, restValue: rv, reason: `rest of the population has ${reason}` };
  return { value: distance(sv, rv, m), subgroupValue: sv, restValue: rv };
}

function reduce(values: readonly (number | null)[], reduction: Reduction): number | null {
  if (reduction === null) return null;
  const defined = values.filter((v): v is number => v !== null);
  if (defined.length === 0) return null;
  if (reduction === 'max') return Math.max(...defined);
  return defined.reduce((s, v) => s + v, 0) / defined.length;
}

function checkInput(metric: GroupMetric, input: DisparityInput, options: DisparityOptions): void {
  if (!GROUP_METRICS.includes(metric)) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `unknown metric "${metric}" (known: ${GROUP_METRICS.join(', ')})`,
      { option: '/metric' },
    );
  }
  const { yTrue, yPred, subgroups } = input;
  if (yPred.length !== subgroups.codes.length) {
    throw new DataError(
      'DATA_SHAPE',
      `yPred has ${yPred.length} values but the subgroups cover ${subgroups.codes.length} rows`,
    );
  }
  if (yTrue === null && metric !== 'statistical_parity') {
    throw new OptionsError('OPTIONS_INVALID', `metric "${metric}" needs yTrue`, { option: '/yTrue' });
  }
  if (yTrue !== null && yTrue.length !== yPred.length) {
    throw new DataError('DATA_SHAPE', `yTrue has ${yTrue.length} values, yPred ${yPred.length}`);
  }
  if (yPred.length === 0) throw new DataError('DATA_EMPTY', 'no rows to compute a group metric on');
  if (options.distanceMeasure === null && metric !== 'theil_index') {
    throw new OptionsError('OPTIONS_INVALID', `distanceMeasure null is only defined for theil_index`, {
      option: '/distanceMeasure',
    });
  }
  const d = options.distanceMeasure;
  if (d !== undefined && d !== null && d !== 'diff' && d !== 'ratio') {
    throw new OptionsError('OPTIONS_INVALID', `distanceMeasure must be diff or ratio, got ${String(d)}`, {
      option: '/distanceMeasure',
    });
  }
  const r = options.reduction;
  if (r !== undefined && r !== null && r !== 'mean' && r !== 'max') {
    throw new OptionsError('OPTIONS_INVALID', `reduction must be mean, max or null, got ${String(r)}`, {
      option: '/reduction',
    });
  }
}

function perGroup(
  metric: GroupMetric,
  yTrue: ArrayLike<number> | null,
  yPred: ArrayLike<number>,
  codes: Int32Array,
  groups: number,
  favorable: number,
  measure: DistanceMeasure | null,
): Evaluated[] {
  const { counts, total } = confusionByGroup(yTrue, yPred, codes, groups, favorable);
  return counts.map((c) =>
    c.tp + c.fp + c.tn + c.fn === 0
      ? { value: null, subgroupValue: null, restValue: null, reason: 'subgroup is empty' }
      : evaluate(metric, c, minus(total, c), measure),
  );
}

/** Percentile interval of the defined draws, or undefined when fewer than two rounds were defined. */
export function percentileInterval(draws: number[], confidence: number): Interval | undefined {
  if (draws.length < 2) return undefined;
  draws.sort((a, b) => a - b);
  const alpha = (1 - confidence) / 2;
  return {
    lower: quantileSorted(draws, alpha),
    upper: quantileSorted(draws, 1 - alpha),
    rounds: draws.length,
  };
}

/** Resample rows with replacement from a seeded stream; `visit` gets the row indices of each round. */
export function bootstrapRounds(
  n: number,
  options: BootstrapOptions,
  visit: (rows: Int32Array) => void,
): void {
  const rounds = options.rounds ?? 1000;
  if (!Number.isInteger(rounds) || rounds < 2) {
    throw new OptionsError('OPTIONS_INVALID', `ci.rounds must be an integer >= 2, got ${rounds}`, {
      option: '/ci/rounds',
    });
  }
  const confidence = options.confidence ?? 0.95;
  if (!(confidence > 0 && confidence < 1)) {
    throw new OptionsError('OPTIONS_INVALID', `ci.confidence must be in (0, 1), got ${confidence}`, {
      option: '/ci/confidence',
    });
  }
  const rng = Rng.create(options.seed ?? 0).fork('bootstrap');
  const rows = new Int32Array(n);
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < n; i++) rows[i] = rng.int(0, n - 1);
    visit(rows);
  }
}

/**
 * Every subgroup of `input.subgroups` against the rest of the population on one metric, with the
 * distance measure and reduction of seed 004. Undefined values (a zero denominator, e.g. TPR of a
 * group without actual positives) are null with a reason and left out of the reduction.
 */
export function groupDisparity(
  metric: GroupMetric,
  input: DisparityInput,
  options: DisparityOptions = {},
): DisparityResult {
  checkInput(metric, input, options);
  const measure =
    options.distanceMeasure === undefined
      ? metric === 'theil_index'
        ? null
        : 'diff'
      : options.distanceMeasure;
  const reduction = options.reduction === undefined ? 'mean' : options.reduction;
  const favorable = input.favorable ?? 1;
  const { subgroups, yTrue, yPred } = input;
  const g = subgroups.keys.length;
  const point = perGroup(metric, yTrue, yPred, subgroups.codes, g, favorable, measure);
  const value = reduce(
    point.map((p) => p.value),
    reduction,
  );
  let groupCi: (Interval | undefined)[] = [];
  let valueCi: Interval | undefined;
  if (options.ci) {
    const n = yPred.length;
    const draws: number[][] = Array.from({ length: g }, () => []);
    const reduced: number[] = [];
    const bt = yTrue ? new Int32Array(n) : null;
    const bp = new Int32Array(n);
    const bc = new Int32Array(n);
    bootstrapRounds(n, options.ci, (rows) => {
      for (let i = 0; i < n; i++) {
        const r = rows[i]!;
        if (bt) bt[i] = yTrue![r]!;
        bp[i] = yPred[r]!;
        bc[i] = subgroups.codes[r]!;
      }
      const round = perGroup(metric, bt, bp, bc, g, favorable, measure);
      round.forEach((p, k) => {
        if (p.value !== null) draws[k]!.push(p.value);
      });
      const rv = reduce(
        round.map((p) => p.value),
        reduction,
      );
      if (rv !== null) reduced.push(rv);
    });
    const confidence = options.ci.confidence ?? 0.95;
    groupCi = draws.map((d) => percentileInterval(d, confidence));
    valueCi = percentileInterval(reduced, confidence);
  }
  return Object.freeze({
    metric,
    distanceMeasure: measure,
    reduction,
    value,
    ...(valueCi ? { ci: valueCi } : {}),
    bySubgroup: point.map((p, k) => ({
      key: subgroups.keys[k]!,
      size: subgroups.sizes[k]!,
      value: p.value,
      subgroupValue: p.subgroupValue,
      restValue: p.restValue,
      ...(p.reason ? { undefinedReason: p.reason } : {}),
      ...(groupCi[k] ? { ci: groupCi[k] } : {}),
    })),
  });
}

/** The reduced value, or with reduction null the `{ subgroup: value }` map (seed 004's return shape). */
export function reducedOrMap(result: DisparityResult): number | null | Record<string, number | null> {
  if (result.reduction !== null) return result.value;
  return Object.fromEntries(result.bySubgroup.map((s) => [s.key, s.value]));
}
