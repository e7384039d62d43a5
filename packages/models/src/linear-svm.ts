import {
  checkDataset,
  DataError,
  type Dataset,
  type DifferentiableClassifier,
  defineSchema,
  type OptionsSchema,
  Rng,
  resolveOptions,
  type Schema,
} from '@fb/core';
import { batchRows } from './batch.js';
import { assertFinite, decodeFloat64, encodeArray, readStored, storedError } from './codec.js';
import {
  type HingeProblem,
  type HingeResult,
  type SparseDesign,
  type SvmLoss,
  solveHingeDual,
  solveHingeDualAsync,
} from './dual-cd.js';
import { type CategoricalEncoding, FeatureEncoder } from './encoder.js';
import { fitPlatt, type PlattSigmoid, plattProbability } from './platt.js';
import { type Seed, seedSchema } from './tree-options.js';
import { checkWeights } from './weights.js';

export interface LinearSvmArraysOptions {
  c: number;
  loss: SvmLoss;
  tol: number;
  maxIter: number;
  seed: Seed;
}

const solverProperties = {
  c: {
    type: 'number',
    exclusiveMinimum: 0,
    default: 1,
    description: 'Cost of a unit of hinge loss against ½‖w‖² (C of LIBLINEAR / scikit-learn LinearSVC).',
  },
  tol: {
    type: 'number',
    exclusiveMinimum: 0,
    default: 1e-4,
    description: 'Stop once the spread of the dual projected gradients over one pass is at most tol.',
  },
  maxIter: {
    type: 'integer',
    minimum: 1,
    default: 1000,
    description: 'Maximum passes of dual coordinate descent over the rows.',
  },
  seed: seedSchema,
} as const;

export const linearSvmArraysOptionsSchema = {
  type: 'object',
  properties: {
    ...solverProperties,
    loss: {
      type: 'string',
      enum: ['hinge', 'squared-hinge'],
      default: 'hinge',
      description:
        "Loss per row: 'hinge', max(0, 1 − m), or 'squared-hinge', max(0, 1 − m)² (scikit-learn LinearSVC's default, LIBLINEAR's L2-loss dual solver).",
    },
  },
  additionalProperties: false,
} satisfies OptionsSchema;

export interface LinearSvmOptions extends LinearSvmArraysOptions {
  categorical: CategoricalEncoding;
  plattFolds: number;
}

export const linearSvmOptionsSchema = {
  type: 'object',
  properties: {
    ...solverProperties,
    categorical: {
      type: 'string',
      enum: ['one-hot', 'ordinal'],
      default: 'one-hot',
      description: 'Encoding of categorical attributes: one-hot columns, or the code standardised.',
    },
    plattFolds: {
      type: 'integer',
      minimum: 0,
      maximum: 20,
      default: 5,
      description:
        'Platt scaling is fitted on out-of-fold decision values of this many stratified folds (as LIBSVM); 0 fits it on the training decision values.',
    },
  },
  additionalProperties: false,
} satisfies OptionsSchema;

/** A linear decision boundary w·x + b = 0 in the space it was fitted in. */
export interface LinearBoundary {
  readonly weights: Float64Array;
  readonly bias: number;
  readonly iterations: number;
  readonly converged: boolean;
  /** Whether the caller ended the fit early (`fitLinearSvmArraysAsync`). */
  readonly stopped: boolean;
  /** w·x + b for each row of x (n x weights.length). */
  decision(x: Float64Array): Float64Array;
}

