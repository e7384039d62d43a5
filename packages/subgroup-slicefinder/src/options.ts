import type { OptionsSchema } from '@fb/core';
import type { LossKind } from './loss.js';

export interface Options {
  approach: 'lattice' | 'decision-tree' | 'both';
  loss: LossKind;
  k: number;
  treeK: number;
  epsilon: number;
  alpha: number;
  degree: number;
  maxDepth: number;
  minSize: number;
  treeSplit: 'holdout' | 'none';
  minEffectSize: number;
  maxValues: number;
  bins: number;
}

export const optionsSchema: OptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    approach: {
      type: 'string',
      enum: ['lattice', 'decision-tree', 'both'],
      default: 'both',
      description:
        'Search: the lattice search, the decision-tree search, or both (each recommends up to k slices).',
    },
    loss: {
      type: 'string',
      enum: ['log-loss', 'zero-one'],
      default: 'log-loss',
      description:
        'Per-example loss compared inside and outside a slice: "log-loss" (−ln of the predicted probability of the true label; needs predictProba) or "zero-one" (1 when the predicted label is wrong).',
    },
    k: {
      type: 'integer',
      minimum: 1,
      default: 50,
      description: 'Lattice search: number of slices recommended (the search stops once it has k).',
    },
    treeK: {
      type: 'integer',
      minimum: 1,
      default: 20,
      description: 'Decision-tree search: number of slices recommended (the search stops once it has treeK).',
    },
    epsilon: {
      type: 'number',
      minimum: 0,
      default: 0.2,
      description: 'Lattice search: smallest effect size φ for a slice to be problematic.',
    },
    alpha: {
      type: 'number',
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      default: 0.05,
      description:
        'Initial wealth and payout of α-investing over the one-sided Welch tests of every slice evaluated (split in halves between the two searches when both run).',
    },
    degree: {
      type: 'integer',
      minimum: 1,
      default: 3,
      description: 'Lattice search: largest number of predicates in a slice.',
    },
    maxDepth: {
      type: 'integer',
      minimum: 1,
      default: 3,
      description: 'Decision-tree search: depth of the tree (a node at this depth is not split).',
    },
    minSize: {
      type: 'integer',
      minimum: 1,
      default: 10,
      description:
        'Smallest slice: the lattice search evaluates (and tests) only slices with at least this many rows, and the decision-tree search keeps a child node only if it has at least this many grow rows.',
    },
    treeSplit: {
      type: 'string',
      enum: ['holdout', 'none'],
      default: 'holdout',
      description:
        'Decision-tree search: "holdout" grows the tree on a seeded random half of the rows and tests its nodes on the other half (valid p-values); "none" grows and tests on all rows, as the paper does (the splits select on the errors, so the p-values are not valid).',
    },
    minEffectSize: {
      type: 'number',
      minimum: 0,
      default: 0.3,
      description: 'Decision-tree search: smallest effect size φ for a node to be recommended.',
    },
    maxValues: {
      type: 'integer',
      minimum: 1,
      default: 20,
      description:
        'Ordinal and continuous attributes with at most this many distinct values are sliced value by value; others are binned. Categorical attributes are always sliced by value.',
    },
    bins: {
      type: 'integer',
      minimum: 2,
      default: 10,
      description:
        'Number of equal-height (quantile) bins for ordered attributes with more than maxValues values.',
    },
  },
};
