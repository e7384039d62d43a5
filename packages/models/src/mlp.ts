import {
  argmaxRows,
  checkDataset,
  DataError,
  type Dataset,
  type DifferentiableClassifier,
  defineSchema,
  ModelError,
  type OptionsSchema,
  Rng,
  resolveOptions,
  type Schema,
} from '@fb/core';
import { batchRows } from './batch.js';
import { assertFinite, decodeFloat32, decodeFloat64, encodeArray, storedError } from './codec.js';
import { Adam, DenseStack, type SparseInput, softmaxRows } from './dense-stack.js';
import { type CategoricalEncoding, FeatureEncoder } from './encoder.js';
import { type Seed, seedSchema } from './tree-options.js';
import { checkWeights } from './weights.js';

export interface MlpOptions {
  layers: number[];
  activation: 'relu' | 'tanh' | 'sigmoid';
  categorical: CategoricalEncoding;
  learningRate: number;
  batchSize: number;
  epochs: number;
  l2: number;
  earlyStopping: boolean;
  validationFraction: number;
  patience: number;
  tol: number;
  seed: Seed;
}

export const mlpOptionsSchema = {
  type: 'object',
  properties: {
    layers: {
      type: 'array',
      items: { type: 'integer', minimum: 1 },
      minItems: 1,
      default: [64, 32, 16, 8, 4],
      description:
        'Units of each hidden layer; the fairness-testing literature (ADF and its successors) uses 64-32-16-8-4. A softmax layer over the classes follows.',
    },
    activation: {
      type: 'string',
      enum: ['relu', 'tanh', 'sigmoid'],
      default: 'relu',
      description: 'Activation of the hidden layers.',
    },
    categorical: {
      type: 'string',
      enum: ['one-hot', 'ordinal'],
      default: 'one-hot',
      description:
        'Input encoding of categorical attributes: one-hot columns, or the code standardised (gives non-zero input gradients on categorical attributes).',
    },
    learningRate: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 0.001,
      description: 'Adam step size.',
    },
    batchSize: { type: 'integer', minimum: 1, default: 128, description: 'Rows per gradient step.' },
    epochs: {
      type: 'integer',
      minimum: 1,
      default: 100,
      description: 'Maximum passes over the training rows.',
    },
    l2: {
      type: 'number',
      minimum: 0,
      default: 0,
      description: 'L2 penalty (l2/2)·‖W‖² on the kernels, added to the mean cross-entropy of each batch.',
    },
    earlyStopping: {
      type: 'boolean',
      default: true,
      description:
        'Hold out validationFraction of the rows (stratified) and stop once the validation loss has not improved by tol for patience epochs; the best weights are kept.',
    },
    validationFraction: {
      type: 'number',
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      default: 0.1,
      description: 'Fraction of the rows held out for early stopping.',
    },
    patience: {
      type: 'integer',
      minimum: 1,
      default: 10,
      description: 'Epochs without improvement before early stopping.',
    },
    tol: {
      type: 'number',
      minimum: 0,
      default: 1e-4,
      description: 'Smallest decrease of the validation loss that counts as an improvement.',
    },
    seed: seedSchema,
  },
  additionalProperties: false,
} satisfies OptionsSchema;

const FORMAT = 'fairbench/mlp';
/** 2: float64 weights of the typed-array network. 1 (TensorFlow.js, float32 weights) still loads. */
const VERSION = 2;
// Rows per forward pass at prediction time.
const PREDICT_BATCH = 4096;

export interface MlpTraining {
  /** Epochs run and the epoch whose weights were kept (1-based). */
  readonly epochs: number;
  readonly bestEpoch: number;
  /** Mean training loss per epoch, and validation loss per epoch with early stopping. */
  readonly trainLoss: readonly number[];
  readonly validationLoss: readonly number[];
}