function checkArrays(x: Float64Array, d: number, y: Int32Array, sampleWeight?: Float64Array): number {
  if (!Number.isInteger(d) || d < 1)
    throw new DataError('DATA_SHAPE', `the row width must be a positive integer, got ${d}`);
  if (!(x instanceof Float64Array) || x.length % d !== 0) {
    throw new DataError('DATA_SHAPE', `x must be a Float64Array of whole rows of width ${d}`);
  }
  const n = x.length / d;
  if (n === 0) throw new DataError('DATA_EMPTY', 'no rows to fit');
  if (!(y instanceof Int32Array) || y.length !== n)
    throw new DataError('DATA_SHAPE', `y must hold ${n} labels`);
  for (let k = 0; k < x.length; k++) {
    if (!Number.isFinite(x[k]!)) {
      throw new DataError(
        'DATA_NOT_FINITE',
        `row ${Math.floor(k / d)}: value ${x[k]} is not a finite number`,
        {
          row: Math.floor(k / d),
        },
      );
    }
  }
  let ones = 0;
  for (let i = 0; i < n; i++) {
    if (y[i] !== 0 && y[i] !== 1) {
      throw new DataError('DATA_OUT_OF_DOMAIN', `row ${i}: label ${y[i]} is not 0 or 1`, { row: i });
    }
    if (!sampleWeight || sampleWeight[i]! > 0) ones += y[i]!;
  }
  if (sampleWeight) checkWeights(sampleWeight, n);
  let positive = 0;
  for (let i = 0; i < n; i++) if (!sampleWeight || sampleWeight[i]! > 0) positive++;
  if (ones === 0 || ones === positive)
    throw new DataError('DATA_SINGLE_CLASS', 'a linear SVM needs rows of both labels');
  return n;
}

/**
 * Fit a linear SVM on plain vectors (n rows of width d, labels 0/1, no preprocessing): the boundary
 * w·x + b = 0 with class 1 on the positive side, with the hinge loss (default) or, with
 * `loss: 'squared-hinge'`, LinearSVC's squared hinge. For latent spaces and other numeric inputs.
 */
export function fitLinearSvmArrays(
  x: Float64Array,
  d: number,
  y: Int32Array,
  options: Partial<LinearSvmArraysOptions> = {},
  sampleWeight?: Float64Array,
): LinearBoundary {
  const p = arraysProblem(x, d, y, options, sampleWeight);
  return linearBoundary(solveHingeDual(p), d);
}

/**
 * `fitLinearSvmArrays` that awaits `between()` after every pass over the rows and ends the fit there
 * when it resolves to true, returning the boundary so far with `stopped` set: a long fit's chance to let
 * an abort signal or a timer through, and to stop at a caller's time budget.
 */
export async function fitLinearSvmArraysAsync(
  x: Float64Array,
  d: number,
  y: Int32Array,
  options: Partial<LinearSvmArraysOptions>,
  sampleWeight: Float64Array | undefined,
  between: () => Promise<boolean>,
): Promise<LinearBoundary> {
  const p = arraysProblem(x, d, y, options, sampleWeight);
  return linearBoundary(await solveHingeDualAsync(p, between), d);
}

function arraysProblem(
  x: Float64Array,
  d: number,
  y: Int32Array,
  options: Partial<LinearSvmArraysOptions>,
  sampleWeight: Float64Array | undefined,
): HingeProblem {
  const opts = resolveOptions<LinearSvmArraysOptions>(linearSvmArraysOptionsSchema, options);
  const n = checkArrays(x, d, y, sampleWeight);
  return {
    design: arraysDesign(x, n, d),
    loss: opts.loss,
    sign: Int8Array.from(y, (v) => (v === 1 ? 1 : -1)),
    cost: Float64Array.from({ length: n }, (_, i) => opts.c * (sampleWeight ? sampleWeight[i]! : 1)),
    tol: opts.tol,
    maxIter: opts.maxIter,
    rng: Rng.create(opts.seed).fork('linear-svm'),
  };
}

/**
 * The rows as a design of their non-zero entries only (a latent vector with a one-hot block has few;
 * rows of any length, `start` giving each row's first entry). A zero entry adds exactly nothing to a
 * margin or to w, so the solve is the one on the full rows, value for value; it only skips the work.
 */
export function arraysDesign(x: Float64Array, n: number, d: number): SparseDesign {
  let nnz = 0;
  for (let k = 0; k < x.length; k++) if (x[k] !== 0) nnz++;
  const index = new Int32Array(nnz);
  const value = new Float64Array(nnz);
  const start = new Int32Array(n + 1);
  let e = 0;
  for (let i = 0; i < n; i++) {
    start[i] = e;
    for (let j = 0; j < d; j++) {
      const v = x[i * d + j]!;
      if (v === 0) continue;
      index[e] = j;
      value[e++] = v;
    }
  }
  start[n] = e;
  return { index, value, n, perRow: 0, width: d, start };
}

