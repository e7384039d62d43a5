import { type Dataset, ModelError, type OptionsSchema, Rng, resolveOptions } from '@fb/core';
import type { FeatureEncoder } from '@fb/models';
import { NetClassifier, prepareNetTraining } from './net-classifier.js';
import { protectedAttributesOption, seedOption } from './option-fields.js';
import { apply, type Dense, dense, epochBatches, gatherRows, type Tensor, type Tf } from './tf-nets.js';

export interface MmdVaeOptions {
  protectedAttributes: string[] | null;
  latentDim: number;
  hiddenUnits: number;
  mmdWeight: number;
  klWeight: number;
  classifierWeight: number;
  epochs: number;
  batchSize: number;
  learningRate: number;
  seed: number | string;
}

export const mmdVaeOptionsSchema = {
  type: 'object',
  properties: {
    protectedAttributes: protectedAttributesOption(
      'Attributes whose value combinations the representation must not reveal (MMD between each group and the rest); null: the protected attributes of the schema.',
    ),
    latentDim: {
      type: 'integer',
      minimum: 1,
      default: 32,
      description: 'Size of the representation z (seed 002).',
    },
    hiddenUnits: {
      type: 'integer',
      minimum: 1,
      default: 64,
      description: 'Units of the encoder’s and the decoder’s hidden ReLU layer (seed 002).',
    },
    mmdWeight: {
      type: 'number',
      minimum: 0,
      default: 100,
      description:
        'lambda of the MMD independence penalty (seed 002’s independence_weight, 1 there: the squared MMD of a 32-dimensional z is of order 0.01, so 1 leaves the representation as it is).',
    },
    klWeight: {
      type: 'number',
      minimum: 0,
      default: 1,
      description: 'Weight of KL(q(z|x) || N(0, I)) (1: the variational bound).',
    },
    classifierWeight: {
      type: 'number',
      minimum: 0,
      default: 1,
      description:
        'Weight of the cross-entropy of a logistic head on the posterior mean of z predicting the outcome (a supervised head on z; the variational fair autoencoder models y through z2 instead); 0 trains the representation without labels (the head then learns nothing useful).',
    },
    epochs: { type: 'integer', minimum: 1, default: 20, description: 'Passes over the training rows.' },
    batchSize: {
      type: 'integer',
      minimum: 2,
      default: 128,
      description: 'Rows per gradient step (the MMD is estimated within each batch).',
    },
    learningRate: { type: 'number', exclusiveMinimum: 0, default: 0.001, description: 'Adam step size.' },
    seed: seedOption('Seed of the initial weights, the batch order and the reparameterisation noise.'),
  },
  additionalProperties: false,
} satisfies OptionsSchema;

export interface MmdVaeTraining {
  readonly epochs: number;
  /** Mean per epoch of each loss term. */
  readonly reconstruction: readonly number[];
  readonly kl: readonly number[];
  readonly mmd: readonly number[];
  readonly classifier: readonly number[];
}

interface Net {
  encHidden: Dense;
  encMean: Dense;
  encLogVar: Dense;
  decHidden: Dense;
  decOut: Dense;
  head: Dense;
}

/**
 * Squared maximum mean discrepancy (biased estimate, Gaussian kernel exp(-|a - b|^2 / (2 latentDim)))
 * between each group's rows of z and the other rows, averaged over the groups present with both sides
 * non-empty. `members` is the m x k one-hot group matrix.
 */
