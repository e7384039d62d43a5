import type { OptionsSchema } from '@fb/core';
import { sequentialLevelOption } from '@fb/subset-scan';

/** The four scan types of the paper's Table 1: which variable is the event I and which the condition C. */
export type ScanType =
  | 'separation-predictions'
  | 'separation-recommendations'
  | 'sufficiency-predictions'
  | 'sufficiency-recommendations';

export interface CbsOptions {
  scanType: ScanType;
  conditionValue: 0 | 1 | null;
  direction: 'positive' | 'negative' | 'both';
  protectedAttribute: string | null;
  protectedValues: number[] | null;
  threshold: number;
  iterations: number;
  penalty: number;
  /** Resamples R; null (default): enough for the adjusted test to reach the level (`resamplesFor`). */
  permutations: number | null;
  test: 'conditional-randomization' | 'permutation';
  stopping: 'sequential' | 'fixed';
  sequentialLevel: number;
  minClassRows: number;
  l2: number;
  maxValues: number;
  bins: number;
}

export const cbsOptionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    scanType: {
      type: 'string',
      enum: [
        'separation-predictions',
        'separation-recommendations',
        'sufficiency-predictions',
        'sufficiency-recommendations',
      ],
      default: 'separation-recommendations',
      description:
        'Table 1 of the paper: separation (I = the prediction P or recommendation P_bin, C = the outcome Y) or sufficiency (I = Y, C = P or P_bin), for probabilistic predictions or binary recommendations.',
    },
    conditionValue: {
      type: ['integer', 'null'],
      enum: [0, 1, null],
      default: null,
      description:
        'Value-conditional scan: keep only rows with C = this value (e.g. separation-recommendations with 0 = false positive rate). null scans all rows. Not available for sufficiency-predictions (C = P is real-valued).',
    },
    direction: {
      type: 'string',
      enum: ['positive', 'negative', 'both'],
      default: 'both',
      description:
        '"positive": the event I (favourable outcome, prediction or recommendation) above its expectation under no bias for the protected subgroup (under-estimation bias, q > 1 or mu > 0); "negative": below it; "both": one scan each (p-values adjusted for both).',
    },
    protectedAttribute: {
      type: ['string', 'null'],
      default: null,
      description:
        'The sensitive attribute that defines the protected class; it is excluded from the subgroup attributes X. null = every discrete attribute the schema marks protected (the first one when protectedValues is given).',
    },
    protectedValues: {
      type: ['array', 'null'],
      items: { type: 'number' },
      minItems: 1,
      default: null,
      description:
        'Values of the sensitive attribute that make a row a member of the protected class (A = 1); null = every value in turn (quantile ranges for attributes with more than maxValues values) against the rest, with p-values adjusted for every class and direction scanned.',
    },
    threshold: {
      type: 'number',
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      default: 0.5,
      description:
        'Recommendations: P_bin = 1 when the predicted probability of the favourable outcome is >= threshold.',
    },
    iterations: {
      type: 'integer',
      minimum: 1,
      default: 10,
      description:
        'Iterations of the fast subset scan (the first from all values, the others from random subsets). The paper runs 500 on COMPAS.',
    },
    penalty: {
      type: 'number',
      minimum: 0,
      default: 1,
      description:
        'Complexity penalty per included value of each constrained attribute (the paper uses 1); an attribute with all values included costs nothing.',
    },
    permutations: {
      type: ['integer', 'null'],
      minimum: 0,
      default: null,
      description:
        'Resamples R of the protected class for the p-value (see test), each re-estimated and rescanned; p = (1 + #null maxima >= observed) / (1 + R). 0 = no p-value. null (default): the smallest R + 1, a multiple of 100 and at least 100, with m / (R + 1) <= sequentialLevel / 2 for m scans, so that the Bonferroni-adjusted p-value can fall below the level (99 for one or two scans, 399 for ten).',
    },
    test: {
      type: 'string',
      enum: ['conditional-randomization', 'permutation'],
      default: 'conditional-randomization',
      description:
        '"conditional-randomization": A is redrawn for every row from a logistic model of P(A = 1 | X, C) fitted on the data (valid when the protected class depends on the covariates); "permutation": A is permuted over all rows, as the paper (Appendix A.3), valid only when A is independent of X and C.',
    },
    stopping: {
      type: 'string',
      enum: ['sequential', 'fixed'],
      default: 'sequential',
      description:
        '"sequential": a scan stops resampling once h = ⌊sequentialLevel · (permutations + 1) / m⌋ (at least 1) of its resamples reached its score, m the number of scans adjusted for (Besag & Clifford 1991); its p-value is then m · max(h/l, (h + 1)/(permutations + 1)) after l resamples, else the fixed value. Decisions at sequentialLevel and below are those of the fixed test on the same resamples. "fixed": every resample is run.',
    },
    sequentialLevel: sequentialLevelOption,
    minClassRows: {
      type: 'integer',
      minimum: 1,
      default: 30,
      description:
        'Without protectedValues: classes with fewer rows than this, or fewer outside, are not scanned (listed in extras.skippedClasses).',
    },
    l2: {
      type: 'number',
      minimum: 0,
      default: 1,
      description:
        "L2 penalty of the logistic regressions (propensity model and weighted event model); 1 matches scikit-learn's default C = 1.",
    },
    maxValues: {
      type: 'integer',
      minimum: 1,
      default: 20,
      description:
        'Discrete attributes with at most this many distinct values form subgroups value by value; others are binned.',
    },
    bins: {
      type: 'integer',
      minimum: 2,
      default: 10,
      description:
        'Quantile bins for continuous attributes and discrete attributes with more than maxValues values.',
    },
  },
};

/**
 * The resamples R a run makes for m scans: `permutations` when given, else the smallest R + 1 (a
 * multiple of 100, at least 100) with m / (R + 1) <= sequentialLevel / 2. With R = 99 and ten scans
 * the smallest adjusted p-value is 10 / 100 and no test can reject at 0.05.
 */
export function resamplesFor(
  options: Pick<CbsOptions, 'permutations' | 'sequentialLevel'>,
  scans: number,
): number {
  if (options.permutations !== null) return options.permutations;
  return 100 * Math.max(1, Math.ceil((2 * scans) / options.sequentialLevel / 100)) - 1;
}
