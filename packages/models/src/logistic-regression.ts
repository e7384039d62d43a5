import {
  checkDataset,
  DataError,
  type Dataset,
  type DifferentiableClassifier,
  defineSchema,
  type OptionsSchema,
  resolveOptions,
  type Schema,
} from '@fb/core';
import { readStored, storedError } from './codec.js';
import { type CategoricalEncoding, FeatureEncoder } from './encoder.js';
import { minimiseLbfgs } from './lbfgs.js';
import { BinaryLogisticLoss, coefficientRows, LogisticLoss, sigmoid } from './logistic-loss.js';
import { minimiseNewton } from './newton.js';
import { checkWeights } from './weights.js';

export type LogisticSolver = 'auto' | 'newton' | 'lbfgs';

export interface LogisticRegressionOptions {
  l2: number;
  categorical: CategoricalEncoding;
  solver: LogisticSolver;
  tol: number;
  maxIter: number;
  memory: number;
}

/** With `solver: 'auto'`, Newton is used up to this many parameters (the Hessian is size², Cholesky size³). */
export const NEWTON_MAX_PARAMETERS = 500;

export const logisticRegressionOptionsSchema = {
  type: 'object',
  properties: {
    l2: {
      type: 'number',
      minimum: 0,
      default: 1,
      description:
        'L2 penalty strength: minimise Σ wᵢ·lossᵢ + (l2/2)·‖W‖² over the coefficients of the encoded inputs, intercepts unpenalised. l2 = 1/C of scikit-learn (l2 = 1 is its default C = 1); 0 gives the unpenalised fit.',
    },
    categorical: {
      type: 'string',
      enum: ['one-hot', 'ordinal'],
      default: 'one-hot',
      description:
        'Encoding of categorical attributes: one 0/1 column per category, or the code standardised as a number (needed for non-zero input gradients on categorical attributes).',
    },
    solver: {
      type: 'string',
      enum: ['auto', 'newton', 'lbfgs'],
      default: 'auto',
      description: `Optimiser: Newton–Raphson (IRLS) with a Cholesky solve, or L-BFGS. "auto" picks Newton when the model has at most ${NEWTON_MAX_PARAMETERS} parameters, else L-BFGS.`,
    },
    tol: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 1e-6,
      description:
        'Convergence tolerance: stop once the largest absolute component of the gradient of the objective divided by the total sample weight is at most tol.',
    },
    maxIter: {
      type: 'integer',
      minimum: 1,
      default: 100,
      description: 'Maximum number of iterations (Newton steps or L-BFGS updates).',
    },
    memory: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 10,
      description: 'Number of correction pairs kept by L-BFGS.',
    },
  },
  additionalProperties: false,
} satisfies OptionsSchema;

const FORMAT = 'fairbench/logistic-regression';
const VERSION = 1;

export interface LogisticRegressionJSON {
  readonly format: typeof FORMAT;
  readonly version: typeof VERSION;
  readonly schema: Schema;
  readonly options: LogisticRegressionOptions;
  readonly encoder: ReturnType<FeatureEncoder['toJSON']>;
  /** Coefficient rows x encoded width, row-major. */
  readonly coefficients: number[];
  readonly intercepts: number[];
  readonly solver: 'newton' | 'lbfgs';
  readonly iterations: number;
  readonly converged: boolean;
  readonly gradientNorm: number;
}

interface ModelInit {
  schema: Schema;
  options: LogisticRegressionOptions;
  encoder: FeatureEncoder;
  coefficients: Float64Array;
  intercepts: Float64Array;
  solver: 'newton' | 'lbfgs';
  iterations: number;
  converged: boolean;
  gradientNorm: number;
}

/**
 * A fitted (binary or multinomial) logistic regression on encoded inputs. Binary: P(1 | x) = σ(w·z + b).
 * Multinomial: P(k | x) = softmax_k(W·z + b), one coefficient row per class. z = encoder(x).
 */
