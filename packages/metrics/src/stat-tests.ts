import {
  attributeIndex,
  DataError,
  type Dataset,
  normalUpperTail,
  OptionsError,
  Rng,
  studentTUpperTail,
} from '@fb/core';
import { mean, sampleVariance } from 'simple-statistics';
import { confusionByGroup, RATES, type RateName } from './confusion.js';
import { scaledFeatures } from './dataset-metrics.js';
import type { Subgroups } from './groups.js';

export interface ZTestResult {
  readonly rateA: number;
  readonly rateB: number;
  readonly nA: number;
  readonly nB: number;
  /** (rateA - rateB) / SE with the pooled proportion. 0 when SE is 0 (both rates 0 or both 1). */
  readonly z: number;
  /** Two-sided: 2 P(Z > |z|). */
  readonly pValue: number;
  readonly rejectNull: boolean;
}

/**
 * Two-proportion z-test of statistical parity (seed 002): are favourable predictions equally
 * frequent in group A (`sensitive == groupA`) and group B (`sensitive == groupB`)?
 */
export function statisticalParityTest(
  yPred: ArrayLike<number>,
  sensitive: ArrayLike<number>,
  options: { alpha?: number; favorable?: number; groupA?: number; groupB?: number } = {},
): ZTestResult {
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1))
    throw new OptionsError('OPTIONS_INVALID', `alpha must be in (0, 1), got ${alpha}`, { option: '/alpha' });
  if (yPred.length !== sensitive.length)
    throw new DataError('DATA_SHAPE', `yPred has ${yPred.length} values, sensitive ${sensitive.length}`);
  const favorable = options.favorable ?? 1;
  const [ga, gb] = [options.groupA ?? 0, options.groupB ?? 1];
  let nA = 0;
  let nB = 0;
  let pA = 0;
  let pB = 0;
  for (let i = 0; i < yPred.length; i++) {
    const pos = yPred[i] === favorable ? 1 : 0;
    if (sensitive[i] === ga) {
      nA++;
      pA += pos;
    } else if (sensitive[i] === gb) {
      nB++;
      pB += pos;
    }
  }
  if (nA === 0 || nB === 0) {
    throw new DataError(
      'DATA_EMPTY_GROUP',
      `group ${nA === 0 ? `A (${ga})` : `B (${gb})`} has no rows: the test needs both groups`,
    );
  }
  const rateA = pA / nA;
  const rateB = pB / nB;
  const pooled = (pA + pB) / (nA + nB);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / nA + 1 / nB));
  const z = se > 0 ? (rateA - rateB) / se : 0;
  const pValue = Math.min(1, 2 * normalUpperTail(Math.abs(z)));
  return { rateA, rateB, nA, nB, z, pValue, rejectNull: pValue < alpha };
}

/** Rates where a higher value is the better outcome for the group. */
const HIGHER_IS_BETTER: ReadonlySet<RateName> = new Set(['selectionRate', 'tpr', 'tnr', 'precision', 'npv']);

export interface BiasMapEntry {
  readonly key: string;
  readonly size: number;
  readonly value: number;
  /** |value - reference value|. */
  readonly disparity: number;
}

export interface BiasMap {
  readonly metric: RateName;
  readonly groups: readonly BiasMapEntry[];
  /** The group with the best value (highest, or lowest for error-type rates). */
  readonly reference: { readonly key: string; readonly value: number } | null;
  readonly mostDisadvantaged: BiasMapEntry | null;
  /** Groups where the rate is undefined (zero denominator), left out. */
  readonly undefinedGroups: readonly string[];
}

/**
 * Intersectional bias map (seed 002): the metric on every intersectional group, the best group as
 * reference, each group's distance to it and the most disadvantaged group.
 */
