import {
  type Classifier,
  type Dataset,
  defineSchema,
  InteropError,
  type OptionsSchema,
  resolveOptions,
  type Schema,
} from '@fb/core';
import { batchRows } from './batch.js';
import { readStored } from './codec.js';
import { DecisionTree, type TreeNodesJSON, treeFromJSON } from './decision-tree.js';
import { growForest } from './forest-growth.js';
import {
  describeOptions,
  growParams,
  prepareTreeData,
  type TreeOptions,
  treeProperties,
} from './tree-options.js';
import { predictionThreads, startPredictionThreads } from './tree-threads.js';
import { CodedTrees } from './tree-traversal.js';

export interface RandomForestOptions extends TreeOptions {
  nEstimators: number;
  bootstrap: boolean;
}

export const randomForestOptionsSchema = {
  type: 'object',
  properties: {
    nEstimators: {
      type: 'integer',
      minimum: 1,
      default: 100,
      description: 'Number of trees.',
    },
    bootstrap: {
      type: 'boolean',
      default: true,
      description:
        'Grow each tree on n rows drawn with replacement (draw counts multiply the sample weights); false grows every tree on all rows.',
    },
    ...treeProperties('sqrt'),
  },
  additionalProperties: false,
} satisfies OptionsSchema;

const FORMAT = 'fairbench/random-forest';
const VERSION = 1;

export interface RandomForestJSON {
  readonly format: typeof FORMAT;
  readonly version: typeof VERSION;
  readonly schema: Schema;
  readonly options: RandomForestOptions;
  readonly trees: readonly TreeNodesJSON[];
}

/**
 * A random forest of CART trees grown on one shared binning of the training data. `predictProba` is the
 * mean of the trees' leaf class distributions (as scikit-learn), `predict` its argmax (first on ties).
 */
export class RandomForest implements Classifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  readonly schema: Schema;
  readonly options: Readonly<RandomForestOptions>;
  readonly estimators: readonly DecisionTree[];
  /** Mean of the trees' normalised impurity decreases, normalised to sum 1. */
  readonly featureImportances: Float64Array;
  /** The trees compiled for prediction, at construction: a fitted or loaded forest is ready to predict. */
  private readonly coded: CodedTrees;

  /** @internal Use `fitRandomForest` or `RandomForest.fromJSON`. */
  constructor(schema: Schema, options: RandomForestOptions, trees: DecisionTree[]) {
    this.schema = schema;
    this.options = Object.freeze({ ...options });
    this.nFeatures = schema.attributes.length;
    this.nClasses = schema.outcome.labels.length;
    this.estimators = Object.freeze(trees);
    const imp = new Float64Array(this.nFeatures);
    for (const t of trees) for (let j = 0; j < imp.length; j++) imp[j]! += t.featureImportances[j]!;
    let total = 0;
    for (let j = 0; j < imp.length; j++) total += imp[j]!;
    if (total > 0) for (let j = 0; j < imp.length; j++) imp[j] = imp[j]! / total;
    this.featureImportances = imp;
    this.description = describeOptions('random-forest', options, randomForestOptionsSchema.properties);
    this.coded = new CodedTrees(this.estimators, this.nFeatures, this.nClasses);
    startPredictionThreads();
    this.coded.prepare();
  }

  predictProba(x: Float64Array): Float64Array {
    const n = batchRows(this.schema, x);
    const out = new Float64Array(n * this.nClasses);
    this.coded.addLeafValues(x, n, out);
    const scale = 1 / this.estimators.length;
    for (let c = 0; c < out.length; c++) out[c] = out[c]! * scale;
    return out;
  }

  predict(x: Float64Array): Int32Array {
    const n = batchRows(this.schema, x);
    return this.coded.vote(x, n, 1 / this.estimators.length).labels;
  }

  toJSON(): RandomForestJSON {
    return {
      format: FORMAT,
      version: VERSION,
      schema: this.schema,
      options: { ...this.options },
      trees: this.estimators.map((t) => t.nodesJSON()),
    };
  }

  static fromJSON(json: unknown): RandomForest {
    const j = readStored<RandomForestJSON>(json, FORMAT, VERSION, 'random forest');
    const schema = defineSchema(j.schema as Schema);
    const options = resolveOptions<RandomForestOptions>(randomForestOptionsSchema, j.options);
    if (!Array.isArray(j.trees) || j.trees.length !== options.nEstimators) {
      throw new InteropError('INTEROP_PARSE', `stored random forest: expected ${options.nEstimators} trees`);
    }
    const treeOptions = perTreeOptions(options);
    return new RandomForest(
      schema,
      options,
      j.trees.map((t) => new DecisionTree(schema, treeOptions, treeFromJSON(t, schema))),
    );
  }
}

function perTreeOptions(options: RandomForestOptions): TreeOptions {
  const { nEstimators: _n, bootstrap: _b, ...tree } = options;
  return tree;
}

/**
 * Fit a random forest: each tree is grown on a bootstrap sample (draw counts times the sample and class
 * weights) with `maxFeatures` candidate features per split. The features are binned once and shared by
 * every tree. Tree t draws from the stream `seed/random-forest/tree-t`, so trees do not depend on each
 * other's draws, and large forests are grown on the threads of `setPredictionThreads` (the same forest,
 * bit for bit, on any number of threads).
 */
export function fitRandomForest(
  dataset: Dataset,
  options: Partial<RandomForestOptions> = {},
  sampleWeight?: Float64Array,
): RandomForest {
  const opts = resolveOptions<RandomForestOptions>(randomForestOptionsSchema, options);
  const { ds, data, rowWeight } = prepareTreeData(dataset, opts, sampleWeight);
  const treeOptions = perTreeOptions(opts);
  const grown = growForest(
    {
      binner: data.binner.parts(),
      bins: data.bins,
      n: ds.n,
      y: data.y,
      nClasses: data.nClasses,
      rowWeight,
      params: growParams(opts, ds.d),
      seed: opts.seed,
      trees: opts.nEstimators,
      bootstrap: opts.bootstrap,
    },
    predictionThreads(),
  );
  const trees = grown.map((t) => new DecisionTree(ds.schema, treeOptions, t));
  return new RandomForest(ds.schema, opts, trees);
}