function linearBoundary(result: HingeResult, d: number): LinearBoundary {
  const { weights, bias } = result;
  return {
    weights,
    bias,
    iterations: result.iterations,
    converged: result.converged,
    stopped: result.stopped,
    decision(rows: Float64Array): Float64Array {
      if (rows.length % d !== 0)
        throw new DataError('DATA_SHAPE', `a batch must be whole rows of width ${d}`);
      const m = rows.length / d;
      const out = new Float64Array(m);
      for (let i = 0; i < m; i++) {
        let s = bias;
        for (let j = 0; j < d; j++) s += weights[j]! * rows[i * d + j]!;
        out[i] = s;
      }
      return out;
    },
  };
}

const FORMAT = 'fairbench/linear-svm';
const VERSION = 1;

export interface LinearSvmJSON {
  readonly format: typeof FORMAT;
  readonly version: typeof VERSION;
  readonly schema: Schema;
  readonly options: LinearSvmOptions;
  readonly encoder: ReturnType<FeatureEncoder['toJSON']>;
  readonly weights: string;
  readonly bias: string;
  readonly platt: readonly PlattSigmoid[];
  readonly iterations: number;
  readonly converged: boolean;
}

interface SvmInit {
  schema: Schema;
  options: LinearSvmOptions;
  encoder: FeatureEncoder;
  weights: Float64Array;
  bias: Float64Array;
  platt: PlattSigmoid[];
  iterations: number;
  converged: boolean;
}

/**
 * A linear SVM on the model's own encoding (one-hot / standardised columns): one boundary for two classes
 * (class 1 on the positive side), one-vs-rest boundaries otherwise. Probabilities are Platt-scaled
 * (normalised over the classes in the one-vs-rest case).
 */
