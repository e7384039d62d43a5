import type { OptionsSchema } from '@fb/core';

export interface Options {
  /** Label permutations for the p-values. */
  permutations: number;
  /** Largest p-value reported. */
  alpha: number;
  /** Smallest group, and smallest complement, tested. */
  minSize: number;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  properties: {
    permutations: {
      type: 'integer',
      minimum: 0,
      default: 999,
      description:
        'Label permutations behind each p-value (0: no test, every gap is reported with pValue null).',
    },
    alpha: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.05,
      description: 'Report a group only when its permutation p-value is at most alpha.',
    },
    minSize: {
      type: 'integer',
      minimum: 1,
      default: 10,
      description: 'Groups with fewer rows, or with fewer rows outside them, are not tested.',
    },
  },
};
