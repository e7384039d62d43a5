import { createDataset, type Dataset } from '@fb/core';
import { subgroupsFromColumns } from '../src/index.js';

/**
 * Ten rows in two groups, counted by hand:
 * group 0 (4 rows): TP, FN, FP, TN -> TPR 1/2, FPR 1/2, selection 1/2, error 1/2;
 * group 1 (6 rows): TP, TP, FN, TN, TN, FP -> TPR 2/3, FPR 1/3, selection 1/2, error 1/3.
 */
export const group = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1];
export const yTrue = [1, 1, 0, 0, 1, 1, 1, 0, 0, 0];
export const yPred = [1, 0, 1, 0, 1, 1, 0, 0, 0, 1];
export const two = subgroupsFromColumns({ g: group });

export function handDataset(): Dataset {
  return createDataset({
    schema: {
      attributes: [
        { name: 'g', kind: 'categorical', protected: true, categories: ['a', 'b'] },
        { name: 'x', kind: 'continuous', protected: false, min: 0, max: 1 },
      ],
      outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
    },
    x: group.flatMap((g, i) => [g, i / 10]),
    y: yTrue,
  });
}