export class LinearSvm implements DifferentiableClassifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  readonly schema: Schema;
  readonly options: Readonly<LinearSvmOptions>;
  readonly encoder: FeatureEncoder;
  /** Boundaries x encoder.encodedWidth, row-major (1 boundary for two classes, else one per class). */
  readonly weights: Float64Array;
  readonly bias: Float64Array;
  readonly platt: readonly PlattSigmoid[];
  /** Largest number of solver passes over the boundaries, and whether every boundary converged. */
  readonly iterations: number;
  readonly converged: boolean;

  /** @internal Use `fitLinearSvm` or `LinearSvm.fromJSON`. */
  constructor(init: SvmInit) {
    this.schema = init.schema;
    this.options = Object.freeze({ ...init.options });
    this.encoder = init.encoder;
    this.nFeatures = init.schema.attributes.length;
    this.nClasses = init.schema.outcome.labels.length;
    this.weights = init.weights;
    this.bias = init.bias;
    this.platt = Object.freeze(init.platt.map((s) => Object.freeze({ ...s })));
    this.iterations = init.iterations;
    this.converged = init.converged;
    this.description = `linear-svm(c=${init.options.c})`;
  }

  /** w·z + b per boundary, n x boundaries. */
  decisionFunction(x: Float64Array): Float64Array {
    return this.encoder.linearScores(x, batchRows(this.schema, x), this.weights, this.bias);
  }

  /** The sign of the decision value for two classes (class 1 when > 0), else the largest one. */
  predict(x: Float64Array): Int32Array {
    const f = this.decisionFunction(x);
    const R = this.bias.length;
    const n = f.length / R;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      if (R === 1) out[i] = f[i]! > 0 ? 1 : 0;
      else {
        let best = 0;
        for (let r = 1; r < R; r++) if (f[i * R + r]! > f[i * R + best]!) best = r;
        out[i] = best;
      }
    }
    return out;
  }

  predictProba(x: Float64Array): Float64Array {
    return this.probabilities(this.decisionFunction(x)).proba;
  }

  private probabilities(f: Float64Array): { proba: Float64Array; sig: Float64Array } {
    const R = this.bias.length;
    const K = this.nClasses;
    const n = f.length / R;
    const proba = new Float64Array(n * K);
    const sig = new Float64Array(n * R);
    for (let i = 0; i < n; i++) {
      for (let r = 0; r < R; r++) sig[i * R + r] = plattProbability(this.platt[r]!, f[i * R + r]!);
      if (R === 1) {
        proba[2 * i + 1] = sig[i]!;
        proba[2 * i] = 1 - sig[i]!;
        continue;
      }
      let sum = 0;
      for (let k = 0; k < K; k++) sum += sig[i * R + k]!;
      for (let k = 0; k < K; k++) proba[i * K + k] = sum > 0 ? sig[i * R + k]! / sum : 1 / K;
    }
    return { proba, sig };
  }

  /**
   * Score = P(class 1) for two classes, P(favourable class) otherwise, and its gradient w.r.t. the raw
   * input through the Platt sigmoids and the encoder (one-hot attributes get 0).
   */
  scoreGradient(x: Float64Array): { score: Float64Array; gradient: Float64Array } {
    const f = this.decisionFunction(x);
    const { proba, sig } = this.probabilities(f);
    const R = this.bias.length;
    const K = this.nClasses;
    const d = this.nFeatures;
    const p = this.encoder.encodedWidth;
    const n = f.length / R;
    const c = K === 2 ? 1 : this.schema.outcome.favorable;
    const { offset, slope } = this.encoder;
    const score = new Float64Array(n);
    const gradient = new Float64Array(n * d);
    // d sig_r / d f_r = -A_r · sig_r (1 - sig_r).
    const dsig = new Float64Array(R);
    for (let i = 0; i < n; i++) {
      score[i] = proba[i * K + c]!;
      let sum = 0;
      for (let r = 0; r < R; r++) {
        const s = sig[i * R + r]!;
        dsig[r] = -this.platt[r]!.a * s * (1 - s);
        sum += s;
      }
      for (let j = 0; j < d; j++) {
        if (slope[j] === 0) continue;
        const col = offset[j]!;
        let g: number;
        if (R === 1) g = dsig[0]! * this.weights[col]!;
        else {
          // Quotient rule on sig_c / Σ sig_k.
          let dSum = 0;
          for (let r = 0; r < R; r++) dSum += dsig[r]! * this.weights[r * p + col]!;
          g = (dsig[c]! * this.weights[c * p + col]! * sum - sig[i * R + c]! * dSum) / (sum * sum);
        }
        gradient[i * d + j] = g * slope[j]!;
      }
    }
    return { score, gradient };
  }

  toJSON(): LinearSvmJSON {
    return {
      format: FORMAT,
      version: VERSION,
      schema: this.schema,
      options: { ...this.options },
      encoder: this.encoder.toJSON(),
      weights: encodeArray(this.weights),
      bias: encodeArray(this.bias),
      platt: this.platt.map((s) => ({ ...s })),
      iterations: this.iterations,
      converged: this.converged,
    };
  }

  static fromJSON(json: unknown): LinearSvm {
    const bad = storedError('linear SVM');
    const j = readStored<LinearSvmJSON>(json, FORMAT, VERSION, 'linear SVM');
    const schema = defineSchema(j.schema as Schema);
    const options = resolveOptions<LinearSvmOptions>(linearSvmOptionsSchema, j.options);
    const encoder = FeatureEncoder.fromJSON(j.encoder);
    if (encoder.nFeatures !== schema.attributes.length) bad('the encoder does not match the schema');
    const K = schema.outcome.labels.length;
    const R = K === 2 ? 1 : K;
    const platt = j.platt as PlattSigmoid[];
    if (
      !Array.isArray(platt) ||
      platt.length !== R ||
      !platt.every((s) => Number.isFinite(s?.a) && Number.isFinite(s?.b))
    ) {
      bad(`platt must hold ${R} finite sigmoids`);
    }
    if (!Number.isInteger(j.iterations) || typeof j.converged !== 'boolean') bad('solver record missing');
    return new LinearSvm({
      schema,
      options,
      encoder,
      weights: assertFinite(
        decodeFloat64(j.weights, R * encoder.encodedWidth, 'weights'),
        'stored SVM: weights',
      ),
      bias: assertFinite(decodeFloat64(j.bias, R, 'bias'), 'stored SVM: bias'),
      platt,
      iterations: j.iterations!,
      converged: j.converged!,
    });
  }
}