export interface MlpJSON {
  readonly format: typeof FORMAT;
  readonly version: typeof VERSION;
  readonly schema: Schema;
  readonly options: MlpOptions;
  readonly encoder: ReturnType<FeatureEncoder['toJSON']>;
  /** Kernels ([inputs][units], row-major) and biases, layer by layer, float64 as base64, with their lengths. */
  readonly weights: readonly { readonly length: number; readonly data: string }[];
  readonly training: MlpTraining;
}

interface MlpInit {
  schema: Schema;
  options: MlpOptions;
  encoder: FeatureEncoder;
  network: DenseStack;
  training: MlpTraining;
}

/**
 * A multilayer perceptron on typed arrays over the model's own input encoding: dense layers, then a
 * softmax over the classes. `scoreGradient` differentiates the score exactly through the network and
 * the encoder back to the raw inputs.
 */
export class Mlp implements DifferentiableClassifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  readonly schema: Schema;
  readonly options: Readonly<MlpOptions>;
  readonly encoder: FeatureEncoder;
  readonly training: MlpTraining;
  private readonly network: DenseStack;

  /** @internal Use `fitMlp` or `Mlp.fromJSON`. */
  constructor(init: MlpInit) {
    this.schema = init.schema;
    this.options = Object.freeze({ ...init.options, layers: [...init.options.layers] });
    this.encoder = init.encoder;
    this.nFeatures = init.schema.attributes.length;
    this.nClasses = init.schema.outcome.labels.length;
    this.network = init.network;
    this.training = init.training;
    this.description = `mlp(${init.options.layers.join('-')},${init.options.activation})`;
  }

  /** Layer weights (kernel [inputs][units] row-major, then bias, per layer) as copies. */
  get weights(): Float64Array[] {
    const { kernels, biases } = this.network;
    return kernels.flatMap((k, l) => [k.slice(), biases[l]!.slice()]);
  }

  private sparse(x: Float64Array, lo: number, hi: number): SparseInput {
    const d = this.nFeatures;
    return { ...this.encoder.encodeSparse(x.subarray(lo * d, hi * d), hi - lo), d };
  }

  predictProba(x: Float64Array): Float64Array {
    const n = batchRows(this.schema, x);
    const K = this.nClasses;
    const out = new Float64Array(n * K);
    for (let lo = 0; lo < n; lo += PREDICT_BATCH) {
      const hi = Math.min(n, lo + PREDICT_BATCH);
      const logits = this.network.forward(this.sparse(x, lo, hi), null, 0, hi - lo);
      softmaxRows(logits, hi - lo, K, out, lo * K);
    }
    return out;
  }

  predict(x: Float64Array): Int32Array {
    return argmaxRows(this.predictProba(x), this.nClasses);
  }

  /**
   * Score = P(class 1) for two classes, P(favourable class) otherwise, and its gradient w.r.t. the raw
   * n x d input (chain rule through the encoder: one-hot attributes get 0).
   */
  scoreGradient(x: Float64Array): { score: Float64Array; gradient: Float64Array } {
    const n = batchRows(this.schema, x);
    const d = this.nFeatures;
    const K = this.nClasses;
    const c = K === 2 ? 1 : this.schema.outcome.favorable;
    const score = new Float64Array(n);
    const gradient = new Float64Array(n * d);
    const h = this.network.sizes[1]!;
    const w0 = this.network.kernels[0]!;
    const { offset, slope } = this.encoder;
    const probs = new Float64Array(Math.min(n, PREDICT_BATCH) * K);
    for (let lo = 0; lo < n; lo += PREDICT_BATCH) {
      const hi = Math.min(n, lo + PREDICT_BATCH);
      const m = hi - lo;
      const input = this.sparse(x, lo, hi);
      softmaxRows(this.network.forward(input, null, 0, m), m, K, probs);
      // d p_c / d logit_k = p_c (1[k = c] − p_k)
      for (let r = 0; r < m; r++) {
        const pc = probs[r * K + c]!;
        score[lo + r] = pc;
        for (let k = 0; k < K; k++) probs[r * K + k] = pc * ((k === c ? 1 : 0) - probs[r * K + k]!);
      }
      const delta0 = this.network.backward(input, null, 0, m, probs, null);
      // Through the first kernel to the encoded column of each standardised attribute, then its slope
      // (the encoder's chain rule; one-hot columns have slope 0).
      // Four rows at a time: four independent sums, each over the units in order.
      let r = 0;
      for (; r + 4 <= m; r += 4) {
        for (let j = 0; j < d; j++) {
          const sj = slope[j]!;
          if (sj === 0) continue;
          const wk = offset[j]! * h;
          let s0 = 0;
          let s1 = 0;
          let s2 = 0;
          let s3 = 0;
          for (let u = 0; u < h; u++) {
            const w = w0[wk + u]!;
            s0 += delta0[r * h + u]! * w;
            s1 += delta0[(r + 1) * h + u]! * w;
            s2 += delta0[(r + 2) * h + u]! * w;
            s3 += delta0[(r + 3) * h + u]! * w;
          }
          gradient[(lo + r) * d + j] = s0 * sj;
          gradient[(lo + r + 1) * d + j] = s1 * sj;
          gradient[(lo + r + 2) * d + j] = s2 * sj;
          gradient[(lo + r + 3) * d + j] = s3 * sj;
        }
      }
      for (; r < m; r++) {
        for (let j = 0; j < d; j++) {
          const sj = slope[j]!;
          if (sj === 0) continue;
          const wk = offset[j]! * h;
          let s = 0;
          for (let u = 0; u < h; u++) s += delta0[r * h + u]! * w0[wk + u]!;
          gradient[(lo + r) * d + j] = s * sj;
        }
      }
    }
    return { score, gradient };
  }

  toJSON(): MlpJSON {
    return {
      format: FORMAT,
      version: VERSION,
      schema: this.schema,
      options: { ...this.options, layers: [...this.options.layers] },
      encoder: this.encoder.toJSON(),
      weights: this.weights.map((w) => ({ length: w.length, data: encodeArray(w) })),
      training: this.training,
    };
  }

  /**
   * Rebuild from `toJSON()` output. Version 1 files (float32 weights of the earlier TensorFlow.js
   * network, same layout) load too; they then predict in float64 from the float32 weights.
   */
  static async fromJSON(json: unknown): Promise<Mlp> {
    const bad = storedError('MLP');
    const j = json as Partial<Omit<MlpJSON, 'version'>> & { version?: unknown };
    if (j === null || typeof j !== 'object' || j.format !== FORMAT || (j.version !== 1 && j.version !== 2)) {
      bad(`expected format "${FORMAT}" version 1 or ${VERSION}`);
    }
    const schema = defineSchema(j.schema as Schema);
    const options = resolveOptions<MlpOptions>(mlpOptionsSchema, j.options);
    const encoder = FeatureEncoder.fromJSON(j.encoder);
    if (encoder.nFeatures !== schema.attributes.length) bad('the encoder does not match the schema');
    const sizes = [encoder.encodedWidth, ...options.layers, schema.outcome.labels.length];
    const shapes = sizes.slice(1).flatMap((units, l) => [sizes[l]! * units, units]);
    if (!Array.isArray(j.weights) || j.weights.length !== shapes.length)
      bad(`expected ${shapes.length} weight arrays`);
    const arrays = j.weights!.map((w, i) => {
      if (w?.length !== shapes[i]) bad(`weight array ${i} must hold ${shapes[i]} values`);
      return assertFinite(
        j.version === 1
          ? Float64Array.from(decodeFloat32(w.data, w.length, `weights[${i}]`))
          : decodeFloat64(w.data, w.length, `weights[${i}]`),
        `stored MLP: weights[${i}]`,
      );
    });
    const training = j.training as MlpTraining;
    if (!training || !Number.isInteger(training.epochs)) bad('training record missing');
    const network = new DenseStack(
      sizes,
      arrays.filter((_, i) => i % 2 === 0),
      arrays.filter((_, i) => i % 2 === 1),
      options.activation,
    );
    return new Mlp({ schema, options, encoder, network, training });
  }
}

