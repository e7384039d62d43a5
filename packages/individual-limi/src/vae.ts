import type { Dataset, Rng, RunController } from '@fb/core';
import { loadTensorflow, type TensorflowApi } from '@fb/tensorflow';
import type { TabularCodec } from './codec.js';
import { type LatentGenerator, normalLatent } from './generator.js';

type Scalar = ReturnType<TensorflowApi['scalar']>;

export interface VaeSettings {
  latentDim: number;
  hiddenUnits: number;
  epochs: number;
  learningRate: number;
  batchSize: number;
}

export interface VaeTraining {
  /** Mean loss per row (reconstruction + KL) of each epoch. */
  lossPerEpoch: number[];
}

/** Glorot-uniform weights drawn from `rng`. */
function glorot(rng: Rng, fanIn: number, fanOut: number): Float32Array {
  const limit = Math.sqrt(6 / (fanIn + fanOut));
  return Float32Array.from({ length: fanIn * fanOut }, () => rng.uniform(-limit, limit));
}

/**
 * A tabular variational autoencoder (Kingma and Welling, 2014) on the codec's encoding: encoder and
 * decoder with one ReLU hidden layer each, a Gaussian latent prior N(0, I), a unit-variance Gaussian
 * likelihood on the numeric columns and a softmax likelihood on each categorical block. Trained with
 * Adam on TensorFlow.js; initial weights, batch order and the reparameterisation noise come from `rng`.
 * After training the decoder runs in plain JavaScript on its copied weights. Returns null when the run
 * is stopped during training.
 */
export async function fitVaeGenerator(
  dataset: Dataset,
  codec: TabularCodec,
  settings: VaeSettings,
  rng: Rng,
  ctl: RunController,
): Promise<{ generator: LatentGenerator; training: VaeTraining } | null> {
  const { tf } = await loadTensorflow();
  const { n } = dataset;
  const p = codec.width;
  const k = settings.latentDim;
  const h = settings.hiddenUnits;
  const data = Float32Array.from(codec.encode(dataset.x, n));
  const numericMask = new Float32Array(p);
  const blocks: [number, number][] = [];
  for (let j = 0; j < codec.d; j++) {
    if (codec.categories[j]! > 0) blocks.push([codec.offset[j]!, codec.categories[j]!]);
    else numericMask[codec.offset[j]!] = 1;
  }
  const variable = (values: Float32Array, shape: [number, number] | [number]) =>
    tf.variable(shape.length === 2 ? tf.tensor2d(values, shape) : tf.tensor1d(values));
  const W1 = variable(glorot(rng, p, h), [p, h]);
  const b1 = variable(new Float32Array(h), [h]);
  const Wm = variable(glorot(rng, h, k), [h, k]);
  const bm = variable(new Float32Array(k), [k]);
  const Wv = variable(glorot(rng, h, k), [h, k]);
  const bv = variable(new Float32Array(k), [k]);
  const W2 = variable(glorot(rng, k, h), [k, h]);
  const b2 = variable(new Float32Array(h), [h]);
  const W3 = variable(glorot(rng, h, p), [h, p]);
  const b3 = variable(new Float32Array(p), [p]);
  const all = [W1, b1, Wm, bm, Wv, bv, W2, b2, W3, b3];
  const mask = tf.tensor1d(numericMask);
  const optimizer = tf.train.adam(settings.learningRate);
  const order = Int32Array.from({ length: n }, (_, i) => i);
  const lossPerEpoch: number[] = [];
  const release = () => {
    for (const v of all) v.dispose();
    mask.dispose();
    optimizer.dispose();
  };
  for (let epoch = 0; epoch < settings.epochs; epoch++) {
    rng.shuffle(order);
    let total = 0;
    for (let start = 0; start < n; start += settings.batchSize) {
      if (await ctl.checkpoint({ phase: 'vae', done: epoch, total: settings.epochs })) {
        release();
        return null;
      }
      const m = Math.min(settings.batchSize, n - start);
      const xb = new Float32Array(m * p);
      for (let r = 0; r < m; r++)
        xb.set(data.subarray(order[start + r]! * p, (order[start + r]! + 1) * p), r * p);
      const eps = Float32Array.from({ length: m * k }, () => rng.normal());
      const cost = tf.tidy(() => {
        const x = tf.tensor2d(xb, [m, p]);
        const noise = tf.tensor2d(eps, [m, k]);
        return optimizer.minimize(
          () => {
            const hidden = tf.relu(tf.add(tf.matMul(x, W1), b1));
            const mu = tf.add(tf.matMul(hidden, Wm), bm);
            const logVar = tf.add(tf.matMul(hidden, Wv), bv);
            const z = tf.add(mu, tf.mul(tf.exp(tf.mul(logVar, 0.5)), noise));
            const out = tf.add(tf.matMul(tf.relu(tf.add(tf.matMul(z, W2), b2)), W3), b3);
            let loss = tf.mul(tf.sum(tf.mul(mask, tf.square(tf.sub(out, x)))), 0.5);
            for (const [offset, size] of blocks) {
              const logits = tf.slice(out, [0, offset], [m, size]);
              const target = tf.slice(x, [0, offset], [m, size]);
              loss = tf.sub(loss, tf.sum(tf.mul(target, tf.logSoftmax(logits))));
            }
            const kl = tf.mul(tf.sum(tf.sub(tf.sub(tf.add(logVar, 1), tf.square(mu)), tf.exp(logVar))), -0.5);
            return tf.div(tf.add(loss, kl), m) as Scalar;
          },
          true,
          all,
        ) as Scalar;
      });
      total += cost.dataSync()[0]! * m;
      cost.dispose();
    }
    lossPerEpoch.push(total / n);
  }
  const [w2, c2, w3, c3] = [W2, b2, W3, b3].map((v) => Float64Array.from(v.dataSync()));
  release();
  const generator: LatentGenerator = {
    k,
    kind: 'vae',
    sampleLatent: (r: Rng, m: number) => normalLatent(r, m, k),
    decode(z: Float64Array, m: number): Float64Array {
      const hidden = new Float64Array(h);
      const enc = new Float64Array(m * p);
      for (let i = 0; i < m; i++) {
        for (let u = 0; u < h; u++) {
          let s = c2![u]!;
          for (let r = 0; r < k; r++) s += z[i * k + r]! * w2![r * h + u]!;
          hidden[u] = Math.max(s, 0);
        }
        for (let c = 0; c < p; c++) {
          let s = c3![c]!;
          for (let u = 0; u < h; u++) s += hidden[u]! * w3![u * p + c]!;
          enc[i * p + c] = s;
        }
      }
      const out = new Float64Array(m * codec.d);
      codec.decode(enc, m, out);
      return out;
    },
  };
  return { generator, training: { lossPerEpoch } };
}
