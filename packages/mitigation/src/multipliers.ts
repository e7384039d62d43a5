import {
  type Classifier,
  DataError,
  type Dataset,
  ModelError,
  OptionsError,
  type OptionsSchema,
  RunController,
  resolveOptions,
  type Schema,
  subsetRows,
} from '@fb/core';
import { GROUP_METRICS, type GroupMetric, groupDisparity, type Subgroups, subgroupsOf } from '@fb/metrics';
import { accuracyScore, balancedAccuracyScore, f1Score, logLossScore, rocAucScore } from '@fb/models';
import { protectedAttributesOption, seedOption } from './option-fields.js';
import {
  type ConstraintTarget,
  type ConstraintType,
  paretoFront,
  type Selection,
  selectFromFront,
  type TradeoffPoint,
} from './pareto.js';
import { groupsOfRows } from './row-groups.js';
import { tradeoffSvg } from './tradeoff-svg.js';

export type AccuracyMetric = 'accuracy' | 'balanced_accuracy' | 'f1' | 'roc_auc' | 'neg_log_loss';

export interface BiasMitigatorOptions {
  protectedAttributes: string[] | null;
  fairnessMetric: GroupMetric;
  distanceMeasure: 'diff' | 'ratio';
  reduction: 'mean' | 'max';
  accuracyMetric: AccuracyMetric;
  constraintTarget: ConstraintTarget;
  constraintType: ConstraintType;
  constraintValue: number;
  nTrialsPerGroup: number;
  timeLimit: number | null;
  subsampling: number | null;
  regularizationFactor: number;
  maxMultiplier: number;
  seed: number | string;
}

export const biasMitigatorOptionsSchema = {
  type: 'object',
  properties: {
    protectedAttributes: protectedAttributesOption(
      'Attributes whose value combinations form the groups that get their own multiplier; null: the protected attributes of the schema.',
    ),
    fairnessMetric: {
      type: 'string',
      enum: [...GROUP_METRICS],
      default: 'statistical_parity',
      description: 'The @fb/metrics disparity to mitigate (lower is fairer).',
    },
    distanceMeasure: {
      type: 'string',
      enum: ['diff', 'ratio'],
      default: 'diff',
      description: 'Subgroup-versus-rest distance of the fairness metric (ratio is inverted to be >= 1).',
    },
    reduction: {
      type: 'string',
      enum: ['mean', 'max'],
      default: 'mean',
      description: 'Reduction of the fairness metric over subgroups.',
    },
    accuracyMetric: {
      type: 'string',
      enum: ['accuracy', 'balanced_accuracy', 'f1', 'roc_auc', 'neg_log_loss'],
      default: 'accuracy',
      description:
        'The accuracy metric (higher is better); roc_auc and neg_log_loss use the tweaked probabilities, the others the predictions.',
    },
    constraintTarget: {
      type: 'string',
      enum: ['accuracy', 'fairness'],
      default: 'accuracy',
      description: 'Metric the default-model constraint applies to; the other metric is optimised within it.',
    },
    constraintType: {
      type: 'string',
      enum: ['relative', 'absolute'],
      default: 'relative',
      description:
        'relative: tolerate constraintValue relative deviation from the best front value; absolute: accuracy >= constraintValue or fairness <= constraintValue.',
    },
    constraintValue: {
      type: 'number',
      minimum: 0,
      default: 0.05,
      description: 'Value of the default-model constraint (see constraintType).',
    },
    nTrialsPerGroup: {
      type: 'integer',
      minimum: 1,
      default: 100,
      description: 'Trials per group: the search evaluates nTrialsPerGroup x groups multiplier vectors.',
    },
    timeLimit: {
      type: ['number', 'null'],
      exclusiveMinimum: 0,
      default: null,
      description:
        'Seconds of search at most (null: no limit); the first of this and the trial count ends it.',
    },
    subsampling: {
      type: ['integer', 'null'],
      minimum: 1,
      default: 50000,
      description: 'Rows the search runs on (a seeded random subset of larger data); null: every row.',
    },
    regularizationFactor: {
      type: 'number',
      minimum: 0,
      default: 0.001,
      description:
        'Weight of the mean |ln multiplier| penalty subtracted from the optimised metric when selecting the default model.',
    },
    maxMultiplier: {
      type: 'number',
      exclusiveMinimum: 1,
      default: 10,
      description: 'Multipliers are drawn log-uniformly from [1/maxMultiplier, maxMultiplier].',
    },
    seed: seedOption('Seed of the multiplier draws and the subsample.'),
  },
  additionalProperties: false,
} satisfies OptionsSchema;

/** One evaluated multiplier vector. */
export interface MultiplierTrial extends TradeoffPoint {
  /** Multiplier of the favourable-class probability per group key. */
  readonly multipliers: Readonly<Record<string, number>>;
}

/** A front model: its trial and whether it meets the default-selection constraint. */
export interface TradeoffEntry extends MultiplierTrial {
  readonly trial: number;
  readonly admissible: boolean;
}