export class LogisticRegression implements DifferentiableClassifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  readonly schema: Schema;
  readonly options: Readonly<LogisticRegressionOptions>;
  readonly encoder: FeatureEncoder;
  /** 1 for a binary model (class 1 against class 0), else nClasses. */
  readonly coefficientRows: number;
  /** Solver actually used. */
  readonly solver: 'newton' | 'lbfgs';
  readonly iterations: number;
  readonly converged: boolean;
  /** Largest absolute gradient component of the scaled objective at the solution. */
  readonly gradientNorm: number;
  private readonly coef: Float64Array;
  private readonly bias: Float64Array;

  private constructor(init: ModelInit) {
    this.schema = init.schema;
    this.options = Object.freeze({ ...init.options });
    this.encoder = init.encoder;
    this.nFeatures = init.schema.attributes.length;
    this.nClasses = init.schema.outcome.labels.length;
    this.coefficientRows = coefficientRows(this.nClasses);
    this.coef = init.coefficients;
    this.bias = init.intercepts;
    this.solver = init.solver;
    this.iterations = init.iterations;
    this.converged = init.converged;
    this.gradientNorm = init.gradientNorm;
    const extra = init.options.categorical === 'ordinal' ? ',categorical=ordinal' : '';
    this.description = `logistic-regression(l2=${init.options.l2}${extra})`;
  }

  /**
   * Same as `fitLogisticRegression`. `warmStart`: a model fitted on data of the same schema (e.g. before a resampling) whose
   * coefficients start the solver instead of zero. With l2 > 0 the loss is strictly convex, so the
   * fit reaches the same optimum (to `tol`), usually in fewer steps.
   */
  static fit(
    dataset: Dataset,
    options: Partial<LogisticRegressionOptions> = {},
    sampleWeight?: Float64Array,
    warmStart?: LogisticRegression,
  ): LogisticRegression {
    const model = new LogisticRegression(fit(dataset, options, sampleWeight, warmStart));
    if (!scoresPrepared) prepareScores(model);
    return model;
  }

  /** Coefficients on the encoded columns (`encoder.columnNames`), coefficientRows x encodedWidth, row-major. */
  get coefficients(): Float64Array {
    return this.coef.slice();
  }

  /** One intercept per coefficient row. */
  get intercepts(): Float64Array {
    return this.bias.slice();
  }

  /** Linear scores W·z + b, n x coefficientRows row-major. */
  decisionFunction(x: Float64Array): Float64Array {
    return this.encoder.linearScores(x, this.encoder.rows(x), this.coef, this.bias);
  }

  predict(x: Float64Array): Int32Array {
    const eta = this.decisionFunction(x);
    const R = this.coefficientRows;
    const n = eta.length / R;
    const out = new Int32Array(n);
    if (R === 1) {
      for (let i = 0; i < n; i++) out[i] = eta[i]! > 0 ? 1 : 0;
      return out;
    }
    for (let i = 0; i < n; i++) {
      let best = 0;
      for (let k = 1; k < R; k++) if (eta[i * R + k]! > eta[i * R + best]!) best = k;
      out[i] = best;
    }
    return out;
  }

  predictProba(x: Float64Array): Float64Array {
    const eta = this.decisionFunction(x);
    const K = this.nClasses;
    const R = this.coefficientRows;
    const n = eta.length / R;
    const out = new Float64Array(n * K);
    if (R === 1) {
      for (let i = 0; i < n; i++) {
        out[2 * i] = sigmoid(-eta[i]!);
        out[2 * i + 1] = sigmoid(eta[i]!);
      }
      return out;
    }
    for (let i = 0; i < n; i++) softmaxInto(eta, i * K, K, out);
    return out;
  }

  /**
   * Score = P(class 1) for a binary model, P(favourable class) for a multinomial one, with its exact
   * gradient w.r.t. the raw n x d input. One-hot attributes have gradient 0 (the encoding is piecewise
   * constant in the code); fit with `categorical: 'ordinal'` for gradients through categorical codes.
   */
  scoreGradient(x: Float64Array): { score: Float64Array; gradient: Float64Array } {
    const eta = this.decisionFunction(x);
    const d = this.nFeatures;
    const R = this.coefficientRows;
    const n = eta.length / R;
    const { offset, slope } = this.encoder;
    const p = this.encoder.encodedWidth;
    const score = new Float64Array(n);
    const gradient = new Float64Array(n * d);
    if (R === 1) {
      for (let i = 0; i < n; i++) {
        const s = sigmoid(eta[i]!);
        score[i] = s;
        const ds = s * (1 - s);
        for (let j = 0; j < d; j++)
          if (slope[j] !== 0) gradient[i * d + j] = ds * this.coef[offset[j]!]! * slope[j]!;
      }
      return { score, gradient };
    }
    const f = this.schema.outcome.favorable;
    const prob = new Float64Array(R);
    for (let i = 0; i < n; i++) {
      softmaxInto(eta.subarray(i * R, i * R + R), 0, R, prob);
      const pf = prob[f]!;
      score[i] = pf;
      for (let j = 0; j < d; j++) {
        if (slope[j] === 0) continue;
        const c = offset[j]!;
        let mix = 0;
        for (let k = 0; k < R; k++) mix += prob[k]! * this.coef[k * p + c]!;
        gradient[i * d + j] = pf * (this.coef[f * p + c]! - mix) * slope[j]!;
      }
    }
    return { score, gradient };
  }

  toJSON(): LogisticRegressionJSON {
    return {
      format: FORMAT,
      version: VERSION,
      schema: this.schema,
      options: { ...this.options },
      encoder: this.encoder.toJSON(),
      coefficients: Array.from(this.coef),
      intercepts: Array.from(this.bias),
      solver: this.solver,
      iterations: this.iterations,
      converged: this.converged,
      gradientNorm: this.gradientNorm,
    };
  }

  /** Rebuild a model from `toJSON()` output (or its JSON text, parsed); predictions are identical. */
  static fromJSON(json: unknown): LogisticRegression {
    const bad = storedError('logistic regression');
    const j = readStored<LogisticRegressionJSON>(json, FORMAT, VERSION, 'logistic regression');
    const schema = defineSchema(j.schema as Schema);
    const options = resolveOptions<LogisticRegressionOptions>(logisticRegressionOptionsSchema, j.options);
    const encoder = FeatureEncoder.fromJSON(j.encoder);
    const names = schema.attributes.map((a) => a.name);
    if (
      encoder.attributes.length !== names.length ||
      encoder.attributes.some((a, i) => a.name !== names[i])
    ) {
      bad('the encoder does not match the schema attributes');
    }
    const R = coefficientRows(schema.outcome.labels.length);
    const coefficients = finiteArray(j.coefficients, R * encoder.encodedWidth, 'coefficients', bad);
    const intercepts = finiteArray(j.intercepts, R, 'intercepts', bad);
    if (j.solver !== 'newton' && j.solver !== 'lbfgs') bad('solver must be "newton" or "lbfgs"');
    if (!Number.isInteger(j.iterations) || j.iterations! < 0)
      bad('iterations must be a non-negative integer');
    if (typeof j.converged !== 'boolean') bad('converged must be a boolean');
    if (typeof j.gradientNorm !== 'number') bad('gradientNorm must be a number');
    const model = new LogisticRegression({
      schema,
      options,
      encoder,
      coefficients,
      intercepts,
      solver: j.solver!,
      iterations: j.iterations!,
      converged: j.converged!,
      gradientNorm: j.gradientNorm!,
    });
    if (!scoresPrepared) prepareScores(model);
    return model;
  }
}

