import type { OptionsSchema } from '@fb/core';

export interface Options {
  delta: number;
  k: number;
  ranking: 'diff' | 'kld';
  target: 'labels' | 'model';
  smoothing: number;
  maxLevels: number;
  bins: number;
  minSupport: number;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    delta: {
      type: 'number',
      minimum: 0,
      exclusiveMaximum: 1,
      default: 0.01,
      description: 'Discrimination threshold: a pattern discriminates when |P(d | x, y) - P(d | y)| > delta.',
    },
    k: {
      type: 'integer',
      minimum: 1,
      default: 5,
      description: 'Number of top patterns to find.',
    },
    ranking: {
      enum: ['diff', 'kld'],
      default: 'diff',
      description:
        "Rank patterns by |Delta| ('diff') or by the KL divergence to the closest distribution in which the pattern is delta-fair ('kld').",
    },
    target: {
      enum: ['labels', 'model'],
      default: 'labels',
      description:
        "Fit the naive Bayes model to the dataset's outcome ('labels', the paper's setting) or to the audited model's decisions on the dataset's rows ('model').",
    },
    smoothing: {
      type: 'number',
      minimum: 0,
      default: 1,
      description: 'Additive (Laplace) smoothing of the naive Bayes counts; 0 is pure maximum likelihood.',
    },
    maxLevels: {
      type: 'integer',
      minimum: 2,
      default: 12,
      description:
        'An ordinal attribute with more distinct values than this is binned like a continuous one (categorical attributes never are).',
    },
    bins: {
      type: 'integer',
      minimum: 2,
      default: 2,
      description:
        'Quantile bins for ordered attributes that are continuous or have more than maxLevels values (2: the median split of the paper). Categorical attributes are never binned.',
    },
    minSupport: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.01,
      description:
        "Smallest share of the data's rows a pattern must match (at least one row when above 0): patterns of the model's probabilities that describe almost no one are not reported. 0 reports any pattern, as the paper.",
    },
  },
};
