import { DataError, OptionsError } from '@fb/core';
import { confusionByGroup, RATES } from './confusion.js';
import type { Subgroups } from './groups.js';

/** A metric on (yTrue, yPred) of a set of rows; null when undefined on those rows. */
export type FrameMetric = (yTrue: Int32Array, yPred: Int32Array) => number | null;

const confusionOf = (yTrue: Int32Array, yPred: Int32Array, positive: number) =>
  confusionByGroup(yTrue, yPred, null, 1, positive).total;

/** fairlearn's built-in metrics, for the favourable code 1. */
export const frameMetrics = {
  count: (_t: Int32Array, p: Int32Array) => p.length,
  accuracy: (t: Int32Array, p: Int32Array) =>
    p.length ? p.reduce((s, v, i) => s + (v === t[i] ? 1 : 0), 0) / p.length : null,
  selectionRate: (t: Int32Array, p: Int32Array) => RATES.selectionRate(confusionOf(t, p, 1)),
  truePositiveRate: (t: Int32Array, p: Int32Array) => RATES.tpr(confusionOf(t, p, 1)),
  trueNegativeRate: (t: Int32Array, p: Int32Array) => RATES.tnr(confusionOf(t, p, 1)),
  falsePositiveRate: (t: Int32Array, p: Int32Array) => RATES.fpr(confusionOf(t, p, 1)),
  falseNegativeRate: (t: Int32Array, p: Int32Array) => RATES.fnr(confusionOf(t, p, 1)),
} satisfies Record<string, FrameMetric>;

export type FrameMethod = 'between_groups' | 'to_overall';

/**
 * A fairlearn `MetricFrame`: metrics overall and by group, with fairlearn's meanings of
 * `difference` (between_groups: max - min; to_overall: max |group - overall|) and `ratio`
 * (between_groups: min / max; to_overall: min over groups of min(group / overall, overall / group)).
 * Groups where a metric is undefined hold null and are ignored by min/max, as fairlearn ignores NaN.
 */
export class MetricFrame {
  readonly metricNames: readonly string[];
  readonly overall: Readonly<Record<string, number | null>>;
  readonly byGroup: Readonly<Record<string, Readonly<Record<string, number | null>>>>;

  constructor(init: {
    metrics: Readonly<Record<string, FrameMetric>>;
    yTrue: ArrayLike<number>;
    yPred: ArrayLike<number>;
    sensitiveFeatures: Subgroups;
  }) {
    const { metrics, sensitiveFeatures: groups } = init;
    const n = init.yPred.length;
    if (init.yTrue.length !== n || groups.codes.length !== n) {
      throw new DataError(
        'DATA_SHAPE',
        `yTrue (${init.yTrue.length}), yPred (${n}) and sensitive features (${groups.codes.length}) differ in length`,
      );
    }
    this.metricNames = Object.keys(metrics);
    if (this.metricNames.length === 0)
      throw new OptionsError('OPTIONS_INVALID', 'give at least one metric', { option: '/metrics' });
    const yTrue = Int32Array.from(init.yTrue);
    const yPred = Int32Array.from(init.yPred);
    this.overall = Object.fromEntries(this.metricNames.map((m) => [m, metrics[m]!(yTrue, yPred)]));
    const byGroup: Record<string, Record<string, number | null>> = {};
    groups.keys.forEach((key, g) => {
      const size = groups.sizes[g]!;
      const t = new Int32Array(size);
      const p = new Int32Array(size);
      let k = 0;
      for (let i = 0; i < n; i++) {
        if (groups.codes[i] === g) {
          t[k] = yTrue[i]!;
          p[k++] = yPred[i]!;
        }
      }
      byGroup[key] = Object.fromEntries(this.metricNames.map((m) => [m, metrics[m]!(t, p)]));
    });
    this.byGroup = byGroup;
  }

  private defined(metric: string): number[] {
    return Object.values(this.byGroup)
      .map((row) => row[metric])
      .filter((v): v is number => v !== null && v !== undefined);
  }

