import type { OptionsSchema } from '@fb/core';
import { sequentialLevelOption } from '@fb/subset-scan';

export type BiasScanScoring = 'auto' | 'bernoulli' | 'poisson' | 'gaussian' | 'berk-jones';
export type BiasScanMode = 'binary' | 'nominal' | 'ordinal' | 'continuous';

export interface BiasScanOptions {
  mode: BiasScanMode;
  scoring: BiasScanScoring;
  direction: 'negative' | 'positive' | 'both';
  numIters: number;
  penalty: number;
  contiguous: boolean;
  randomizationReplicates: number;
  stopping: 'sequential' | 'fixed';
  sequentialLevel: number;
  maxNominal: number;
  maxValues: number;
  bins: number;
  alpha: number | null;
}

export const biasScanOptionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mode: {
      type: 'string',
      enum: ['binary', 'nominal', 'ordinal', 'continuous'],
      default: 'binary',
      description:
        'What is scanned (AIF360 modes): "binary": favourable outcome against P(favourable); "nominal": one scan per outcome class, class indicator against P(class); "ordinal" and "continuous": the outcome code as a number against its expectation Σ k·P(k).',
    },
    scoring: {
      type: 'string',
      enum: ['auto', 'bernoulli', 'poisson', 'gaussian', 'berk-jones'],
      default: 'auto',
      description:
        'Score function. "auto": bernoulli for binary and nominal, poisson for ordinal, gaussian for continuous. Allowed: binary: bernoulli, poisson, berk-jones; nominal: bernoulli, berk-jones; ordinal: poisson, gaussian; continuous: gaussian.',
    },
    direction: {
      type: 'string',
      enum: ['negative', 'positive', 'both'],
      default: 'both',
      description:
        '"negative": subgroups where the favourable outcome (nominal: the class) is observed less than predicted (the model over-predicts; AIF360 overpredicted=True); "positive": more; "both": one scan each.',
    },
    numIters: {
      type: 'integer',
      minimum: 1,
      default: 10,
      description:
        'Iterations (restarts) of the coordinate ascent per scan; the first starts from all records, the others from random subsets.',
    },
    penalty: {
      type: 'number',
      minimum: 0,
      default: 1e-17,
      description:
        'Complexity penalty per value of each constrained attribute (an unconstrained attribute costs nothing).',
    },
    contiguous: {
      type: 'boolean',
      default: false,
      description:
        'Restrict ordered attributes (ordinal attributes and quantile-binned ones) to contiguous ranges of values, as AIF360 does for the attributes it is given as contiguous.',
    },
    randomizationReplicates: {
      type: 'integer',
      minimum: 0,
      default: 100,
      description:
        "Replicates of the randomisation test (outcomes redrawn from the model's predicted class probabilities and rescanned); p = (1 + #replicas scoring >= observed) / (1 + replicates). 0 = no p-value.",
    },
    stopping: {
      type: 'string',
      enum: ['sequential', 'fixed'],
      default: 'sequential',
      description:
        '"sequential": replicates stop once h = ⌊sequentialLevel · (randomizationReplicates + 1)⌋ of them reached the score of every reported subgroup (Besag & Clifford 1991); such a subgroup gets p = max(h/l, (h + 1)/(R + 1)) after l replicates, the others the fixed value. Decisions at sequentialLevel and below are those of the fixed test on the same replicates. "fixed": every replicate is run.',
    },
    alpha: {
      type: ['number', 'null'],
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      default: null,
      description:
        "Berk-Jones scoring only: the null proportion α that each subgroup's observed proportion is compared with (AIF360's BerkJones alpha). null: the mean expectation of the scanned target.",
    },
    sequentialLevel: sequentialLevelOption,
    maxNominal: {
      type: 'integer',
      minimum: 2,
      default: 10,
      description: 'Nominal mode: the most outcome classes scanned one against all (AIF360 max_nominal).',
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
