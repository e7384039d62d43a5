import type { OptionsSchema } from '@fb/core';
import type { ErrorType } from './error-vectors.js';

export interface Options {
  errors: ErrorType[];
  errorVector: number[] | null;
  k: number;
  alpha: number;
  maxLevel: number;
  minSupport: number;
  maxValues: number;
  bins: number;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    errors: {
      type: 'array',
      items: { type: 'string', enum: ['misclassification', 'false-positive', 'false-negative', 'custom'] },
      minItems: 1,
      uniqueItems: true,
      default: ['false-positive', 'false-negative'],
      description:
        'Error vectors to scan, one independent SliceLine run each (default: FP and FN, as the ClearBias wrapper): "false-positive" (favourable prediction, unfavourable label), "false-negative" (the reverse), "misclassification" (prediction differs from the label), all from the model\'s predictions; "custom" scans `errorVector`.',
    },
    errorVector: {
      type: ['array', 'null'],
      items: { type: 'number', minimum: 0 },
      default: null,
      description:
        'A non-negative error per dataset row (e.g. a loss), scanned when `errors` lists "custom"; null otherwise.',
    },
    k: {
      type: 'integer',
      minimum: 1,
      default: 5,
      description: 'Number of top slices kept per error vector (exactly k; ties keep the earlier slice).',
    },
    alpha: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.95,
      description:
        'Weight α of the error term against the size term in sc = α((se/|S|)/ē − 1) − (1 − α)(n/|S| − 1).',
    },
    maxLevel: {
      type: 'integer',
      minimum: 1,
      default: 3,
      description: 'Largest number of predicates in a slice (capped at the number of attributes).',
    },
    minSupport: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 10,
      description:
        'Smallest slice size: a number of rows when >= 1, a fraction of the rows when < 1 (then ⌈minSupport·n⌉ rows).',
    },
    maxValues: {
      type: 'integer',
      minimum: 1,
      default: 20,
      description:
        'Numeric attributes with at most this many distinct values get one predicate per value; other numeric attributes are binned (extras.binning lists their bins). Categorical attributes always get one predicate per category.',
    },
    bins: {
      type: 'integer',
      minimum: 2,
      default: 10,
      description:
        'Most equal-height (quantile) bins of a numeric attribute with more than maxValues distinct values; a value holding many rows gets a bin of its own and the other bins are spread over the remaining values.',
    },
  },
};
