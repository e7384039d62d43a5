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
import type { LayersModel, Sequential } from '@tensorflow/tfjs-layers';
import { batchRows } from './batch.js';
import { assertFinite, decodeFloat32, encodeArray, readStored, storedError } from './codec.js';
import { type CategoricalEncoding, FeatureEncoder } from './encoder.js';
import { loadTensorflow, type Tensorflow, type TensorflowBackend } from './tensorflow.js';
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
const VERSION = 1;
// Rows per forward pass at prediction time.
const PREDICT_BATCH = 8192;

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
  /** Kernels and biases, layer by layer, float32 as base64, with their lengths. */
  readonly weights: readonly { readonly length: number; readonly data: string }[];
  readonly backend: TensorflowBackend;
  readonly training: MlpTraining;
}

interface MlpInit {
  schema: Schema;
  options: MlpOptions;
  encoder: FeatureEncoder;
  handle: Tensorflow;
  network: LayersModel;
  training: MlpTraining;
}

/**
 * A multilayer perceptron on TensorFlow.js over the model's own input encoding. Predictions are
 * synchronous (the backend's `dataSync`, batched). `scoreGradient` differentiates the score through the
 * network and the encoder back to the raw inputs.
 */
export class Mlp implements DifferentiableClassifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  readonly schema: Schema;
  readonly options: Readonly<MlpOptions>;
  readonly encoder: FeatureEncoder;
  /** Backend the model was fitted (or loaded) on. */
  readonly backend: TensorflowBackend;
  readonly training: MlpTraining;
  private readonly tf: Tensorflow['tf'];
  private readonly network: LayersModel;

  /** @internal Use `fitMlp` or `Mlp.fromJSON`. */
  constructor(init: MlpInit) {
    this.schema = init.schema;
    this.options = Object.freeze({ ...init.options, layers: [...init.options.layers] });
    this.encoder = init.encoder;
    this.nFeatures = init.schema.attributes.length;
    this.nClasses = init.schema.outcome.labels.length;
    this.backend = init.handle.backend;
    this.tf = init.handle.tf;
    this.network = init.network;
    this.training = init.training;
    this.description = `mlp(${init.options.layers.join('-')},${init.options.activation})`;
  }

  /** Layer weights (kernel, bias per layer) as float32 copies. */
  get weights(): Float32Array[] {
    return this.network
      .getWeights()
      .map((w) => w.dataSync() as Float32Array)
      .map((a) => a.slice());
  }

  predictProba(x: Float64Array): Float64Array {
    const n = batchRows(this.schema, x);
    const K = this.nClasses;
    const out = new Float64Array(n * K);
    const { tf } = this;
    for (let lo = 0; lo < n; lo += PREDICT_BATCH) {
      const hi = Math.min(n, lo + PREDICT_BATCH);
      const z = this.encodeBatch(x, lo, hi);
      const probs = tf.tidy(() =>
        tf.softmax(this.network.apply(tf.tensor2d(z, [hi - lo, this.encoder.encodedWidth])) as TfTensor),
      );
      out.set(probs.dataSync(), lo * K);
      probs.dispose();
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
    const p = this.encoder.encodedWidth;
    const c = this.nClasses === 2 ? 1 : this.schema.outcome.favorable;
    const score = new Float64Array(n);
    const gradEncoded = new Float64Array(n * p);
    const { tf } = this;
    const grad = tf.grad((z: TfTensor) =>
      tf.sum(tf.slice(tf.softmax(this.network.apply(z) as TfTensor), [0, c], [-1, 1])),
    );
    for (let lo = 0; lo < n; lo += PREDICT_BATCH) {
      const hi = Math.min(n, lo + PREDICT_BATCH);
      const z = this.encodeBatch(x, lo, hi);
      const [s, g] = tf.tidy(() => {
        const input = tf.tensor2d(z, [hi - lo, p]);
        const probs = tf.slice(tf.softmax(this.network.apply(input) as TfTensor), [0, c], [-1, 1]);
        return [probs, grad(input)];
      });
      score.set(s.dataSync(), lo);
      gradEncoded.set(g.dataSync(), lo * p);
      s.dispose();
      g.dispose();
    }
    return { score, gradient: this.encoder.backpropagate(gradEncoded, n) };
  }

  private encodeBatch(x: Float64Array, lo: number, hi: number): Float32Array {
    const d = this.nFeatures;
    return Float32Array.from(this.encoder.encode(x.subarray(lo * d, hi * d), hi - lo));
  }

  /** Release the network's tensors; the model cannot predict afterwards. */
  dispose(): void {
    this.network.dispose();
  }

  toJSON(): MlpJSON {
    return {
      format: FORMAT,
      version: VERSION,
      schema: this.schema,
      options: { ...this.options, layers: [...this.options.layers] },
      encoder: this.encoder.toJSON(),
      weights: this.weights.map((w) => ({ length: w.length, data: encodeArray(w) })),
      backend: this.backend,
      training: this.training,
    };
  }

  /** Rebuild from `toJSON()` output on this process's backend (async: TensorFlow.js loads lazily). */
  static async fromJSON(json: unknown): Promise<Mlp> {
    const bad = storedError('MLP');
    const j = readStored<MlpJSON>(json, FORMAT, VERSION, 'MLP');
    const schema = defineSchema(j.schema as Schema);
    const options = resolveOptions<MlpOptions>(mlpOptionsSchema, j.options);
    const encoder = FeatureEncoder.fromJSON(j.encoder);
    if (encoder.nFeatures !== schema.attributes.length) bad('the encoder does not match the schema');
    const handle = await loadTensorflow();
    const network = buildNetwork(
      handle,
      options,
      encoder.encodedWidth,
      schema.outcome.labels.length,
      Rng.create(0),
    );
    const shapes = network.getWeights().map((w) => w.size);
    if (!Array.isArray(j.weights) || j.weights.length !== shapes.length)
      bad(`expected ${shapes.length} weight arrays`);
    const tensors = j.weights!.map((w, i) => {
      if (w?.length !== shapes[i]) bad(`weight array ${i} must hold ${shapes[i]} values`);
      return handle.tf.tensor(
        assertFinite(decodeFloat32(w.data, w.length, `weights[${i}]`), `stored MLP: weights[${i}]`),
        network.getWeights()[i]!.shape,
      );
    });
    network.setWeights(tensors);
    for (const t of tensors) t.dispose();
    const training = j.training as MlpTraining;
    if (!training || !Number.isInteger(training.epochs)) bad('training record missing');
    return new Mlp({ schema, options, encoder, handle, network, training });
  }
}

