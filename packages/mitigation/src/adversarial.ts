import { type Dataset, ModelError, type OptionsSchema, Rng, resolveOptions } from '@fb/core';
import type { FeatureEncoder } from '@fb/models';
import { NetClassifier, prepareNetTraining } from './net-classifier.js';
import { protectedAttributesOption, seedOption } from './option-fields.js';
import {
  apply,
  type Dense,
  dense,
  epochBatches,
  gatherRows,
  type Tensor,
  type Tf,
  type Variable,
} from './tf-nets.js';

export interface AdversarialOptions {
  target: 'demographic_parity' | 'equalized_odds';
  protectedAttributes: string[] | null;
  adversaryWeight: number;
  projection: boolean;
  hiddenUnits: number;
  epochs: number;
  batchSize: number;
  learningRate: number;
  adversaryLearningRate: number;
  seed: number | string;
}

export const adversarialOptionsSchema = {
  type: 'object',
  properties: {
    target: {
      type: 'string',
      enum: ['demographic_parity', 'equalized_odds'],
      default: 'demographic_parity',
      description:
        'demographic_parity: the adversary sees the prediction only; equalized_odds: the prediction and the true label (Zhang et al. 2018).',
    },
    protectedAttributes: protectedAttributesOption(
      'Attributes whose value combinations the adversary predicts (one softmax class per group); null: the protected attributes of the schema.',
    ),
    adversaryWeight: {
      type: 'number',
      minimum: 0,
      default: 0.1,
      description: 'alpha of the predictor update grad(L_P) - proj(grad L_P on grad L_A) - alpha grad(L_A).',
    },
    projection: {
      type: 'boolean',
      default: true,
      description:
        'Remove from the predictor gradient its component along the adversary gradient (the paper’s projection term).',
    },
    hiddenUnits: {
      type: 'integer',
      minimum: 1,
      default: 64,
      description: 'Units of the predictor’s hidden ReLU layer (seed 002).',
    },
    epochs: { type: 'integer', minimum: 1, default: 20, description: 'Passes over the training rows.' },
    batchSize: { type: 'integer', minimum: 1, default: 128, description: 'Rows per gradient step.' },
    learningRate: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 0.001,
      description: 'Adam step size of the predictor.',
    },
    adversaryLearningRate: {
      type: 'number',
      exclusiveMinimum: 0,
      default: 0.01,
      description:
        'Adam step size of the adversary, ten times the predictor’s by default so that it keeps up with it; at the predictor’s own rate (AIF360’s choice) the predictor overshot against a lagging adversary and the parity gap flipped sign in 3 of 6 seeds.',
    },
    seed: seedOption('Seed of the initial weights and the batch order.'),
  },
  additionalProperties: false,
} satisfies OptionsSchema;

/**
 * AIF360's `AdversarialDebiasing` defaults: its adversary reads [s, s·y, s·(1 − y)] whatever the goal
 * (this package's `target: 'equalized_odds'`), 200 hidden units, 50 epochs, batches of 128, α = 0.1 and
 * one Adam step size of 0.001 for both networks. Its dropout and learning-rate decay are not reproduced.
 */
export const adversarialPresets = {
  aif360: {
    target: 'equalized_odds',
    hiddenUnits: 200,
    epochs: 50,
    batchSize: 128,
    adversaryWeight: 0.1,
    learningRate: 0.001,
    adversaryLearningRate: 0.001,
  },
} as const satisfies Record<string, Partial<AdversarialOptions>>;

export interface AdversarialTraining {
  readonly epochs: number;
  /** Mean predictor and adversary cross-entropy per epoch. */
  readonly predictorLoss: readonly number[];
  readonly adversaryLoss: readonly number[];
}

/**
 * A binary classifier trained against an adversary (Zhang, Lemoine, Mitchell, AIES 2018): the
 * predictor (one hidden ReLU layer, a logit) minimises its cross-entropy while an adversary predicts the
 * protected group from the prediction (and, for equalized odds, the label); the predictor's gradient
 * loses its component along the adversary's and moves against it.
 */
export class AdversarialDebiasing extends NetClassifier {
  readonly description: string;
  readonly training: AdversarialTraining;
  private readonly layers: readonly Dense[];

  /** @internal Use `fitAdversarialDebiasing`. */
  constructor(init: {
    tf: Tf;
    encoder: FeatureEncoder;
    layers: readonly Dense[];
    favorable: number;
    training: AdversarialTraining;
    options: AdversarialOptions;
  }) {
    super(init.tf, init.encoder, init.favorable, init.layers);
    this.layers = init.layers;
    this.training = init.training;
    this.description = `adversarial-debiasing(${init.options.target},alpha=${init.options.adversaryWeight})`;
  }

  protected logit(input: Tensor): Tensor {
    return predictorLogit(this.tf, this.layers, input);
  }
}

function predictorLogit(tf: Tf, layers: readonly Dense[], x: Tensor): Tensor {
  return tf.reshape(apply(tf, layers[1]!, tf.relu(apply(tf, layers[0]!, x))), [-1]);
}

