import type { OptionsSchema } from '@fb/core';
import type { PopulationMode } from './population.js';

export interface Options {
  c: number;
  ambiguity: number;
  delta: number;
  form: 'ratio' | 'difference';
  batchSize: number;
  maxSamples: number;
  population: PopulationMode;
  attributes: string[] | null;
  reportAmbiguous: boolean;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    c: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.15,
      description:
        'Tolerance c: a pair is fair when each group gets the favourable decision at least (1 - c) times as often as the other (ratio form) or at most c less often (difference form).',
    },
    ambiguity: {
      type: 'number',
      minimum: 0,
      default: 0,
      description:
        "Delta: accept an 'ambiguous' verdict once the estimate's interval is at most this wide around the threshold (0: only certain verdicts).",
    },
    delta: {
      type: 'number',
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      default: 0.5e-10,
      description: 'Confidence parameter: each verdict is wrong with probability at most 2 * delta.',
    },
    form: {
      enum: ['ratio', 'difference'],
      default: 'ratio',
      description:
        "Demographic parity as a ratio of favourable rates, or as their difference (the paper's 'causal' form).",
    },
    batchSize: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description: 'Samples drawn per group (one batched model query each) between two looks at the bound.',
    },
    maxSamples: {
      type: 'integer',
      minimum: 1,
      default: 10_000_000,
      description: 'Samples per group after which a pair is left undecided.',
    },
    population: {
      enum: ['empirical', 'independent'],
      default: 'empirical',
      description:
        "Population of each group: its rows drawn with replacement ('empirical'), or the product of its per-attribute marginals ('independent').",
    },
    attributes: {
      type: ['array', 'null'],
      items: { type: 'string' },
      default: null,
      description: 'Protected attributes to verify (null: every protected attribute).',
    },
    reportAmbiguous: {
      type: 'boolean',
      default: true,
      description:
        "Report pairs judged 'ambiguous-unfair' as findings too (certain 'unfair' pairs always are).",
    },
  },
};
