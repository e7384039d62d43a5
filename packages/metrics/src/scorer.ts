import { type Classifier, type Dataset, ModelError } from '@fb/core';
import {
  type DisparityOptions,
  type DisparityResult,
  type GroupMetric,
  groupDisparity,
  reducedOrMap,
} from './disparity.js';
import { type Subgroups, subgroupsOf } from './groups.js';

type Value = number | null | Record<string, number | null>;

/**
 * A reusable scorer (seed 004's `*Scorer` classes): fixed metric, protected attributes, distance
 * measure and reduction; call `score(model, dataset)` on any model and dataset.
 */
export class FairnessScorer {
  readonly metric: GroupMetric;
  readonly protectedAttributes: readonly string[] | undefined;
  readonly options: DisparityOptions;

  /** `protectedAttributes` default: the dataset's protected attributes. */
  constructor(metric: GroupMetric, protectedAttributes?: readonly string[], options: DisparityOptions = {}) {
    this.metric = metric;
    this.protectedAttributes = protectedAttributes;
    this.options = options;
  }

  /** Full result: per-subgroup values, undefined subgroups with their reason, CIs if configured. */
  evaluate(model: Classifier, ds: Dataset): DisparityResult {
    if (model.nFeatures !== ds.d) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `model expects ${model.nFeatures} features, the dataset has ${ds.d}`,
      );
    }
    const yPred = model.predict(ds.x);
    return groupDisparity(
      this.metric,
      {
        yTrue: ds.y,
        yPred,
        subgroups: subgroupsOf(ds, this.protectedAttributes),
        favorable: ds.schema.outcome.favorable,
      },
      this.options,
    );
  }

  /** The value in seed 004's shape: a number for mean/max, a `{ subgroup: value }` map for reduction null. */
  score(model: Classifier, ds: Dataset): Value {
    return reducedOrMap(this.evaluate(model, ds));
  }
}

/** One-line form: `yTrue` may be null for statistical parity. */
function oneLiner(metric: GroupMetric) {
  return (
    yTrue: ArrayLike<number> | null,
    yPred: ArrayLike<number>,
    subgroups: Subgroups,
    options: DisparityOptions & { favorable?: number } = {},
  ): Value =>
    reducedOrMap(
      groupDisparity(
        metric,
        {
          yTrue,
          yPred,
          subgroups,
          ...(options.favorable !== undefined ? { favorable: options.favorable } : {}),
        },
        options,
      ),
    );
}

export const modelStatisticalParity = oneLiner('statistical_parity');
export const truePositiveRate = oneLiner('tpr');
export const falsePositiveRate = oneLiner('fpr');
export const falseNegativeRate = oneLiner('fnr');
export const falseOmissionRate = oneLiner('for');
export const falseDiscoveryRate = oneLiner('fdr');
export const errorRate = oneLiner('error_rate');
export const equalizedOdds = oneLiner('equalized_odds');
export const theilIndex = oneLiner('theil_index');

/** Statistical parity of the labels themselves (seed 004's dataset metric). */
export function datasetStatisticalParity(
  yTrue: ArrayLike<number>,
  subgroups: Subgroups,
  options: DisparityOptions & { favorable?: number } = {},
): Value {
  return modelStatisticalParity(null, yTrue, subgroups, options);
}