function groupMmd(tf: Tf, z: Tensor, members: Tensor, latentDim: number): Tensor {
  const z2 = z as ReturnType<Tf['tensor2d']>;
  const sq = tf.sum(tf.square(z2), 1, true);
  const dist = tf.add(tf.sub(sq, tf.mul(2, tf.matMul(z2, z2, false, true))), tf.transpose(sq));
  const kernel = tf.exp(tf.div(tf.neg(tf.relu(dist)), 2 * latentDim)) as ReturnType<Tf['tensor2d']>;
  const a = members as ReturnType<Tf['tensor2d']>;
  const b = tf.sub(1, a) as ReturnType<Tf['tensor2d']>;
  const na = tf.sum(a, 0);
  const nb = tf.sum(b, 0);
  const ka = tf.matMul(kernel, a);
  const kb = tf.matMul(kernel, b);
  const aa = tf.div(tf.sum(tf.mul(a, ka), 0), tf.square(tf.maximum(na, 1)));
  const bb = tf.div(tf.sum(tf.mul(b, kb), 0), tf.square(tf.maximum(nb, 1)));
  const ab = tf.div(tf.sum(tf.mul(a, kb), 0), tf.mul(tf.maximum(na, 1), tf.maximum(nb, 1)));
  const valid = tf.mul(tf.cast(tf.greater(na, 0), 'float32'), tf.cast(tf.greater(nb, 0), 'float32'));
  const per = tf.mul(tf.sub(tf.add(aa, bb), tf.mul(2, ab)), valid);
  return tf.div(tf.sum(per), tf.maximum(tf.sum(valid), 1));
}

/**
 * An MMD-VAE: a fair representation learnt by a variational autoencoder with an MMD penalty between
 * groups (seed 002). It is not Louizos et al.'s variational fair autoencoder (ICLR 2016), which adds a
 * second latent layer z2 and the label y as a latent variable (semi-supervised); here one latent z, an
 * encoder q(z | x) and a decoder p(x | z, s) trained on
 * reconstruction + KL + lambda MMD(z of each group, z of the rest), with a logistic head on the posterior
 * mean of z predicting the outcome (the mean, as at prediction time). `encode` gives the posterior
 * means; as a `Classifier` it predicts with the head.
 */
export class MmdVae extends NetClassifier {
  readonly latentDim: number;
  readonly description: string;
  readonly training: MmdVaeTraining;
  private readonly net: Net;

  /** @internal Use `fitMmdVae`. */
  constructor(init: {
    tf: Tf;
    encoder: FeatureEncoder;
    net: Net;
    favorable: number;
    training: MmdVaeTraining;
    options: MmdVaeOptions;
  }) {
    super(init.tf, init.encoder, init.favorable, Object.values(init.net));
    this.net = init.net;
    this.training = init.training;
    this.latentDim = init.options.latentDim;
    this.description = `mmd-vae(z=${init.options.latentDim},lambda=${init.options.mmdWeight})`;
  }

  /** The posterior mean of z for a batch of encoded rows. */
  private mean(input: Tensor): Tensor {
    const { tf } = this;
    return apply(tf, this.net.encMean, tf.relu(apply(tf, this.net.encHidden, input)));
  }

  protected logit(input: Tensor): Tensor {
    return apply(this.tf, this.net.head, this.mean(input));
  }

  /** Posterior means of z for n rows (n x latentDim, row-major). */
  encode(x: Float64Array): Float64Array {
    return Float64Array.from(this.forward(x, this.latentDim, (input) => this.mean(input)));
  }
}