export function intersectionalBiasMap(
  yTrue: ArrayLike<number>,
  yPred: ArrayLike<number>,
  subgroups: Subgroups,
  options: { metric?: RateName; favorable?: number } = {},
): BiasMap {
  const metric = options.metric ?? 'tpr';
  if (!(metric in RATES))
    throw new OptionsError(
      'OPTIONS_INVALID',
      `unknown metric "${metric}" (known: ${Object.keys(RATES).join(', ')})`,
      { option: '/metric' },
    );
  if (yTrue.length !== yPred.length || yPred.length !== subgroups.codes.length) {
    throw new DataError('DATA_SHAPE', 'yTrue, yPred and the subgroups must cover the same rows');
  }
  const { counts } = confusionByGroup(
    yTrue,
    yPred,
    subgroups.codes,
    subgroups.keys.length,
    options.favorable ?? 1,
  );
  const defined: { key: string; size: number; value: number }[] = [];
  const undefinedGroups: string[] = [];
  counts.forEach((c, g) => {
    const v = RATES[metric](c);
    if (v === null) undefinedGroups.push(subgroups.keys[g]!);
    else defined.push({ key: subgroups.keys[g]!, size: subgroups.sizes[g]!, value: v });
  });
  if (defined.length === 0)
    return { metric, groups: [], reference: null, mostDisadvantaged: null, undefinedGroups };
  const higher = HIGHER_IS_BETTER.has(metric);
  const ref = defined.reduce((best, e) =>
    (higher ? e.value > best.value : e.value < best.value) ? e : best,
  );
  const groups = defined.map((e) => ({ ...e, disparity: Math.abs(e.value - ref.value) }));
  const mostDisadvantaged = groups.reduce((worst, e) => (e.disparity > worst.disparity ? e : worst));
  return {
    metric,
    groups,
    reference: { key: ref.key, value: ref.value },
    mostDisadvantaged,
    undefinedGroups,
  };
}

export interface CusumResult {
  readonly driftDetected: boolean;
  /** Index of the first point where a cumulative sum exceeded the threshold. */
  readonly changePoint: number | null;
  readonly direction: 'up' | 'down' | null;
  /** max(S+, S-) when the run stopped. */
  readonly magnitude: number;
  /** `none` below threshold / 2, `warning` up to the threshold, `drift` above it. */
  readonly alertLevel: 'none' | 'warning' | 'drift';
  readonly baseline: number;
}

/**
 * CUSUM drift detection over a metric's time series (seed 002): baseline = mean of the first
 * `baselinePeriod` values; S+ = max(0, S+ + (x - baseline) - allowance), S- likewise downwards;
 * drift at the first point where either exceeds `threshold`.
 */
export function cusum(
  values: ArrayLike<number>,
  options: { threshold?: number; allowance?: number; baselinePeriod?: number } = {},
): CusumResult {
  const threshold = options.threshold ?? 0.05;
  const allowance = options.allowance ?? 0.01;
  const period = options.baselinePeriod ?? 10;
  if (values.length === 0) throw new DataError('DATA_EMPTY', 'cusum needs at least one value');
  if (!Number.isInteger(period) || period < 1)
    throw new OptionsError('OPTIONS_INVALID', `baselinePeriod must be a positive integer, got ${period}`, {
      option: '/baselinePeriod',
    });
  if (!(threshold > 0))
    throw new OptionsError('OPTIONS_INVALID', `threshold must be > 0, got ${threshold}`, {
      option: '/threshold',
    });
  if (!(allowance >= 0))
    throw new OptionsError('OPTIONS_INVALID', `allowance must be >= 0, got ${allowance}`, {
      option: '/allowance',
    });
  const m = Math.min(period, values.length);
  let baseline = 0;
  for (let t = 0; t < m; t++) baseline += values[t]!;
  baseline /= m;
  let up = 0;
  let down = 0;
  for (let t = 0; t < values.length; t++) {
    const dev = values[t]! - baseline;
    up = Math.max(0, up + dev - allowance);
    down = Math.max(0, down - dev - allowance);
    if (up > threshold || down > threshold) {
      return {
        driftDetected: true,
        changePoint: t,
        direction: up > threshold ? 'up' : 'down',
        magnitude: Math.max(up, down),
        alertLevel: 'drift',
        baseline,
      };
    }
  }
  const magnitude = Math.max(up, down);
  return {
    driftDetected: false,
    changePoint: null,
    direction: null,
    magnitude,
    alertLevel: magnitude < threshold / 2 ? 'none' : 'warning',
    baseline,
  };
}

export interface LabelBiasOptions {
  /** Two rows are similar when the RMS distance of their scaled non-protected features is below this. Default 0.1. */
  similarityThreshold?: number;
  /** Fewer similar cross-group pairs than this: no test (`sufficient` false). Default 100. */
  minPairs?: number;
  /**
   * At most this many similar pairs in each sample (cross-group and within-group), the first found from
   * shuffled anchors; the search stops for both once either is full. Default 20000.
   */
  maxPairs?: number;
  /** `within-group`: similar pairs of the same group (default); `random`: random pairs of any rows (seed 002). */
  baseline?: 'within-group' | 'random';
  alpha?: number;
  seed?: number | string;
}

export interface LabelBiasResult {
  readonly pairs: number;
  readonly baselinePairs: number;
  readonly sufficient: boolean;
  /** Mean |y_i - y_j| over similar cross-group pairs. */
  readonly meanDiscrepancy: number | null;
  readonly baselineDiscrepancy: number | null;
  readonly excessDiscrepancy: number | null;
  /** Welch t statistic and one-sided p-value (H1: cross-group discrepancy exceeds the baseline). */
  readonly t: number | null;
  readonly pValue: number | null;
  readonly biasDetected: boolean;
}

