export { FeatureBinner, MAX_BINS } from './binning.js';
// A sparse design's scattered sums and dot products (a logistic gradient and Hessian), on WebAssembly.
export { type CellListKind, CellLists, type CellListsShape } from './cell-lists.js';
export {
  DecisionTree,
  type DecisionTreeJSON,
  type DecisionTreeOptions,
  decisionTreeOptionsSchema,
  fitDecisionTree,
  type TreeNodesJSON,
} from './decision-tree.js';
export {
  type AttributeEncoding,
  type CategoricalEncoding,
  type EncoderJSON,
  type EncoderOptions,
  FeatureEncoder,
  type SparseRows,
} from './encoder.js';
export {
  type FitOptions,
  type FittedModel,
  fit,
  type ModelName,
  modelFromJSON,
  modelOptionsSchemas,
} from './fit.js';
export {
  classifierFromFunction,
  type FunctionClassifierInit,
  type ProbabilityFunction,
} from './function-classifier.js';
export {
  fitLinearSvm,
  fitLinearSvmArrays,
  fitLinearSvmArraysAsync,
  type LinearBoundary,
  LinearSvm,
  type LinearSvmArraysOptions,
  type LinearSvmJSON,
  type LinearSvmOptions,
  linearSvmArraysOptionsSchema,
  linearSvmOptionsSchema,
} from './linear-svm.js';
export {
  fitLogisticRegression,
  LogisticRegression,
  type LogisticRegressionJSON,
  type LogisticRegressionOptions,
  type LogisticSolver,
  logisticRegressionOptionsSchema,
  NEWTON_MAX_PARAMETERS,
} from './logistic-regression.js';
export {
  accuracy,
  accuracyScore,
  balancedAccuracyScore,
  type Evaluation,
  evaluate,
  f1Score,
  logLossScore,
  rocAucScore,
} from './metrics.js';
export { fitMlp, Mlp, type MlpJSON, type MlpOptions, type MlpTraining, mlpOptionsSchema } from './mlp.js';
// The damped Newton solver, for packages that fit their own smooth losses with the same arithmetic.
export { type LazyHessianObjective, minimiseNewton, type NewtonWork, newtonWork } from './newton.js';
export type {
  OptimisationResult,
  SmoothObjective,
  StoppingRule,
  TwiceDifferentiableObjective,
} from './objective.js';
export type { PlattSigmoid } from './platt.js';
export {
  fitRandomForest,
  RandomForest,
  type RandomForestJSON,
  type RandomForestOptions,
  randomForestOptionsSchema,
} from './random-forest.js';
export {
  factorRidge,
  fitRidge,
  linearValue,
  type RidgeFactor,
  type RidgeFit,
  type RidgeOptions,
  RidgeSolver,
} from './ridge.js';
export {
  type TrainTestSplit,
  type TrainTestSplitOptions,
  trainTestSplit,
  trainTestSplitOptionsSchema,
} from './split.js';
export type { Criterion } from './tree-builder.js';
export type { ClassWeight, MaxFeatures, Seed, TreeOptions } from './tree-options.js';
export { predictionThreads, setPredictionThreads } from './tree-threads.js';
