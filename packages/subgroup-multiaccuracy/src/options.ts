import type { OptionsSchema } from '@fb/core';

/** Which inaccuracies the auditor looks for, in terms of the probability of the favourable outcome. */
export type Direction = 'both' | 'over' | 'under';

export interface Options {
  direction: Direction;
  auditAttributes: string[] | null;
  maxIterations: number;
  threshold: number;
  eta: number;
  ridge: number;
  holdout: number;
  stopAfterLastPartition: boolean;
  replicas: number;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    direction: {
      type: 'string',
      enum: ['both', 'over', 'under'],
      default: 'both',
      description:
        '"both": the reference, correlating the auditor with the residual p − y; "over": only over-estimation of the favourable probability counts (negative residuals set to 0, as the CBS paper, appendix B.1, makes it audit one direction); "under": only under-estimation (the mirror image, with upward corrections).',
    },
    auditAttributes: {
      type: ['array', 'null'],
      items: { type: 'string' },
      minItems: 1,
      uniqueItems: true,
      default: null,
      description:
        'Attributes the ridge auditor regresses on (categorical one-hot, others standardised); null = every attribute.',
    },
    maxIterations: {
      type: 'integer',
      minimum: 1,
      default: 100,
      description: 'Boosting rounds at most (the reference max_T = 100).',
    },
    threshold: {
      type: 'number',
      minimum: 0,
      default: 1e-4,
      description:
        'A partition is corrected when the held-out mean of auditor × residual exceeds this (the reference thresh = 1e-4).',
    },
    eta: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 0.1,
      description:
        "Step on the log-odds: a corrected partition's log-odds move by eta × the auditor (reference 0.1).",
    },
    ridge: {
      type: 'number',
      minimum: 0,
      default: 1,
      description: 'L2 penalty of the ridge-regression auditor (the reference Ridge(alpha=1)).',
    },
    holdout: {
      type: 'number',
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      default: 0.3,
      description:
        "Fraction of rows held out to measure the auditor's correlation; the auditor is fitted on the rest (the reference 70/30 split).",
    },
    stopAfterLastPartition: {
      type: 'boolean',
      default: false,
      description:
        "Reproduce the reference notebook's termination quirk: stop also after a round whose correction was on the last partition (all rows). false stops only when no partition is corrected, as the paper states.",
    },
    replicas: {
      type: 'integer',
      minimum: 0,
      default: 19,
      description:
        "Null replicas behind the p-value: outcomes redrawn from the model's probabilities (calibrated predictions), boosting rerun, rank of the observed best score (0: no test, pValue null).",
    },
  },
};
