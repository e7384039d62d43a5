import type { OptionsSchema } from '@fb/core';

export interface Options {
  /** Random inputs to draw. */
  samples: number;
  /** Inputs checked per model batch. */
  batchSize: number;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    samples: {
      type: 'integer',
      minimum: 1,
      default: 1000,
      description: 'Uniform random inputs to draw from the attribute domains.',
    },
    batchSize: {
      type: 'integer',
      minimum: 1,
      maximum: 65536,
      default: 64,
      description: 'Inputs checked per model batch (one model query per batch).',
    },
  },
};