/** Glorot-uniform kernels (each layer from its own fork of `rng`) and zero biases. */
function initialNetwork(sizes: readonly number[], options: MlpOptions, rng: Rng): DenseStack {
  const kernels: Float64Array[] = [];
  const biases: Float64Array[] = [];
  for (let l = 0; l + 1 < sizes.length; l++) {
    const fanIn = sizes[l]!;
    const fanOut = sizes[l + 1]!;
    const limit = Math.sqrt(6 / (fanIn + fanOut));
    const draw = rng.fork(`kernel-${l}`);
    const k = new Float64Array(fanIn * fanOut);
    for (let i = 0; i < k.length; i++) k[i] = draw.uniform(-limit, limit);
    kernels.push(k);
    biases.push(new Float64Array(fanOut));
  }
  return new DenseStack(sizes, kernels, biases, options.activation);
}

/**
 * Weighted mean cross-entropy of m rows from their logits; when `grad` is given, also writes the
 * gradient of that mean w.r.t. the logits, (softmax − onehot)·w/total.
 */
function crossEntropy(
  logits: Float64Array,
  rows: Int32Array | null,
  r0: number,
  m: number,
  K: number,
  y: Int32Array,
  weights: Float64Array,
  total: number,
  grad: Float64Array | null,
): number {
  let loss = 0;
  for (let r = 0; r < m; r++) {
    const i = rows ? rows[r0 + r]! : r0 + r;
    let top = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < K; k++) top = Math.max(top, logits[r * K + k]!);
    let sum = 0;
    for (let k = 0; k < K; k++) sum += Math.exp(logits[r * K + k]! - top);
    const yi = y[i]!;
    const wi = weights[i]! / total;
    loss += wi * (top + Math.log(sum) - logits[r * K + yi]!);
    if (grad) {
      for (let k = 0; k < K; k++) {
        const p = Math.exp(logits[r * K + k]! - top) / sum;
        grad[r * K + k] = (p - (k === yi ? 1 : 0)) * wi;
      }
    }
  }
  return loss;
}