  private each(fn: (metric: string) => number | null): Record<string, number | null> {
    return Object.fromEntries(this.metricNames.map((m) => [m, fn(m)]));
  }

  groupMin(): Record<string, number | null> {
    return this.each((m) => (this.defined(m).length ? Math.min(...this.defined(m)) : null));
  }

  groupMax(): Record<string, number | null> {
    return this.each((m) => (this.defined(m).length ? Math.max(...this.defined(m)) : null));
  }

  difference(method: FrameMethod = 'between_groups'): Record<string, number | null> {
    return this.each((m) => {
      const v = this.defined(m);
      if (v.length === 0) return null;
      if (method === 'between_groups') return Math.max(...v) - Math.min(...v);
      const o = this.overall[m];
      return o === null || o === undefined ? null : Math.max(...v.map((x) => Math.abs(x - o)));
    });
  }

  ratio(method: FrameMethod = 'between_groups'): Record<string, number | null> {
    return this.each((m) => {
      const v = this.defined(m);
      if (v.length === 0) return null;
      if (method === 'between_groups') {
        const hi = Math.max(...v);
        return hi === 0 ? (Math.min(...v) === 0 ? 1 : null) : Math.min(...v) / hi;
      }
      const o = this.overall[m];
      if (o === null || o === undefined) return null;
      return Math.min(...v.map((x) => (x === o ? 1 : x === 0 || o === 0 ? 0 : Math.min(x / o, o / x))));
    });
  }
}

const frame = (metric: FrameMetric, yTrue: ArrayLike<number>, yPred: ArrayLike<number>, groups: Subgroups) =>
  new MetricFrame({ metrics: { m: metric }, yTrue, yPred, sensitiveFeatures: groups });

/** fairlearn's `demographic_parity_difference`: max - min selection rate over groups. */
export function demographicParityDifference(
  yTrue: ArrayLike<number>,
  yPred: ArrayLike<number>,
  groups: Subgroups,
  method: FrameMethod = 'between_groups',
): number | null {
  return frame(frameMetrics.selectionRate, yTrue, yPred, groups).difference(method).m!;
}

/** fairlearn's `demographic_parity_ratio`: min / max selection rate over groups. */
export function demographicParityRatio(
  yTrue: ArrayLike<number>,
  yPred: ArrayLike<number>,
  groups: Subgroups,
  method: FrameMethod = 'between_groups',
): number | null {
  return frame(frameMetrics.selectionRate, yTrue, yPred, groups).ratio(method).m!;
}

/** fairlearn's `equalized_odds_difference` (agg worst_case): the larger of the TPR and FPR differences. */
export function equalizedOddsDifference(
  yTrue: ArrayLike<number>,
  yPred: ArrayLike<number>,
  groups: Subgroups,
  method: FrameMethod = 'between_groups',
): number | null {
  const f = new MetricFrame({
    metrics: { tpr: frameMetrics.truePositiveRate, fpr: frameMetrics.falsePositiveRate },
    yTrue,
    yPred,
    sensitiveFeatures: groups,
  });
  const d = Object.values(f.difference(method)).filter((v): v is number => v !== null);
  return d.length ? Math.max(...d) : null;
}

/** fairlearn's `equalized_odds_ratio` (agg worst_case): the smaller of the TPR and FPR ratios. */
export function equalizedOddsRatio(
  yTrue: ArrayLike<number>,
  yPred: ArrayLike<number>,
  groups: Subgroups,
  method: FrameMethod = 'between_groups',
): number | null {
  const f = new MetricFrame({
    metrics: { tpr: frameMetrics.truePositiveRate, fpr: frameMetrics.falsePositiveRate },
    yTrue,
    yPred,
    sensitiveFeatures: groups,
  });
  const r = Object.values(f.ratio(method)).filter((v): v is number => v !== null);
  return r.length ? Math.min(...r) : null;
}