type TfTensor = ReturnType<Tensorflow['tf']['tensor']>;

function buildNetwork(
  handle: Tensorflow,
  options: MlpOptions,
  inputWidth: number,
  nClasses: number,
  rng: Rng,
): Sequential {
  const { tf } = handle;
  const seedOf = (label: string) => rng.fork(label).int(0, 0x7fffffff);
  const model = tf.sequential();
  const sizes = [...options.layers, nClasses];
  sizes.forEach((units, i) => {
    model.add(
      tf.layers.dense({
        units,
        ...(i === 0 ? { inputShape: [inputWidth] } : {}),
        activation: i < sizes.length - 1 ? options.activation : 'linear',
        kernelInitializer: tf.initializers.glorotUniform({ seed: seedOf(`kernel-${i}`) }),
        biasInitializer: 'zeros',
      }),
    );
  });
  return model;
}

/**
 * Fit an MLP (hidden layers, then a softmax over the classes) with Adam on the weighted cross-entropy.
 * Initialisation, the validation hold-out and the epoch shuffles all come from `seed`, so one seed gives
 * one model on a given backend.
 */
export async function fitMlp(
  dataset: Dataset,
  options: Partial<MlpOptions> = {},
  sampleWeight?: Float64Array,
): Promise<Mlp> {
  const opts = resolveOptions<MlpOptions>(mlpOptionsSchema, options);
  const ds = checkDataset(dataset);
  const { n, schema } = ds;
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
  const p = encoder.encodedWidth;
  const z = Float32Array.from(encoder.encode(ds.x, n));
  const handle = await loadTensorflow();
  const { tf } = handle;
  const network = buildNetwork(handle, opts, p, K, rng.fork('init'));
  const optimizer = tf.train.adam(opts.learningRate);
  const kernels = network.layers.map((l) => l.trainableWeights[0]!);
  const biases = network.layers.map((l) => l.trainableWeights[1]!);
  const last = network.layers.length - 1;
  // The dense stack as fused matMul + bias + activation ops on the layers' own variables: fewer kernel
  // calls per step than LayersModel.apply, same weights.
  type Matrix = ReturnType<typeof tf.tensor2d>;
  const forward = (input: Matrix): Matrix => {
    let h = input;
    for (let l = 0; l <= last; l++) {
      const fusable = l === last || opts.activation !== 'tanh';
      h = tf.fused.matMul({
        a: h,
        b: kernels[l]!.read() as Matrix,
        bias: biases[l]!.read(),
        activation: l < last && fusable ? (opts.activation as 'relu' | 'sigmoid') : 'linear',
      }) as Matrix;
      if (!fusable) h = tf.tanh(h) as Matrix;
    }
    return h;
  };

  const gather = (rows: ArrayLike<number>, lo: number, hi: number) => {
    const m = hi - lo;
    const xb = new Float32Array(m * p);
    const yb = new Float32Array(m * K);
    const wb = new Float32Array(m);
    let total = 0;
    for (let r = 0; r < m; r++) {
      const i = rows[lo + r]!;
      xb.set(z.subarray(i * p, i * p + p), r * p);
      yb[r * K + ds.y[i]!] = 1;
      wb[r] = weights[i]!;
      total += weights[i]!;
    }
    return { xb, yb, wb, m, total };
  };
  // Weighted mean cross-entropy of a batch (plus the penalty when training); yb is one-hot.
  type Batch = ReturnType<typeof gather>;
  const batchLoss = ({ xb, yb, wb, m, total }: Batch, penalty: boolean) => {
    const logits = forward(tf.tensor2d(xb, [m, p]));
    const sum = tf.losses.softmaxCrossEntropy(
      tf.tensor2d(yb, [m, K]),
      logits,
      tf.tensor1d(wb),
      0,
      tf.Reduction.SUM,
    );
    let loss = tf.mul(sum, 1 / Math.max(total, 1e-12));
    if (penalty && opts.l2 > 0) {
      for (const kernel of kernels)
        loss = tf.add(loss, tf.mul(opts.l2 / 2, tf.sum(tf.square(kernel.read()))));
    }
    return loss as ReturnType<typeof tf.scalar>;
  };

  const order = Int32Array.from(trainRows);
  const shuffle = rng.fork('shuffle');
  const trainLoss: number[] = [];
  const validationLoss: number[] = [];
  let best = Number.POSITIVE_INFINITY;
  let bestEpoch = 0;
  let bestWeights: TfTensor[] | null = null;
  let stale = 0;
  let epoch = 0;
  try {
    while (epoch < opts.epochs) {
      epoch++;
      shuffle.shuffle(order);
      let sum = 0;
      for (let lo = 0; lo < order.length; lo += opts.batchSize) {
        const hi = Math.min(order.length, lo + opts.batchSize);
        const batch = gather(order, lo, hi);
        const cost = optimizer.minimize(() => batchLoss(batch, true), true);
        sum += cost!.dataSync()[0]! * batch.m;
        cost!.dispose();
      }
      trainLoss.push(sum / order.length);
      if (!Number.isFinite(trainLoss[trainLoss.length - 1]!)) {
        throw new ModelError(
          'MODEL_OUTPUT',
          `the training loss diverged at epoch ${epoch}; lower learningRate`,
        );
      }
      if (!opts.earlyStopping) continue;
      const held = gather(validRows, 0, validRows.length);
      const v = tf.tidy(() => batchLoss(held, false).dataSync()[0]!);
      validationLoss.push(v);
      if (v < best - opts.tol) {
        best = v;
        bestEpoch = epoch;
        stale = 0;
        for (const t of bestWeights ?? []) t.dispose();
        bestWeights = network.getWeights().map((w) => w.clone());
      } else if (++stale >= opts.patience) break;
    }
    if (bestWeights) network.setWeights(bestWeights);
  } finally {
    for (const t of bestWeights ?? []) t.dispose();
    optimizer.dispose();
  }
  return new Mlp({
    schema,
    options: opts,
    encoder,
    handle,
    network,
    training: { epochs: epoch, bestEpoch: opts.earlyStopping ? bestEpoch : epoch, trainLoss, validationLoss },
  });
}