/** Scale the favourable-class probability of each row by its group's multiplier and renormalise. */
function tweak(
  proba: Float64Array,
  K: number,
  favorable: number,
  codes: Int32Array,
  m: Float64Array,
  out: Float64Array,
  pred: Int32Array,
): void {
  const n = codes.length;
  for (let i = 0; i < n; i++) {
    const mult = m[codes[i]!]!;
    const base = i * K;
    let sum = 0;
    for (let k = 0; k < K; k++) sum += k === favorable ? proba[base + k]! * mult : proba[base + k]!;
    let arg = 0;
    for (let k = 0; k < K; k++) {
      const v = (k === favorable ? proba[base + k]! * mult : proba[base + k]!) / sum;
      out[base + k] = v;
      if (v > out[base + arg]!) arg = k;
    }
    pred[i] = arg;
  }
}

/**
 * Per-group probability multipliers searched for a fairness/accuracy trade-off (seed 004's
 * `ModelBiasMitigator`): every group's favourable-class probability is scaled by its own multiplier and
 * the probabilities renormalised; seeded random trials of multiplier vectors are scored on a
 * `@fb/metrics` disparity and an accuracy metric; the non-dominated trials form the front, from which a
 * default model is chosen by a relative or absolute constraint. Fit on validation data.
 */
