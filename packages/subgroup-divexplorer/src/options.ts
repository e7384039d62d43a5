import type { OptionsSchema } from '@fb/core';
import type { Metric, OutcomeKind } from './outcomes.js';

export interface Options {
  metrics: Metric[];
  outcomeVector: (number | null)[] | null;
  outcomeKind: OutcomeKind;
  minSupport: number;
  maxLength: number;
  k: number;
  sortBy: 'absolute' | 'positive' | 'negative';
  redundancyThreshold: number | null;
  maxValues: number;
  bins: number;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    metrics: {
      type: 'array',
      items: {
        type: 'string',
        enum: ['fpr', 'fnr', 'error', 'accuracy', 'positive-rate', 'label-rate', 'score', 'custom'],
      },
      minItems: 1,
      uniqueItems: true,
      default: ['fpr', 'fnr'],
      description:
        'Outcome rates whose divergence is reported, each with its own top-k: "fpr", "fnr", "error", "accuracy" and "positive-rate" of the model\'s predictions (favourable label = positive); "label-rate" (favourable labels, no model needed); "score" (mean predicted probability of the favourable label, a quantitative outcome); "custom" (`outcomeVector`).',
    },
    outcomeVector: {
      type: ['array', 'null'],
      items: { type: ['number', 'null'] },
      default: null,
      description:
        'A per-row outcome for the "custom" metric; null entries exclude the row from that outcome (as NaN does in DivExplorer).',
    },
    outcomeKind: {
      type: 'string',
      enum: ['boolean', 'quantitative'],
      default: 'boolean',
      description:
        'Kind of `outcomeVector`: "boolean" (0/1; Bayesian t-value on Beta posteriors) or "quantitative" (Welch t-value).',
    },
    minSupport: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.05,
      description: 'Smallest support (share of all rows) of a frequent pattern.',
    },
    maxLength: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description:
        'Largest number of items in a pattern (the default leaves the length unbounded in practice).',
    },
    k: {
      type: 'integer',
      minimum: 1,
      default: 5,
      description: 'Patterns reported per metric, by divergence.',
    },
    sortBy: {
      type: 'string',
      enum: ['absolute', 'positive', 'negative'],
      default: 'absolute',
      description:
        'Which divergences rank first: largest |Δ|, largest Δ (rate above the overall one) or smallest Δ (below it).',
    },
    redundancyThreshold: {
      type: ['number', 'null'],
      minimum: 0,
      default: 0,
      description:
        'Redundancy pruning: a pattern is left out when removing one of its items changes its divergence by at most this much; null keeps every pattern.',
    },
    maxValues: {
      type: 'integer',
      minimum: 1,
      default: 20,
      description:
        'Discrete attributes with at most this many distinct values give one item per value; other attributes are binned.',
    },
    bins: {
      type: 'integer',
      minimum: 2,
      default: 10,
      description: 'Number of equal-height (quantile) bins for continuous and many-valued attributes.',
    },
  },
};
