import { type OptionsSchema, type VariantMode, variantModeOption } from '@fb/core';

/** Where the candidate seeds come from: uniform draws over the domain (original code) or data rows (paper). */
export type SeedSource = 'domain' | 'data';

/** GA fitness: the probability gap across protected variants (paper) or 2|Δlabel| + 1 (original code). */
export type Fitness = 'probability' | 'label';

export interface ExpgaOptions {
  globalSamples: number;
  seeds: number;
  seedSource: SeedSource;
  thresholdRank: number;
  limeSamples: number;
  ridgeAlpha: number;
  generations: number;
  crossoverRate: number;
  mutationRate: number;
  fitness: Fitness;
  referenceOperators: boolean;
  variantMode: VariantMode;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    globalSamples: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description:
        'Candidate inputs explained in the seed phase at most (max_global of the original code); the phase stops earlier once `seeds` seeds are found.',
    },
    seeds: {
      type: 'integer',
      minimum: 1,
      default: 100,
      description: 'Seeds to collect, i.e. the population size of the genetic algorithm.',
    },
    seedSource: {
      type: 'string',
      enum: ['domain', 'data'],
      default: 'domain',
      description:
        'Where candidates come from: uniform draws over the schema domain (original code) or dataset rows in random order (the paper).',
    },
    thresholdRank: {
      type: 'integer',
      minimum: 1,
      default: 7,
      description:
        'A candidate becomes a seed when a protected attribute ranks among the first thresholdRank features of its explanation (0-based rank < thresholdRank). The original code uses 7 for the 13-attribute census, 14 for credit (20) and 10 for bank (16).',
    },
    limeSamples: {
      type: 'integer',
      minimum: 10,
      // One explanation's samples are held in memory at once and fitted together.
      maximum: 1_000_000,
      default: 5000,
      description:
        "Perturbed samples per explanation (LIME num_samples), all queried in batches. At most 1,000,000: an explanation's model query runs to its end whatever the budget (its ridge fit polls the time budget).",
    },
    ridgeAlpha: {
      type: 'number',
      minimum: 0,
      default: 1,
      description:
        'L2 penalty of the weighted ridge fit of the local explanation (LIME uses Ridge(alpha=1)).',
    },
    generations: {
      type: 'integer',
      minimum: 0,
      default: 1000,
      description:
        'Generations of the genetic algorithm (max_local of the original code); each evaluates the whole population in one batch.',
    },
    crossoverRate: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.9,
      description: 'Probability that an individual takes a slice of genes from a random mate.',
    },
    mutationRate: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.05,
      description: 'Probability that a gene is redrawn uniformly from its domain.',
    },
    fitness: {
      type: 'string',
      enum: ['probability', 'label'],
      default: 'probability',
      description:
        "probability: the largest gap, over protected variants, in the probability of the class predicted for the input (the paper; needs predictProba); label: 2|f(x) - f(x')| + 1, i.e. 3 for a discriminatory input and 1 otherwise (the original code).",
    },
    referenceOperators: {
      type: 'boolean',
      default: false,
      description:
        'Reproduce the original operators on purpose: crossover slice end drawn in [0, d - start) (often empty), mutation upper bound exclusive, protected genes mutable.',
    },
    variantMode: variantModeOption(),
  },
};