function finiteArray(v: unknown, length: number, what: string, bad: (msg: string) => never): Float64Array {
  if (
    !Array.isArray(v) ||
    v.length !== length ||
    !v.every((c) => typeof c === 'number' && Number.isFinite(c))
  ) {
    bad(`${what} must be ${length} finite numbers`);
  }
  return Float64Array.from(v as number[]);
}

function softmaxInto(eta: Float64Array, at: number, K: number, out: Float64Array): void {
  let top = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < K; k++) top = Math.max(top, eta[at + k]!);
  let sum = 0;
  for (let k = 0; k < K; k++) sum += out[at + k] = Math.exp(eta[at + k]! - top);
  for (let k = 0; k < K; k++) out[at + k] = out[at + k]! / sum;
}

/**
 * Fit a logistic regression to `dataset` (binary when the outcome has two labels, multinomial softmax
 * otherwise) by minimising Σᵢ wᵢ·(−log P(yᵢ | xᵢ)) + (l2/2)·‖W‖², intercepts unpenalised. Deterministic.
 * `sampleWeight` holds one non-negative weight per row (default 1).
 */
export function fitLogisticRegression(
  dataset: Dataset,
  options: Partial<LogisticRegressionOptions> = {},
  sampleWeight?: Float64Array,
  warmStart?: LogisticRegression,
): LogisticRegression {
  return LogisticRegression.fit(dataset, options, sampleWeight, warmStart);
}

