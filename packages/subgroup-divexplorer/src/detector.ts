import {
  type Dataset,
  defineSubgroupDetector,
  favourableProbabilities,
  ModelError,
  OptionsError,
  type SubgroupDetector,
  type SubgroupFinding,
} from '@fb/core';
import { outcomeRate, tValue, twoSidedPValue } from './divergence.js';
import { fpGrowth } from './fp-growth.js';
import { itemize } from './items.js';
import { type Options, optionsSchema } from './options.js';
import { type Metric, type OutcomeKind, outcomeValues, rowStatistics, slots } from './outcomes.js';
import { globalShapley, isRedundant, itemShapley, PatternIndex } from './shapley.js';
import { VERSION } from './version.js';

const seconds = (from: number) => (performance.now() - from) / 1000;
const MODEL_FREE: Metric[] = ['label-rate', 'custom'];
const NO_PROBA = 'metric "score" needs the model\'s predictProba';
/** Metrics that are rates of the favourable outcome, so that the sign of Δ is a direction. */
const FAVOURABLE: Metric[] = ['positive-rate', 'label-rate', 'score'];

function checkOptions(options: Options, dataset: Dataset): void {
  const custom = options.metrics.includes('custom');
  const vector = options.outcomeVector;
  if (custom !== (vector !== null)) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      custom
        ? 'metrics lists "custom" but no outcomeVector was given'
        : 'outcomeVector is given but metrics does not list "custom"',
      { option: custom ? '/outcomeVector' : '/metrics' },
    );
  }
  if (options.k * options.metrics.length > dataset.n) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `k = ${options.k} patterns for each of ${options.metrics.length} metrics exceeds the ${dataset.n} rows of the dataset`,
      { option: '/k' },
    );
  }
  if (vector === null) return;
  if (vector.length !== dataset.n) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `outcomeVector has ${vector.length} values but the dataset has ${dataset.n} rows`,
      {
        option: '/outcomeVector',
      },
    );
  }
  if (options.outcomeKind === 'boolean') {
    const bad = vector.findIndex((v) => v !== null && v !== 0 && v !== 1);
    if (bad >= 0) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `outcomeVector[${bad}] = ${vector[bad]} is not 0, 1 or null (outcomeKind "boolean")`,
        {
          option: `/outcomeVector/${bad}`,
        },
      );
    }
  }
}

/**
 * DivExplorer (Pastor, de Alfaro & Baralis, SIGMOD 2021): every frequent pattern (FP-growth, min
 * support) is scored by the divergence of an outcome rate from the whole data's, with a t-value, and
 * explained by the Shapley values of its items; redundant patterns are pruned.
 */
