import {
  type Classifier,
  createDataset,
  DataError,
  type Dataset,
  type DiscoveryResult,
  DomainSampler,
  ModelError,
  OptionsError,
  type OptionsSchema,
  Rng,
  RowIndex,
  resolveOptions,
  type VariantMode,
  variantModeOption,
} from '@fb/core';
import { equalizedOdds, modelStatisticalParity, subgroupsOf } from '@fb/metrics';
import { accuracyScore } from '@fb/models';
import { type DiscriminationRate, discriminationRate } from './discrimination-rate.js';
import { seedOption } from './option-fields.js';
import { protectedVariants } from './variants.js';

export interface RetrainOptions {
  labelRule: 'majority' | 'sample';
  share: number;
  shareOf: 'discovered' | 'training';
  variantMode: VariantMode;
  freshSamples: number;
  seed: number | string;
}

export const retrainOptionsSchema = {
  type: 'object',
  properties: {
    labelRule: {
      type: 'string',
      enum: ['majority', 'sample'],
      default: 'majority',
      description:
        "Label given to an instance and all its protected variants: the audited model's majority vote over them (ties: its label of the discovered sample), or its label of the discovered sample.",
    },
    share: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0.05,
      description: 'Share of instances added to the training set (ADF and LIMI retrain with 5 %).',
    },
    shareOf: {
      type: 'string',
      enum: ['discovered', 'training'],
      default: 'discovered',
      description:
        'discovered: share x the distinct discovered samples (ADF, LIMI); training: share x the training rows (AEQUITAS adds 2^i % of |train|), capped at the discovered samples.',
    },
    variantMode: variantModeOption(
      'Protected variants added per instance, and the variants of the counterfactual re-check.',
    ),
    freshSamples: {
      type: 'integer',
      minimum: 0,
      default: 10000,
      description:
        'Uniform random inputs of the domain re-checked before and after (the AEQUITAS estimate: 100 x 100 inputs).',
    },
    seed: seedOption('Seed of the instance selection and the fresh inputs.'),
  },
  additionalProperties: false,
} satisfies OptionsSchema;

export interface RetrainInput {
  /** Trains a model on a dataset, e.g. `(ds) => fitLogisticRegression(ds)` or `fitMlp`. */
  readonly fit: (dataset: Dataset) => Promise<Classifier> | Classifier;
  readonly training: Dataset;
  /** Result of an individual discovery method (ADF, AEQUITAS, LIMI, ...) run on `model`. */
  readonly discovery: Pick<DiscoveryResult, 'findings'>;
  /** The audited model; default: `fit(training)`. */
  readonly model?: Classifier;
  /** Rows for group metrics and accuracy; default: the training set. */
  readonly evaluation?: Dataset;
}

/** Fairness and accuracy of one model. */
export interface ModelReport {
  /** The discovered samples re-checked. */
  readonly retested: DiscriminationRate;
  /** Fresh uniform inputs of the domain (the same for both models). */
  readonly fresh: DiscriminationRate;
  /** @fb/metrics statistical parity and equalized odds (diff, mean over groups) on the evaluation rows. */
  readonly statisticalParity: number | null;
  readonly equalizedOdds: number | null;
  readonly accuracy: number;
}

export interface RetrainResult {
  readonly model: Classifier;
  readonly augmented: Dataset;
  /** Instances added (each with its protected variants), rows added, and rows labelled favourable. */
  readonly added: { readonly instances: number; readonly rows: number; readonly favourable: number };
  readonly before: ModelReport;
  readonly after: ModelReport;
}

function distinctSamples(discovery: Pick<DiscoveryResult, 'findings'>, d: number): Float64Array {
  const findings = discovery?.findings;
  if (findings?.kind !== 'individual') {
    throw new OptionsError(
      'OPTIONS_INVALID',
      'retraining needs the result of an individual discovery method',
      {
        option: '/discovery',
      },
    );
  }
  const index = new RowIndex(d);
  for (const pair of findings.pairs) {
    if (pair.sample.length !== d) {
      throw new DataError(
        'DATA_SHAPE',
        `pair ${pair.caseId}: sample has ${pair.sample.length} values, expected ${d}`,
      );
    }
    index.getOrAdd(pair.sample);
  }
  if (index.size === 0) throw new DataError('DATA_EMPTY', 'the discovery result has no discriminatory pairs');
  const out = new Float64Array(index.size * d);
  for (let i = 0; i < index.size; i++) index.row(i, out.subarray(i * d, (i + 1) * d));
  return out;
}