function fit(
  dataset: Dataset,
  options: Partial<LogisticRegressionOptions>,
  sampleWeight?: Float64Array,
  warmStart?: LogisticRegression,
): ModelInit {
  const opts = resolveOptions<LogisticRegressionOptions>(logisticRegressionOptionsSchema, options);
  const ds = checkDataset(dataset);
  const { n, d, schema } = ds;
  const weights = sampleWeight === undefined ? null : sampleWeight;
  const total = weights ? checkWeights(weights, n) : n;
  const K = schema.outcome.labels.length;
  const classWeight = new Float64Array(K);
  for (let i = 0; i < n; i++) classWeight[ds.y[i]!]! += weights ? weights[i]! : 1;
  const present = classWeight.filter((w) => w > 0).length;
  if (present < 2) {
    throw new DataError(
      'DATA_SINGLE_CLASS',
      'every row with positive weight has the same outcome: nothing to fit',
      {
        attribute: schema.outcome.name,
      },
    );
  }
  if (present < K) {
    const missing = schema.outcome.labels.filter((_, k) => !(classWeight[k]! > 0));
    throw new DataError(
      'DATA_EMPTY_GROUP',
      `outcome label(s) ${missing.map((l) => `"${l}"`).join(', ')} have no rows with positive weight: a multinomial fit needs every class`,
      { attribute: schema.outcome.name },
    );
  }
  const encoder = FeatureEncoder.fit(schema, ds.x, n, {
    categorical: opts.categorical,
    ...(weights ? { weights } : {}),
  });
  const p = encoder.encodedWidth;
  const rows = encoder.encodeSparse(ds.x, n);
  const data = { rows, n, d, p, y: ds.y, weights, nClasses: K };
  const R = coefficientRows(K);
  const size = R * (p + 1);
  // Start from zero coefficients and the intercepts of the class prior (the l2 → ∞ solution).
  const theta = new Float64Array(size);
  if (K === 2) theta[R * p] = Math.log(classWeight[1]! / classWeight[0]!);
  else {
    let meanLog = 0;
    for (let k = 0; k < K; k++) meanLog += Math.log(classWeight[k]!) / K;
    for (let k = 0; k < K; k++) theta[R * p + k] = Math.log(classWeight[k]!) - meanLog;
  }
  if (warmStart !== undefined) {
    if (warmStart.nClasses !== K || warmStart.encoder.encodedWidth !== p) {
      throw new DataError(
        'DATA_SHAPE',
        `warm start: the model has ${warmStart.nClasses} classes and ${warmStart.encoder.encodedWidth} encoded columns, the data ${K} and ${p}`,
      );
    }
    theta.set(warmStart.coefficients);
    theta.set(warmStart.intercepts, R * p);
  }
  const solver = opts.solver === 'auto' ? (size <= NEWTON_MAX_PARAMETERS ? 'newton' : 'lbfgs') : opts.solver;
  const rule = { tol: opts.tol, maxIter: opts.maxIter, memory: opts.memory };
  // The binary loss's Newton steps run on its column layout (the same bits as the row loops).
  const result =
    solver === 'lbfgs'
      ? minimiseLbfgs(new LogisticLoss(data, opts.l2, total), theta, rule)
      : minimiseNewton(
          K === 2 ? new BinaryLogisticLoss(data, opts.l2, total) : new LogisticLoss(data, opts.l2, total),
          theta,
          rule,
        );
  return {
    schema,
    options: opts,
    encoder,
    coefficients: theta.slice(0, R * p),
    intercepts: theta.slice(R * p),
    solver,
    iterations: result.iterations,
    converged: result.converged,
    gradientNorm: result.gradientNorm,
  };
}

// Enough calls on enough rows for V8 to optimise the loops (32 rows 8 times was not; see the README).
const PREPARE_ROWS = 64;
const PREPARE_CALLS = 16;
let scoresPrepared = false;

/**
 * Once per process, when the first model is fitted or loaded: its probabilities for a batch of made-up rows
 * (each category in turn, each standardised attribute at its mean), several times. That is enough for
 * V8 to optimise the scores' loops on a background thread while the caller goes on, so that a first
 * `predictProba` or `predict` of many rows does not run them unoptimised for its first milliseconds.
 * The rows are the model's own kind of input, so the types V8 sees are those of every later call.
 */
function prepareScores(model: LogisticRegression): void {
  scoresPrepared = true;
  const attributes = model.encoder.attributes;
  const d = attributes.length;
  const rows = PREPARE_ROWS;
  const x = new Float64Array(rows * d);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < d; j++) {
      const a = attributes[j]!;
      x[i * d + j] = a.encoding === 'one-hot' ? i % a.categories.length : a.mean;
    }
  }
  for (let r = 0; r < PREPARE_CALLS; r++) {
    if (r & 1) model.predict(x);
    else model.predictProba(x);
  }
}
