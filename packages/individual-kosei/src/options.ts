import { gammaOption, type OptionsSchema, type VariantMode, variantModeOption } from '@fb/core';

/** What the local limit counts: neighbour evaluations (original code) or expanded queue items (paper). */
export type LocalLimitUnit = 'evaluations' | 'expansions';

export interface KoseiOptions {
  /** Inputs drawn uniformly from the domain in the global phase. */
  globalIterations: number;
  /** Local budget per discriminatory input of the global phase. */
  localLimit: number;
  localLimitUnit: LocalLimitUnit;
  /** Lattice steps spanning a continuous attribute without a grid. */
  continuousSteps: number;
  /** Rows gathered per checker call (one model query); does not change the result. */
  batchSize: number;
  variantMode: VariantMode;
  /** Discrimination threshold γ on the favourable-class probability; 0 counts a changed decision. */
  gamma: number;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    globalIterations: {
      type: 'integer',
      minimum: 1,
      default: 2000,
      description:
        'Inputs drawn uniformly from the schema domain in the global phase (global_iteration_limit of the original code); a draw already tested is skipped, not re-evaluated.',
    },
    localLimit: {
      type: 'integer',
      minimum: 0,
      default: 2000,
      description:
        'Local budget per discriminatory input of the global phase: the local search stops expanding once localLimit x (global discriminatory inputs) is reached; 0 runs the global phase only.',
    },
    localLimitUnit: {
      type: 'string',
      enum: ['evaluations', 'expansions'],
      default: 'evaluations',
      description:
        'What the local limit counts: neighbour evaluations, checked before each expansion (the original code), or expanded queue items (the loop of the paper, Algorithm 3).',
    },
    continuousSteps: {
      type: 'integer',
      minimum: 1,
      default: 100,
      description:
        'A continuous attribute without a step is walked on the lattice min + k (max - min) / continuousSteps; a neighbour is the next lattice point above or below.',
    },
    batchSize: {
      type: 'integer',
      minimum: 1,
      maximum: 65536,
      default: 512,
      description:
        'Rows gathered per checker call, i.e. per model query (queue items are expanded together until this many neighbours are pending); the result is the same for every value.',
    },
    variantMode: variantModeOption(),
    gamma: gammaOption(),
  },
};
