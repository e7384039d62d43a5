import { type Dataset, InteropError, OptionsError } from '@fb/core';
import {
  DecisionTree,
  type DecisionTreeOptions,
  decisionTreeOptionsSchema,
  fitDecisionTree,
} from './decision-tree.js';
import { fitLinearSvm, LinearSvm, type LinearSvmOptions, linearSvmOptionsSchema } from './linear-svm.js';
import {
  fitLogisticRegression,
  LogisticRegression,
  type LogisticRegressionOptions,
  logisticRegressionOptionsSchema,
} from './logistic-regression.js';
import { fitMlp, Mlp, type MlpOptions, mlpOptionsSchema } from './mlp.js';
import {
  fitRandomForest,
  RandomForest,
  type RandomForestOptions,
  randomForestOptionsSchema,
} from './random-forest.js';

/** The JSON Schema of each model's options, keyed by model name. */
export const modelOptionsSchemas = {
  'logistic-regression': logisticRegressionOptionsSchema,
  'decision-tree': decisionTreeOptionsSchema,
  'random-forest': randomForestOptionsSchema,
  'linear-svm': linearSvmOptionsSchema,
  mlp: mlpOptionsSchema,
} as const;

export type ModelName = keyof typeof modelOptionsSchemas;

export type FitOptions =
  | ({ model: 'logistic-regression' } & Partial<LogisticRegressionOptions>)
  | ({ model: 'decision-tree' } & Partial<DecisionTreeOptions>)
  | ({ model: 'random-forest' } & Partial<RandomForestOptions>)
  | ({ model: 'linear-svm' } & Partial<LinearSvmOptions>)
  | ({ model: 'mlp' } & Partial<MlpOptions>);

export type FittedModel = LogisticRegression | DecisionTree | RandomForest | LinearSvm | Mlp;

/**
 * Fit any model of this package: `options.model` names it, the other options are that model's own
 * (validated against its JSON Schema, defaults filled). Async because the MLP loads TensorFlow.js.
 * `sampleWeight` holds one non-negative weight per row. The result's type is the model named (an `Mlp` for
 * `model: 'mlp'`, with its `scoreGradient`).
 */
export function fit(
  dataset: Dataset,
  options: { model: 'logistic-regression' } & Partial<LogisticRegressionOptions>,
  sampleWeight?: Float64Array,
): Promise<LogisticRegression>;
export function fit(
  dataset: Dataset,
  options: { model: 'decision-tree' } & Partial<DecisionTreeOptions>,
  sampleWeight?: Float64Array,
): Promise<DecisionTree>;
export function fit(
  dataset: Dataset,
  options: { model: 'random-forest' } & Partial<RandomForestOptions>,
  sampleWeight?: Float64Array,
): Promise<RandomForest>;
export function fit(
  dataset: Dataset,
  options: { model: 'linear-svm' } & Partial<LinearSvmOptions>,
  sampleWeight?: Float64Array,
): Promise<LinearSvm>;
export function fit(
  dataset: Dataset,
  options: { model: 'mlp' } & Partial<MlpOptions>,
  sampleWeight?: Float64Array,
): Promise<Mlp>;
export function fit(dataset: Dataset, options: FitOptions, sampleWeight?: Float64Array): Promise<FittedModel>;
export async function fit(
  dataset: Dataset,
  options: FitOptions,
  sampleWeight?: Float64Array,
): Promise<FittedModel> {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new OptionsError('OPTIONS_INVALID', 'options must be an object with a "model" property');
  }
  // Each fitter validates the remaining options against its own schema.
  const { model, ...rest } = options as { model: unknown } & Record<string, unknown>;
  switch (model) {
    case 'logistic-regression':
      return fitLogisticRegression(dataset, rest as Partial<LogisticRegressionOptions>, sampleWeight);
    case 'decision-tree':
      return fitDecisionTree(dataset, rest as Partial<DecisionTreeOptions>, sampleWeight);
    case 'random-forest':
      return fitRandomForest(dataset, rest as Partial<RandomForestOptions>, sampleWeight);
    case 'linear-svm':
      return fitLinearSvm(dataset, rest as Partial<LinearSvmOptions>, sampleWeight);
    case 'mlp':
      return fitMlp(dataset, rest as Partial<MlpOptions>, sampleWeight);
    default:
      throw new OptionsError(
        'OPTIONS_INVALID',
        `unknown model ${JSON.stringify(model)} (known: ${Object.keys(modelOptionsSchemas).join(', ')})`,
        { option: '/model' },
      );
  }
}

/**
 * Rebuild any model from its `toJSON()` output (or that text parsed), dispatching on its `format`.
 * Async because a stored MLP needs TensorFlow.js; the other formats also load synchronously through
 * their class's `fromJSON`.
 */
export async function modelFromJSON(json: unknown): Promise<FittedModel> {
  const format = (json as { format?: unknown } | null)?.format;
  switch (format) {
    case 'fairbench/logistic-regression':
      return LogisticRegression.fromJSON(json);
    case 'fairbench/decision-tree':
      return DecisionTree.fromJSON(json);
    case 'fairbench/random-forest':
      return RandomForest.fromJSON(json);
    case 'fairbench/linear-svm':
      return LinearSvm.fromJSON(json);
    case 'fairbench/mlp':
      return Mlp.fromJSON(json);
    default:
      throw new InteropError(
        'INTEROP_PARSE',
        `not a stored fairbench model (format ${JSON.stringify(format)})`,
      );
  }
}