export const divexplorer: SubgroupDetector<Options> = defineSubgroupDetector<Options>({
  id: 'divexplorer',
  version: VERSION,
  access: 'black-box',
  description:
    'DivExplorer (Pastor et al., SIGMOD 2021): frequent patterns (FP-growth) whose outcome rate (FPR, FNR, error, accuracy, positive rate, ...) diverges most from the whole data, with t-values and Shapley contributions.',
  requiresModel: false,
  optionsSchema,
  checkOptions,
  async scan({ dataset, model, options, ctl }) {
    const { metrics } = options;
    if (metrics.some((m) => !MODEL_FREE.includes(m)) && model === null) {
      throw new ModelError(
        'MODEL_MISSING',
        `metrics ${JSON.stringify(metrics.filter((m) => !MODEL_FREE.includes(m)))} need the model's predictions: pass input.model`,
      );
    }
    if (metrics.includes('score') && !model!.hasProba) {
      throw new ModelError('MODEL_MISMATCH', NO_PROBA);
    }
    const { n } = dataset;
    const tPrep = performance.now();
    const predicted = metrics.some((m) => !MODEL_FREE.includes(m) && m !== 'score')
      ? model!.predict(dataset.x)
      : null;
    const outcomes = metrics.map((metric): { metric: Metric; kind: OutcomeKind; values: Float64Array } => {
      if (metric === 'custom') {
        const values = Float64Array.from(options.outcomeVector!, (v) => (v === null ? Number.NaN : v));
        return { metric, kind: options.outcomeKind, values };
      }
      if (metric === 'score') {
        return { metric, kind: 'quantitative', values: favourableProbabilities(model!, dataset, NO_PROBA) };
      }
      return { metric, kind: 'boolean', values: outcomeValues(metric, dataset, predicted) };
    });
    const rowStats = rowStatistics(outcomes, n);
    const S = outcomes.reduce((acc, o) => acc + slots(o.kind), 0);
    const all = new Float64Array(S);
    for (let i = 0; i < n; i++) for (let s = 0; s < S; s++) all[s]! += rowStats[i * S + s]!;
    const table = itemize(dataset, options, () => ctl.shouldStop() !== null);
    const prepSeconds = seconds(tPrep);
    if (table === null) {
      return { subgroups: [], extras: { complete: false, timings: { prepSeconds, mineSeconds: 0 } } };
    }

    const tMine = performance.now();
    const minCount = Math.ceil(options.minSupport * n - 1e-9);
    const patterns = await fpGrowth(
      table.transactions,
      table.m,
      table.nItems,
      rowStats,
      S,
      minCount,
      options.maxLength,
      ctl,
    );
    const mineSeconds = seconds(tMine);
    const base = {
      minSupportCount: minCount,
      items: table.nItems,
      attributes: dataset.schema.attributes.map((a, j) => ({ attribute: a.name, binned: table.binned[j] })),
    };
    if (patterns === null) {
      return { subgroups: [], extras: { ...base, complete: false, timings: { prepSeconds, mineSeconds } } };
    }

    const tScore = performance.now();
    const index = new PatternIndex(patterns);
    const found: Omit<SubgroupFinding, 'rank'>[] = [];
    const overall: Record<string, number> = {};
    const global: Record<string, { condition: SubgroupFinding['conditions'][number]; value: number }[]> = {};
    let off = 0;
    for (const { metric, kind } of outcomes) {
      const at = off;
      off += slots(kind);
      const overallRate = outcomeRate(all, at, kind);
      overall[metric] = overallRate;
      const deltas = new Float64Array(patterns.count);
      for (let p = 0; p < patterns.count; p++)
        deltas[p] = outcomeRate(patterns.stats, p * S + at, kind) - overallRate;
      const delta = (p: number) => deltas[p]!;
      const key = (p: number) =>
        options.sortBy === 'absolute'
          ? Math.abs(deltas[p]!)
          : options.sortBy === 'positive'
            ? deltas[p]!
            : -deltas[p]!;
      const ranked: number[] = [];
      for (let p = 0; p < patterns.count; p++) {
        if (!Number.isFinite(deltas[p]!)) continue;
        if (options.redundancyThreshold !== null && isRedundant(index, p, delta, options.redundancyThreshold))
          continue;
        ranked.push(p);
      }
      ranked.sort((p, q) => key(q) - key(p) || patterns.support[q]! - patterns.support[p]! || p - q);
      for (const p of ranked.slice(0, options.k)) {
        const items = index.items(p);
        const shapley = itemShapley(index, p, delta);
        const t = tValue(patterns.stats, p * S + at, all, at, kind);
        const { pValue, logPValue } = twoSidedPValue(t);
        const rows =
          kind === 'boolean'
            ? patterns.stats[p * S + at]! + patterns.stats[p * S + at + 1]!
            : patterns.stats[p * S + at]!;
        const details: SubgroupFinding['details'] = {
          metric,
          rate: outcomeRate(patterns.stats, p * S + at, kind),
          overallRate,
          divergence: deltas[p]!,
          t: Number.isFinite(t) ? t : null,
          logPValue: Number.isFinite(t) ? logPValue : null,
          support: patterns.support[p]! / n,
          outcomeRows: rows,
          length: items.length,
        };
        items.forEach((it, u) => {
          details[`shapley:${table.conditions[it]!.attribute}`] = shapley[u]!;
        });
        found.push({
          conditions: Array.from(items, (it) => table.conditions[it]!),
          size: patterns.support[p]!,
          score: key(p),
          effect: deltas[p]!,
          // The upper tail itself: 1 − Φ(t) rounds to 0 beyond t ≈ 8.3; past t ≈ 38.5 the tail
          // underflows too, and details.logPValue keeps it.
          pValue,
          direction: FAVOURABLE.includes(metric) ? (deltas[p]! > 0 ? 'higher' : 'lower') : null,
          details,
        });
      }
      const g = globalShapley(index, delta, table.attributeOf, table.nItems);
      global[metric] = [];
      g.forEach((value, it) => {
        if (!Number.isNaN(value)) global[metric]!.push({ condition: table.conditions[it]!, value });
      });
      if (await ctl.checkpoint({ phase: 'divergence', done: found.length, total: found.length })) break;
    }
    const scoreSeconds = seconds(tScore);
    found.sort((a, b) => b.score - a.score);
    return {
      subgroups: found.map((s, i) => ({ rank: i + 1, ...s })),
      extras: {
        ...base,
        patterns: patterns.count,
        overallRate: overall,
        globalShapley: global,
        complete: true,
        timings: { prepSeconds, mineSeconds, scoreSeconds },
      },
    };
  },
});
