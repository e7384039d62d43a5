import type { OptionsSchema } from '@fb/core';
import type { Scoring } from './scoring.js';

export interface BiasScanOptions {
  /** Score function: `bernoulli` (binary outcomes) or `poisson`. */
  scoring: Scoring;
  /** `negative`: favourable outcomes rarer than predicted; `positive`: more frequent; `both`: one scan each. */
  direction: 'negative' | 'positive' | 'both';
  numIters: number;
  penalty: number;
  randomizationReplicates: number;
  maxValues: number;
  bins: number;
}

export const biasScanOptionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    scoring: {
      type: 'string',
      enum: ['bernoulli', 'poisson'],
      default: 'bernoulli',
      description:
        'Expectation-based score function: "bernoulli" (binary outcomes, the paper\'s statistic) or "poisson" (F(q) = Y ln q + E(1 - q)).',
    },
    direction: {
      type: 'string',
      enum: ['negative', 'positive', 'both'],
      default: 'both',
      description:
        '"negative": subgroups whose observed favourable rate is below the predicted one (over-prediction; AIF360 overpredicted=True); "positive": above it; "both": one scan per direction.',
    },
    numIters: {
      type: 'integer',
      minimum: 1,
      default: 10,
      description:
        'Restarts of the coordinate ascent per scan; restart 0 starts from the whole population, the others from random subsets.',
    },
    penalty: {
      type: 'number',
      minimum: 0,
      default: 1e-17,
      description:
        'Complexity penalty per value of each constrained attribute (an unconstrained attribute costs nothing).',
    },
    randomizationReplicates: {
      type: 'integer',
      minimum: 0,
      default: 100,
      description:
        'Replicates of the randomisation test (outcomes redrawn as Bernoulli(p) and rescanned); p = (1 + #replicas scoring >= observed) / (1 + replicates). 0 = no p-value.',
    },
    maxValues: {
      type: 'integer',
      minimum: 1,
      default: 20,
      description:
        'Discrete attributes with at most this many distinct values are scanned value by value; others and continuous attributes are binned.',
    },
    bins: {
      type: 'integer',
      minimum: 2,
      default: 10,
      description:
        'Number of quantile bins for continuous attributes and discrete attributes with more than maxValues values.',
    },
  },
};