/** Fit the MMD-penalised variational autoencoder and its outcome head (see `MmdVae`). */
export async function fitMmdVae(
  ds: Dataset,
  options: Partial<MmdVaeOptions> = {},
  run: { signal?: AbortSignal } = {},
): Promise<MmdVae> {
  const o = resolveOptions<MmdVaeOptions>(mmdVaeOptionsSchema, options);
  const { encoder, z, width, groups, k, favorable, tf, ctl } = await prepareNetTraining(
    ds,
    o.protectedAttributes,
    { seed: o.seed, ...run },
    { outcome: 'the fair representation’s outcome head', groups: 'the MMD penalty' },
  );
  const rng = Rng.create(o.seed).fork('fair-representation');
  const L = o.latentDim;
  const H = o.hiddenUnits;
  const net: Net = {
    encHidden: dense(tf, rng.fork('enc-hidden'), width, H),
    encMean: dense(tf, rng.fork('enc-mean'), H, L),
    encLogVar: dense(tf, rng.fork('enc-logvar'), H, L),
    decHidden: dense(tf, rng.fork('dec-hidden'), L + k, H),
    decOut: dense(tf, rng.fork('dec-out'), H, width),
    head: dense(tf, rng.fork('head'), L, 1),
  };
  const vars = Object.values(net).flatMap((l) => [l.w, l.b]);
  const optimizer = tf.train.adam(o.learningRate);
  const shuffle = rng.fork('shuffle');
  const noise = rng.fork('noise');
  const sums = {
    reconstruction: [] as number[],
    kl: [] as number[],
    mmd: [] as number[],
    classifier: [] as number[],
  };
  let epoch = 0;
  try {
    while (epoch < o.epochs) {
      epoch++;
      const acc = new Float64Array(4);
      for (const idx of epochBatches(shuffle, ds.n, o.batchSize)) {
        const m = idx.length;
        const eps = new Float32Array(m * L);
        for (let i = 0; i < eps.length; i++) eps[i] = noise.normal();
        const onehot = new Float32Array(m * k);
        for (let r = 0; r < m; r++) onehot[r * k + groups.codes[idx[r]!]!] = 1;
        const xb = tf.tensor2d(gatherRows(z, width, idx), [m, width]);
        const sb = tf.tensor2d(onehot, [m, k]);
        const eb = tf.tensor2d(eps, [m, L]);
        const yb = tf.tensor2d(
          Float32Array.from(idx, (i) => (ds.y[i] === favorable ? 1 : 0)),
          [m, 1],
        );
        let terms: Tensor[] = [];
        const cost = optimizer.minimize(
          () => {
            const h = tf.relu(apply(tf, net.encHidden, xb));
            const mean = apply(tf, net.encMean, h);
            const logVar = apply(tf, net.encLogVar, h);
            const zs = tf.add(mean, tf.mul(tf.exp(tf.mul(0.5, logVar)), eb));
            const recon = apply(tf, net.decOut, tf.relu(apply(tf, net.decHidden, tf.concat([zs, sb], 1))));
            const rec = tf.mean(tf.sum(tf.square(tf.sub(recon, xb)), 1));
            const kl = tf.mean(
              tf.mul(-0.5, tf.sum(tf.sub(tf.sub(tf.add(1, logVar), tf.square(mean)), tf.exp(logVar)), 1)),
            );
            const mmd = groupMmd(tf, zs, sb, L);
            const cls = tf.losses.sigmoidCrossEntropy(yb, apply(tf, net.head, mean));
            terms = [rec, kl, mmd, cls].map((t) => tf.keep(t));
            return tf.addN([
              rec,
              tf.mul(o.klWeight, kl),
              tf.mul(o.mmdWeight, mmd),
              tf.mul(o.classifierWeight, cls),
            ]) as ReturnType<Tf['scalar']>;
          },
          true,
          vars,
        )!;
        terms.forEach((t, j) => {
          acc[j]! += t.dataSync()[0]! * m;
        });
        if (!Number.isFinite(cost.dataSync()[0]!)) {
          throw new ModelError('MODEL_OUTPUT', `the loss diverged at epoch ${epoch}: lower learningRate`);
        }
        for (const t of [...terms, cost, xb, sb, eb, yb]) t.dispose();
      }
      sums.reconstruction.push(acc[0]! / ds.n);
      sums.kl.push(acc[1]! / ds.n);
      sums.mmd.push(acc[2]! / ds.n);
      sums.classifier.push(acc[3]! / ds.n);
      if (await ctl.checkpoint({ phase: 'epochs', done: epoch, total: o.epochs })) break;
    }
  } finally {
    optimizer.dispose();
  }
  return new MmdVae({
    tf,
    encoder,
    net,
    favorable,
    training: { epochs: epoch, ...sums },
    options: o,
  });
}

/** @deprecated The model is an MMD-VAE, not a variational fair autoencoder: use `MmdVae`. */
export const FairRepresentation = MmdVae;
/** @deprecated Use `MmdVae`. */
export type FairRepresentation = MmdVae;
/** @deprecated Use `fitMmdVae`. */
export const fitFairRepresentation = fitMmdVae;
/** @deprecated Use `MmdVaeOptions`. */
export type FairRepresentationOptions = MmdVaeOptions;
/** @deprecated Use `MmdVaeTraining`. */
export type FairRepresentationTraining = MmdVaeTraining;
/** @deprecated Use `mmdVaeOptionsSchema`. */
export const fairRepresentationOptionsSchema = mmdVaeOptionsSchema;
