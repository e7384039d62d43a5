export {
  type AttributeEncoding,
  type CategoricalEncoding,
  type EncoderJSON,
  type EncoderOptions,
  FeatureEncoder,
  type SparseRows,
} from './encoder.js';
export {
  fitLogisticRegression,
  LogisticRegression,
  type LogisticRegressionJSON,
  type LogisticRegressionOptions,
  type LogisticSolver,
  logisticRegressionOptionsSchema,
  NEWTON_MAX_PARAMETERS,
} from './logistic-regression.js';
export { accuracy } from './metrics.js';