/**
 * Fit a linear SVM with hinge loss and L2 penalty by dual coordinate descent on the encoded rows, one
 * boundary per class beyond two (one-vs-rest), then Platt scaling on out-of-fold decision values.
 * `sampleWeight` scales each row's cost C.
 */
export function fitLinearSvm(
  dataset: Dataset,
  options: Partial<LinearSvmOptions> = {},
  sampleWeight?: Float64Array,
): LinearSvm {
  const opts = resolveOptions<LinearSvmOptions>(linearSvmOptionsSchema, options);
  const ds = checkDataset(dataset);
  const { n, d, schema } = ds;
  if (sampleWeight !== undefined) checkWeights(sampleWeight, n);
  const w = sampleWeight ?? new Float64Array(n).fill(1);
  const K = schema.outcome.labels.length;
  const classTotal = new Float64Array(K);
  for (let i = 0; i < n; i++) classTotal[ds.y[i]!]! += w[i]!;
  if (classTotal.filter((v) => v > 0).length < 2) {
    throw new DataError(
      'DATA_SINGLE_CLASS',
      'every row with positive weight has the same outcome: nothing to fit',
      {
        attribute: schema.outcome.name,
      },
    );
  }
  const encoder = FeatureEncoder.fit(schema, ds.x, n, {
    categorical: opts.categorical,
    ...(sampleWeight ? { weights: sampleWeight } : {}),
  });
  const p = encoder.encodedWidth;
  const { index, value } = encoder.encodeSparse(ds.x, n);
  const design: SparseDesign = { index, value, n, perRow: d, width: p };
  const R = K === 2 ? 1 : K;
  const rng = Rng.create(opts.seed).fork('linear-svm');
  const weights = new Float64Array(R * p);
  const bias = new Float64Array(R);
  const platt: PlattSigmoid[] = [];
  let iterations = 0;
  let converged = true;
  // Stratified fold of each row for the out-of-fold decision values.
  const fold = new Int32Array(n);
  if (opts.plattFolds > 1) {
    const folds = rng.fork('platt-folds');
    for (let k = 0; k < K; k++) {
      const rows: number[] = [];
      for (let i = 0; i < n; i++) if (ds.y[i] === k) rows.push(i);
      folds.shuffle(rows);
      rows.forEach((i, r) => {
        fold[i] = r % opts.plattFolds;
      });
    }
  }
  const cost = new Float64Array(n);
  for (let r = 0; r < R; r++) {
    const positiveClass = R === 1 ? 1 : r;
    const positive = Uint8Array.from(ds.y, (v) => (v === positiveClass ? 1 : 0));
    const sign = Int8Array.from(positive, (v) => (v ? 1 : -1));
    for (let i = 0; i < n; i++) cost[i] = opts.c * w[i]!;
    const boundary = solveHingeDual({
      design,
      sign,
      cost,
      tol: opts.tol,
      maxIter: opts.maxIter,
      rng: rng.fork(`boundary-${r}`),
    });
    weights.set(boundary.weights, r * p);
    bias[r] = boundary.bias;
    iterations = Math.max(iterations, boundary.iterations);
    converged &&= boundary.converged;
    const f = new Float64Array(n);
    if (opts.plattFolds > 1) {
      for (let k = 0; k < opts.plattFolds; k++) {
        for (let i = 0; i < n; i++) cost[i] = fold[i] === k ? 0 : opts.c * w[i]!;
        const part = solveHingeDual({
          design,
          sign,
          cost,
          tol: opts.tol,
          maxIter: opts.maxIter,
          rng: rng.fork(`boundary-${r}-fold-${k}`),
        });
        for (let i = 0; i < n; i++) if (fold[i] === k) f[i] = sparseDot(design, i, part.weights, part.bias);
      }
    } else {
      for (let i = 0; i < n; i++) f[i] = sparseDot(design, i, boundary.weights, boundary.bias);
    }
    platt.push(fitPlatt(f, positive, w));
  }
  return new LinearSvm({ schema, options: opts, encoder, weights, bias, platt, iterations, converged });
}

function sparseDot(design: SparseDesign, i: number, w: Float64Array, b: number): number {
  let s = b;
  for (let e = i * design.perRow; e < (i + 1) * design.perRow; e++)
    s += w[design.index[e]!]! * design.value[e]!;
  return s;
}