export class ModelBiasMitigator implements Classifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly options: Readonly<BiasMitigatorOptions>;
  private readonly base: Classifier;
  private state: {
    schema: Schema;
    attributes: readonly string[];
    trials: MultiplierTrial[];
    front: TradeoffEntry[];
    selection: Selection;
    selected: number;
  } | null = null;

  constructor(model: Classifier, options: Partial<BiasMitigatorOptions> = {}) {
    this.options = Object.freeze(resolveOptions<BiasMitigatorOptions>(biasMitigatorOptionsSchema, options));
    if (typeof model?.predictProba !== 'function') {
      throw new ModelError(
        'MODEL_MISMATCH',
        'the probability-multiplier search needs a model with predictProba',
      );
    }
    this.base = model;
    this.nFeatures = model.nFeatures;
    this.nClasses = model.nClasses;
  }

  get description(): string {
    return `bias-mitigated(${this.base.description ?? 'model'})`;
  }

  private fitted() {
    if (!this.state) throw new ModelError('MODEL_MISSING', 'call fit(dataset) before using the mitigator');
    return this.state;
  }

  /** Every trial in search order; trial 0 is the unmitigated model (all multipliers 1). */
  get trials(): readonly MultiplierTrial[] {
    return this.fitted().trials;
  }

  /** The non-dominated models, fairest first; `selectModel(i)` indexes this list. */
  get tradeoff(): readonly TradeoffEntry[] {
    return this.fitted().front;
  }

  get selectedIndex(): number {
    return this.fitted().selected;
  }

  get selectedMultipliers(): Readonly<Record<string, number>> {
    const s = this.fitted();
    return s.front[s.selected]!.multipliers;
  }

  /** The default-selection constraint: metric, bound, and whether any front model met it. */
  get constraint(): { metric: ConstraintTarget; criterion: number; met: boolean } {
    const { selection } = this.fitted();
    return {
      metric: this.options.constraintTarget,
      criterion: selection.criterion,
      met: selection.admissible,
    };
  }

  /** Run the search on `ds` (preferably held-out data) and select the default model. */
  async fit(ds: Dataset, run: { signal?: AbortSignal } = {}): Promise<this> {
    const o = this.options;
    if (ds.d !== this.nFeatures) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `the model takes ${this.nFeatures} features, the dataset has ${ds.d}`,
      );
    }
    if (ds.n === 0) throw new DataError('DATA_EMPTY', 'the dataset has no rows');
    if (o.accuracyMetric === 'roc_auc' && this.nClasses !== 2) {
      throw new OptionsError('OPTIONS_INVALID', 'accuracyMetric roc_auc needs a binary model', {
        option: '/accuracyMetric',
      });
    }
    const ctl = new RunController({
      seed: o.seed,
      ...(o.timeLimit !== null ? { budget: { maxSeconds: o.timeLimit } } : {}),
      ...(run.signal ? { signal: run.signal } : {}),
    });
    const data =
      o.subsampling !== null && ds.n > o.subsampling
        ? subsetRows(ds, ctl.rng.fork('subsample').sampleIndices(ds.n, o.subsampling))
        : ds;
    const attributes = o.protectedAttributes ?? undefined;
    const groups = subgroupsOf(data, attributes);
    const K = this.nClasses;
    const favorable = ds.schema.outcome.favorable;
    const proba = this.base.predictProba!(data.x);
    if (proba.length !== data.n * K) {
      throw new ModelError('MODEL_OUTPUT', `predictProba returned ${proba.length} values for ${data.n} rows`);
    }
    const score = this.scorer(data, groups, proba, K, favorable);
    const k = groups.keys.length;
    const nTrials = o.nTrialsPerGroup * k;
    const draw = ctl.rng.fork('multipliers');
    const logMax = Math.log(o.maxMultiplier);
    const trials: MultiplierTrial[] = [];
    const m = new Float64Array(k);
    for (let t = 0; t < nTrials; t++) {
      if (t > 0 && (await ctl.checkpoint({ phase: 'trials', done: t, total: nTrials }))) break;
      let penalty = 0;
      for (let g = 0; g < k; g++) {
        m[g] = t === 0 ? 1 : Math.exp(draw.uniform(-logMax, logMax));
        penalty += Math.abs(Math.log(m[g]!)) / k;
      }
      const { fairness, accuracy } = score(m);
      trials.push({
        multipliers: Object.fromEntries(groups.keys.map((key, g) => [key, m[g]!])),
        fairness,
        accuracy,
        penalty,
      });
    }
    const frontIdx = paretoFront(trials);
    if (frontIdx.length === 0) {
      throw new DataError(
        'DATA_EMPTY_GROUP',
        `${o.fairnessMetric} is undefined for every trial on this data (e.g. a group without actual positives)`,
      );
    }
    const frontPoints = frontIdx.map((i) => trials[i]!);
    const selection = selectFromFront(frontPoints, {
      target: o.constraintTarget,
      type: o.constraintType,
      value: o.constraintValue,
      regularization: o.regularizationFactor,
    });
    const front = frontIdx.map((i, f) => ({
      ...trials[i]!,
      trial: i,
      admissible: selection.admissibleMask[f]!,
    }));
    this.state = {
      schema: ds.schema,
      attributes: groups.attributes,
      trials,
      front,
      selection,
      selected: selection.index,
    };
    return this;
  }

  private scorer(data: Dataset, groups: Subgroups, proba: Float64Array, K: number, favorable: number) {
    const o = this.options;
    const out = new Float64Array(proba.length);
    const pred = new Int32Array(data.n);
    const favCol = new Float64Array(data.n);
    return (m: Float64Array) => {
      tweak(proba, K, favorable, groups.codes, m, out, pred);
      const disparity = groupDisparity(
        o.fairnessMetric,
        { yTrue: data.y, yPred: pred, subgroups: groups, favorable },
        { distanceMeasure: o.distanceMeasure, reduction: o.reduction },
      ).value;
      let accuracy: number;
      switch (o.accuracyMetric) {
        case 'accuracy':
          accuracy = accuracyScore(data.y, pred);
          break;
        case 'balanced_accuracy':
          accuracy = balancedAccuracyScore(data.y, pred, K);
          break;
        case 'f1':
          accuracy = f1Score(data.y, pred, K, favorable);
          break;
        case 'roc_auc':
          for (let i = 0; i < data.n; i++) favCol[i] = out[i * K + favorable]!;
          accuracy = rocAucScore(data.y, favCol, favorable);
          break;
        default:
          accuracy = -logLossScore(data.y, out, K);
      }
      return { fairness: disparity ?? Number.POSITIVE_INFINITY, accuracy };
    };
  }

  /**
   * Use front model `index` for this mitigator's predictions from now on, and return it as a standalone
   * classifier. Rows of a group not seen in `fit` keep multiplier 1.
   */
  selectModel(index: number): Classifier {
    const s = this.fitted();
    if (!Number.isInteger(index) || index < 0 || index >= s.front.length) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `model index must be an integer in [0, ${s.front.length - 1}], got ${index}`,
        { option: '/modelIndex' },
      );
    }
    s.selected = index;
    return this.modelFor(s.front[index]!.multipliers);
  }

  private modelFor(multipliers: Readonly<Record<string, number>>): Classifier {
    const { schema, attributes } = this.fitted();
    const base = this.base;
    const K = this.nClasses;
    const favorable = schema.outcome.favorable;
    const apply = (x: Float64Array) => {
      const proba = base.predictProba!(x);
      const groups = groupsOfRows(schema, x, attributes);
      const m = Float64Array.from(groups.keys, (key) => multipliers[key] ?? 1);
      const out = new Float64Array(proba.length);
      const pred = new Int32Array(groups.codes.length);
      tweak(proba, K, favorable, groups.codes, m, out, pred);
      return { out, pred };
    };
    return {
      nFeatures: this.nFeatures,
      nClasses: K,
      description: `multipliers(${base.description ?? 'model'})`,
      predictProba: (x) => apply(x).out,
      predict: (x) => apply(x).pred,
    };
  }

  predict(x: Float64Array): Int32Array {
    return this.modelFor(this.selectedMultipliers).predict(x);
  }

  predictProba(x: Float64Array): Float64Array {
    return this.modelFor(this.selectedMultipliers).predictProba!(x);
  }

  /** The front as an SVG scatter plot (seed 004's `show_tradeoff`); hover a point for its index. */
  tradeoffSvg(options: { hideInadmissible?: boolean } = {}): string {
    const s = this.fitted();
    const o = this.options;
    return tradeoffSvg({
      trials: s.trials,
      front: s.front,
      admissible: s.front.map((e) => e.admissible),
      selected: s.selected,
      fairnessLabel: `${o.fairnessMetric} (${o.distanceMeasure}, ${o.reduction})`,
      accuracyLabel: o.accuracyMetric,
      hideInadmissible: options.hideInadmissible ?? false,
    });
  }
}