function report(
  model: Classifier,
  evaluation: Dataset,
  retest: Float64Array,
  fresh: Float64Array,
  mode: VariantMode,
): ModelReport {
  const { schema } = evaluation;
  const groups = subgroupsOf(evaluation);
  const pred = model.predict(evaluation.x);
  const favorable = schema.outcome.favorable;
  return {
    retested: discriminationRate(schema, model, retest, mode),
    fresh: discriminationRate(schema, model, fresh, mode),
    statisticalParity: modelStatisticalParity(null, pred, groups, { favorable }) as number | null,
    equalizedOdds: equalizedOdds(evaluation.y, pred, groups, { favorable }) as number | null,
    accuracy: accuracyScore(evaluation.y, pred),
  };
}

/**
 * Retraining with discovered discriminatory instances, as the ADF, AEQUITAS and LIMI papers evaluate
 * their generators: a share of the distinct discovered samples is drawn; each, with all its protected
 * variants, gets one label (`labelRule`) so that the added rows teach the model that the protected
 * values do not matter; the model is refitted on the augmented training set, and both models are
 * measured on the individual-discrimination rate of the discovered samples and of fresh random inputs,
 * and on group metrics and accuracy.
 */
export async function retrainWithDiscrimination(
  input: RetrainInput,
  options: Partial<RetrainOptions> = {},
): Promise<RetrainResult> {
  const o = resolveOptions<RetrainOptions>(retrainOptionsSchema, options);
  const { training } = input;
  if (typeof input.fit !== 'function')
    throw new ModelError('MODEL_MISSING', 'retraining needs a fit(dataset) function');
  const { schema, d } = training;
  const evaluation = input.evaluation ?? training;
  if (evaluation.d !== d)
    throw new DataError('DATA_SHAPE', `evaluation rows have ${evaluation.d} values, expected ${d}`);
  const samples = distinctSamples(input.discovery, d);
  const nSamples = samples.length / d;
  const original = input.model ?? (await input.fit(training));
  if (original.nFeatures !== d) {
    throw new ModelError(
      'MODEL_MISMATCH',
      `the model takes ${original.nFeatures} features, the data has ${d}`,
    );
  }
  const rng = Rng.create(o.seed);
  const wanted = Math.round(o.share * (o.shareOf === 'discovered' ? nSamples : training.n));
  const count = o.share > 0 ? Math.min(nSamples, Math.max(1, wanted)) : 0;
  const chosen = rng.fork('select').sampleIndices(nSamples, count);
  const picked = new Float64Array(count * d);
  chosen.forEach((s, r) => {
    picked.set(samples.subarray(s * d, s * d + d), r * d);
  });
  const { x: blocks, block } = protectedVariants(schema, picked, o.variantMode);
  const votes = original.predict(blocks);
  const K = schema.outcome.labels.length;
  const tally = new Int32Array(K);
  const addedY = new Int32Array(count * block);
  let favourable = 0;
  for (let r = 0; r < count; r++) {
    const own = votes[r * block]!;
    let label = own;
    if (o.labelRule === 'majority') {
      tally.fill(0);
      for (let v = 0; v < block; v++) tally[votes[r * block + v]!]!++;
      for (let k = 0; k < K; k++) if (tally[k]! > tally[label]!) label = k;
    }
    addedY.fill(label, r * block, (r + 1) * block);
    if (label === schema.outcome.favorable) favourable += block;
  }
  const x = new Float64Array((training.n + count * block) * d);
  x.set(training.x);
  x.set(blocks, training.n * d);
  const y = new Int32Array(training.n + count * block);
  y.set(training.y);
  y.set(addedY, training.n);
  // createDataset checks the added rows against the schema (a sample outside the domain is refused).
  const augmented = createDataset({
    schema,
    x,
    y,
    ...(training.name ? { name: `${training.name}+discriminatory` } : {}),
  });
  const retrained = await input.fit(augmented);
  const fresh = new Float64Array(o.freshSamples * d);
  new DomainSampler(schema).fill(rng.fork('fresh'), fresh);
  return {
    model: retrained,
    augmented,
    added: { instances: count, rows: count * block, favourable },
    before: report(original, evaluation, samples, fresh, o.variantMode),
    after: report(retrained, evaluation, samples, fresh, o.variantMode),
  };
}
