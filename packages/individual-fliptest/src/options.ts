import type { OptionsSchema } from '@fb/core';

/** How the optimal-transport map is computed. */
export type TransportMethod = 'auto' | 'exact' | 'entropic';

export interface FliptestOptions {
  attribute: string | string[] | null;
  sourceValue: number | null;
  targetValue: number | null;
  sampleSize: number;
  transport: TransportMethod;
  exactLimit: number;
  entropy: number;
  sinkhornIterations: number;
  sinkhornTolerance: number;
  batchSize: number;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    attribute: {
      type: ['string', 'array', 'null'],
      items: { type: 'string' },
      minItems: 1,
      default: null,
      description:
        'Protected attribute(s) whose two groups are mapped onto each other, one run per attribute (one name or a list); null maps every protected attribute of the schema.',
    },
    sourceValue: {
      type: ['number', 'null'],
      default: null,
      description:
        'Value of the attribute defining the source group S (the group mapped and audited); null takes the smallest value present in the data. Only with a single attribute.',
    },
    targetValue: {
      type: ['number', 'null'],
      default: null,
      description:
        'Value defining the target group S′; null takes the most frequent other value present in the data. Only with a single attribute.',
    },
    sampleSize: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description:
        'Rows drawn at random from each group (1,000 per group in the reference exact-OT code). The exact map uses min(|S|, |S′|, sampleSize) rows on both sides; the entropic map min(group size, sampleSize) per side.',
    },
    transport: {
      type: 'string',
      enum: ['auto', 'exact', 'entropic'],
      default: 'auto',
      description:
        "'exact': minimum-cost one-to-one assignment (exact OT with uniform masses); 'entropic': Sinkhorn's entropic OT with the barycentric map; 'auto': exact when the per-side sample is at most exactLimit rows, entropic beyond.",
    },
    exactLimit: {
      type: 'integer',
      minimum: 1,
      default: 3000,
      description:
        "With transport 'auto', the largest per-side sample solved exactly (the cost matrix takes 8 n² bytes and the solve is up to cubic).",
    },
    entropy: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 0.05,
      description:
        'Entropic OT: regularisation epsilon as a fraction of the mean cost (smaller is closer to exact OT and slower to converge).',
    },
    sinkhornIterations: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description: 'Entropic OT: most Sinkhorn iterations.',
    },
    sinkhornTolerance: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1e-6,
      description:
        'Entropic OT: stop when the source marginal is met within this total absolute error (the masses sum to 1).',
    },
    batchSize: {
      type: 'integer',
      minimum: 1,
      maximum: 65536,
      default: 256,
      description: 'Members of S checked per counterfactual-checker call (one model query per batch).',
    },
  },
};