/**
 * Fit an MLP (hidden layers, then a softmax over the classes) with Adam on the weighted cross-entropy
 * (plus (l2/2)·‖W‖² on the kernels), in mini-batches of the shuffled training rows. Initialisation, the
 * validation hold-out and the epoch shuffles all come from `seed`: one seed gives one model.
 */
export async function fitMlp(
  dataset: Dataset,
  options: Partial<MlpOptions> = {},
  sampleWeight?: Float64Array,
): Promise<Mlp> {
  const opts = resolveOptions<MlpOptions>(mlpOptionsSchema, options);
  const ds = checkDataset(dataset);
  const { n, d, schema } = ds;
  if (sampleWeight !== undefined) checkWeights(sampleWeight, n);
  const K = schema.outcome.labels.length;
  const rng = Rng.create(opts.seed).fork('mlp');
  // Stratified validation hold-out.
  const isValidation = new Uint8Array(n);
  if (opts.earlyStopping) {
    const split = rng.fork('validation');
    for (let k = 0; k < K; k++) {
      const rows: number[] = [];
      for (let i = 0; i < n; i++) if (ds.y[i] === k) rows.push(i);
      split.shuffle(rows);
      const take = Math.round(opts.validationFraction * rows.length);
      for (let r = 0; r < take; r++) isValidation[rows[r]!] = 1;
    }
  }
  const trainRows: number[] = [];
  const validRows: number[] = [];
  for (let i = 0; i < n; i++) (isValidation[i] ? validRows : trainRows).push(i);
  if (trainRows.length === 0 || (opts.earlyStopping && validRows.length === 0)) {
    throw new DataError('DATA_EMPTY', `${n} rows are too few to hold out a validation part`);
  }
  const weights = sampleWeight ?? new Float64Array(n).fill(1);
  const classWeight = new Float64Array(K);
  for (const i of trainRows) classWeight[ds.y[i]!]! += weights[i]!;
  if (classWeight.filter((w) => w > 0).length < 2) {
    throw new DataError('DATA_SINGLE_CLASS', 'every training row with positive weight has the same outcome', {
      attribute: schema.outcome.name,
    });
  }
  const encoder = FeatureEncoder.fit(schema, ds.x, n, {
    categorical: opts.categorical,
    ...(sampleWeight ? { weights: sampleWeight } : {}),
  });
  const input: SparseInput = { ...encoder.encodeSparse(ds.x, n), d };
  const sizes = [encoder.encodedWidth, ...opts.layers, K];
  const network = initialNetwork(sizes, opts, rng.fork('init'));
  const { kernels, biases } = network;
  const params = [...kernels, ...biases];
  const grads = {
    kernels: kernels.map((k) => new Float64Array(k.length)),
    biases: biases.map((b) => new Float64Array(b.length)),
  };
  const gradList = [...grads.kernels, ...grads.biases];
  const adam = new Adam(params, opts.learningRate);
  const gradOut = new Float64Array(opts.batchSize * K);

  const validation = Int32Array.from(validRows);
  let validationTotal = 0;
  for (const i of validRows) validationTotal += weights[i]!;
  const validationLossNow = (): number => {
    let loss = 0;
    for (let lo = 0; lo < validation.length; lo += PREDICT_BATCH) {
      const m = Math.min(validation.length, lo + PREDICT_BATCH) - lo;
      const logits = network.forward(input, validation, lo, m);
      loss += crossEntropy(
        logits,
        validation,
        lo,
        m,
        K,
        ds.y,
        weights,
        Math.max(validationTotal, 1e-12),
        null,
      );
    }
    return loss;
  };

  const order = Int32Array.from(trainRows);
  const shuffle = rng.fork('shuffle');
  const trainLoss: number[] = [];
  const validationLoss: number[] = [];
  let best = Number.POSITIVE_INFINITY;
  let bestEpoch = 0;
  let bestWeights: Float64Array[] | null = null;
  let stale = 0;
  let epoch = 0;
  while (epoch < opts.epochs) {
    epoch++;
    shuffle.shuffle(order);
    let sum = 0;
    for (let lo = 0; lo < order.length; lo += opts.batchSize) {
      const m = Math.min(order.length, lo + opts.batchSize) - lo;
      let total = 0;
      for (let r = 0; r < m; r++) total += weights[order[lo + r]!]!;
      const logits = network.forward(input, order, lo, m);
      let loss = crossEntropy(logits, order, lo, m, K, ds.y, weights, Math.max(total, 1e-12), gradOut);
      for (const g of gradList) g.fill(0);
      network.backward(input, order, lo, m, gradOut, grads);
      if (opts.l2 > 0) {
        for (let l = 0; l < kernels.length; l++) {
          const k = kernels[l]!;
          const g = grads.kernels[l]!;
          let sq = 0;
          for (let i = 0; i < k.length; i++) {
            sq += k[i]! * k[i]!;
            g[i] += opts.l2 * k[i]!;
          }
          loss += (opts.l2 / 2) * sq;
        }
      }
      adam.step(params, gradList);
      network.parametersChanged();
      sum += loss * m;
    }
    trainLoss.push(sum / order.length);
    if (!Number.isFinite(trainLoss[trainLoss.length - 1]!)) {
      throw new ModelError(
        'MODEL_OUTPUT',
        `the training loss diverged at epoch ${epoch}; lower learningRate`,
      );
    }
    if (!opts.earlyStopping) continue;
    const v = validationLossNow();
    validationLoss.push(v);
    if (v < best - opts.tol) {
      best = v;
      bestEpoch = epoch;
      stale = 0;
      bestWeights = params.map((p) => p.slice());
    } else if (++stale >= opts.patience) break;
  }
  if (bestWeights) {
    for (let q = 0; q < params.length; q++) params[q]!.set(bestWeights[q]!);
    network.parametersChanged();
  }
  return new Mlp({
    schema,
    options: opts,
    encoder,
    network,
    training: { epochs: epoch, bestEpoch: opts.earlyStopping ? bestEpoch : epoch, trainLoss, validationLoss },
  });
}