/** Mean softmax cross-entropy of integer classes. */
function crossEntropy(tf: Tf, logits: Tensor, classes: Tensor, k: number): Tensor {
  const onehot = tf.oneHot(classes as ReturnType<Tf['tensor1d']>, k);
  return tf.neg(tf.mean(tf.sum(tf.mul(onehot, tf.logSoftmax(logits)), 1)));
}

/** Fit a predictor against an adversary on a binary outcome (see `AdversarialDebiasing`). */
export async function fitAdversarialDebiasing(
  ds: Dataset,
  options: Partial<AdversarialOptions> = {},
  run: { signal?: AbortSignal } = {},
): Promise<AdversarialDebiasing> {
  const o = resolveOptions<AdversarialOptions>(adversarialOptionsSchema, options);
  const { encoder, z, width, groups, k, favorable, tf, ctl } = await prepareNetTraining(
    ds,
    o.protectedAttributes,
    { seed: o.seed, ...run },
    { outcome: 'adversarial debiasing', groups: 'the adversary' },
  );
  const yFav = Float32Array.from(ds.y, (v) => (v === favorable ? 1 : 0));
  const rng = Rng.create(o.seed).fork('adversarial');
  const layers = [
    dense(tf, rng.fork('hidden'), width, o.hiddenUnits),
    dense(tf, rng.fork('output'), o.hiddenUnits, 1),
  ];
  const advIn = o.target === 'equalized_odds' ? 3 : 1;
  const adversary = dense(tf, rng.fork('adversary'), advIn, k);
  // Zhang et al.'s adversary reads s = sigmoid((1 + |c|) logit), with c learnt.
  const c = tf.variable(tf.scalar(1));
  const predVars = layers.flatMap((l) => [l.w, l.b]);
  const advVars: Variable[] = [adversary.w, adversary.b, c];
  const predOpt = tf.train.adam(o.learningRate);
  const advOpt = tf.train.adam(o.adversaryLearningRate);
  const shuffle = rng.fork('shuffle');
  const predictorLoss: number[] = [];
  const adversaryLoss: number[] = [];
  let epoch = 0;
  try {
    while (epoch < o.epochs) {
      epoch++;
      let sumP = 0;
      let sumA = 0;
      for (const idx of epochBatches(shuffle, ds.n, o.batchSize)) {
        const m = idx.length;
        const xb = tf.tensor2d(gatherRows(z, width, idx), [m, width]);
        const yb = tf.tensor1d(Float32Array.from(idx, (i) => yFav[i]!));
        const gb = tf.tensor1d(
          Int32Array.from(idx, (i) => groups.codes[i]!),
          'int32',
        );
        const lossP = () => tf.losses.sigmoidCrossEntropy(yb, predictorLogit(tf, layers, xb));
        const lossA = () => {
          const s = tf.sigmoid(tf.mul(tf.add(1, tf.abs(c)), predictorLogit(tf, layers, xb)));
          const input =
            o.target === 'equalized_odds'
              ? tf.stack([s, tf.mul(s, yb), tf.mul(s, tf.sub(1, yb))], 1)
              : tf.reshape(s, [-1, 1]);
          return crossEntropy(tf, apply(tf, adversary, input), gb, k);
        };
        const step = tf.tidy(() => {
          const p = tf.variableGrads(lossP as () => ReturnType<Tf['scalar']>, predVars);
          const a = tf.variableGrads(lossA as () => ReturnType<Tf['scalar']>, predVars);
          const update: Record<string, Tensor> = {};
          for (const v of predVars) {
            const gp = p.grads[v.name]!;
            const ga = a.grads[v.name]!;
            let g = gp;
            if (o.projection) {
              const unit = tf.div(ga, tf.add(tf.norm(ga), 1e-8));
              g = tf.sub(g, tf.mul(tf.sum(tf.mul(g, unit)), unit));
            }
            update[v.name] = tf.sub(g, tf.mul(o.adversaryWeight, ga));
          }
          predOpt.applyGradients(update as Parameters<typeof predOpt.applyGradients>[0]);
          return [p.value, a.value];
        });
        const advCost = advOpt.minimize(lossA as () => ReturnType<Tf['scalar']>, true, advVars)!;
        sumP += step[0]!.dataSync()[0]! * m;
        sumA += step[1]!.dataSync()[0]! * m;
        for (const t of [...step, advCost, xb, yb, gb]) t.dispose();
      }
      predictorLoss.push(sumP / ds.n);
      adversaryLoss.push(sumA / ds.n);
      if (!Number.isFinite(sumP))
        throw new ModelError(
          'MODEL_OUTPUT',
          `the predictor loss diverged at epoch ${epoch}: lower learningRate`,
        );
      if (await ctl.checkpoint({ phase: 'epochs', done: epoch, total: o.epochs })) break;
    }
  } finally {
    predOpt.dispose();
    advOpt.dispose();
    for (const v of advVars) v.dispose();
  }
  return new AdversarialDebiasing({
    tf,
    encoder,
    layers,
    favorable,
    training: { epochs: epoch, predictorLoss, adversaryLoss },
    options: o,
  });
}
