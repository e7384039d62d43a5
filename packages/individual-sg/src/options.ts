import { type OptionsSchema, type VariantMode, variantModeOption } from '@fb/core';

export interface SgOptions {
  clusters: number;
  seeds: number;
  sampleLimit: number;
  limeSamples: number;
  confidenceThreshold: number;
  variantMode: VariantMode;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    clusters: {
      type: 'integer',
      minimum: 1,
      default: 4,
      description:
        'k of the k-means clustering of the dataset rows that orders the seeds (the paper and its re-implementation use 4).',
    },
    seeds: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description: 'Dataset rows queued as seeds, taken round-robin across the clusters in row order.',
    },
    sampleLimit: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description: "The search stops after this many tested samples (the paper's limit of 1000 test cases).",
    },
    limeSamples: {
      type: 'integer',
      minimum: 10,
      // One explanation is one batch held in memory and one tree fit that no budget interrupts.
      maximum: 1_000_000,
      default: 5000,
      description:
        'Perturbed samples per local explanation (LIME num_samples), queried in one batch; the local decision tree is fitted on them. At most 1,000,000: one explanation runs to its end whatever the budget.',
    },
    confidenceThreshold: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.3,
      description:
        "T1: the global search negates path predicates up to the first one whose confidence (share of the node's samples going that way) is below this.",
    },
    variantMode: variantModeOption(),
  },
};
