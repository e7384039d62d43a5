import {
  checkDataset,
  type Dataset,
  OptionsError,
  type OptionsSchema,
  Rng,
  resolveOptions,
  subsetRows,
} from '@fb/core';
import { type Seed, seedSchema } from './tree-options.js';

export interface TrainTestSplitOptions {
  testFraction: number;
  stratify: boolean;
  seed: Seed;
}

export const trainTestSplitOptionsSchema = {
  type: 'object',
  properties: {
    testFraction: {
      type: 'number',
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      default: 0.25,
      description: 'Fraction of the rows put in the test part (rounded per class when stratified).',
    },
    stratify: {
      type: 'boolean',
      default: true,
      description: 'Keep the outcome class proportions equal in both parts.',
    },
    seed: seedSchema,
  },
  additionalProperties: false,
} satisfies OptionsSchema;

export interface TrainTestSplit {
  readonly train: Dataset;
  readonly test: Dataset;
  /** Row indices of each part in the input dataset, increasing. */
  readonly trainIndex: Int32Array;
  readonly testIndex: Int32Array;
}

/**
 * Seeded train/test split. Stratified: each class's rows are shuffled and round(testFraction x count)
 * of them go to the test part. Both parts keep the input's row order.
 */
export function trainTestSplit(
  dataset: Dataset,
  options: Partial<TrainTestSplitOptions> = {},
): TrainTestSplit {
  const opts = resolveOptions<TrainTestSplitOptions>(trainTestSplitOptionsSchema, options);
  const ds = checkDataset(dataset);
  const rng = Rng.create(opts.seed).fork('train-test-split');
  const K = ds.schema.outcome.labels.length;
  const groups: number[][] = opts.stratify ? Array.from({ length: K }, () => []) : [[]];
  for (let i = 0; i < ds.n; i++) groups[opts.stratify ? ds.y[i]! : 0]!.push(i);
  const inTest = new Uint8Array(ds.n);
  let testCount = 0;
  for (const rows of groups) {
    const take = Math.round(opts.testFraction * rows.length);
    rng.shuffle(rows);
    for (let r = 0; r < take; r++) inTest[rows[r]!] = 1;
    testCount += take;
  }
  if (testCount === 0 || testCount === ds.n) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `testFraction ${opts.testFraction} leaves an empty ${testCount === 0 ? 'test' : 'training'} part of ${ds.n} rows`,
      { option: '/testFraction' },
    );
  }
  const testIndex = new Int32Array(testCount);
  const trainIndex = new Int32Array(ds.n - testCount);
  let a = 0;
  let b = 0;
  for (let i = 0; i < ds.n; i++) {
    if (inTest[i]) testIndex[a++] = i;
    else trainIndex[b++] = i;
  }
  return { train: subsetRows(ds, trainIndex), test: subsetRows(ds, testIndex), trainIndex, testIndex };
}