/** One-sided Welch t-test that the mean of `a` exceeds the mean of `b`. */
export function welchGreater(a: readonly number[], b: readonly number[]): { t: number; pValue: number } {
  const ma = mean(a as number[]);
  const mb = mean(b as number[]);
  const va = a.length > 1 ? sampleVariance(a as number[]) / a.length : 0;
  const vb = b.length > 1 ? sampleVariance(b as number[]) / b.length : 0;
  const se = Math.sqrt(va + vb);
  if (se === 0) return { t: ma === mb ? 0 : ma > mb ? Infinity : -Infinity, pValue: ma > mb ? 0 : 1 };
  const t = (ma - mb) / se;
  const df =
    (va + vb) ** 2 / ((va > 0 ? va ** 2 / (a.length - 1) : 0) + (vb > 0 ? vb ** 2 / (b.length - 1) : 0));
  return { t, pValue: studentTUpperTail(t, df) };
}

/**
 * Label-bias test (seed 002): pairs of similar rows (non-protected features) from different groups
 * of `protectedAttribute` should carry the same label; their mean label discrepancy is compared with
 * a baseline by a one-sided Welch t-test.
 */
export function labelBiasTest(
  ds: Dataset,
  protectedAttribute: string,
  options: LabelBiasOptions = {},
): LabelBiasResult {
  const threshold = options.similarityThreshold ?? 0.1;
  const minPairs = options.minPairs ?? 100;
  const maxPairs = options.maxPairs ?? 20000;
  const alpha = options.alpha ?? 0.05;
  if (!(threshold > 0))
    throw new OptionsError('OPTIONS_INVALID', `similarityThreshold must be > 0, got ${threshold}`, {
      option: '/similarityThreshold',
    });
  const p = attributeIndex(ds.schema, protectedAttribute);
  const cols = ds.schema.attributes
    .map((a, j) => [a, j] as const)
    .filter(([a, j]) => j !== p && !a.protected);
  const m = cols.length;
  if (m === 0)
    throw new OptionsError('OPTIONS_INVALID', 'no non-protected feature to measure similarity on', {
      option: '/protectedAttribute',
    });
  const { z, categorical } = scaledFeatures(ds, cols);
  const limit = threshold * threshold * m;
  const group = (i: number) => ds.x[i * ds.d + p]!;
  const rng = Rng.create(options.seed ?? 0).fork('label-bias');
  const anchors = rng.shuffle(Int32Array.from({ length: ds.n }, (_, i) => i));
  const cross: number[] = [];
  const within: number[] = [];
  // Both samples come from the same anchors: the scan stops, for both, at the pair that fills either.
  const full = () => cross.length >= maxPairs || within.length >= maxPairs;
  for (const i of anchors) {
    if (full()) break;
    for (let j = i + 1; j < ds.n && !full(); j++) {
      let dist = 0;
      for (let c = 0; c < m && dist < limit; c++) {
        const diff = z[i * m + c]! - z[j * m + c]!;
        dist += categorical[c] ? (diff !== 0 ? 1 : 0) : diff * diff;
      }
      if (dist >= limit) continue;
      const discrepancy = Math.abs(ds.y[i]! - ds.y[j]!);
      if (group(i) !== group(j)) cross.push(discrepancy);
      else within.push(discrepancy);
    }
  }
  let base = within;
  if (options.baseline === 'random') {
    base = [];
    for (let k = 0; k < Math.max(cross.length, 2); k++) {
      const pair = rng.sampleIndices(ds.n, 2);
      base.push(Math.abs(ds.y[pair[0]!]! - ds.y[pair[1]!]!));
    }
  }
  const sufficient = cross.length >= minPairs && base.length >= 2;
  if (!sufficient) {
    return {
      pairs: cross.length,
      baselinePairs: base.length,
      sufficient,
      meanDiscrepancy: cross.length ? mean(cross) : null,
      baselineDiscrepancy: base.length ? mean(base) : null,
      excessDiscrepancy: null,
      t: null,
      pValue: null,
      biasDetected: false,
    };
  }
  const { t, pValue } = welchGreater(cross, base);
  const meanDiscrepancy = mean(cross);
  const baselineDiscrepancy = mean(base);
  return {
    pairs: cross.length,
    baselinePairs: base.length,
    sufficient,
    meanDiscrepancy,
    baselineDiscrepancy,
    excessDiscrepancy: meanDiscrepancy - baselineDiscrepancy,
    t,
    pValue,
    biasDetected: pValue < alpha,
  };
}
