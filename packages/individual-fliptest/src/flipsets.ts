import type { Dataset } from '@fb/core';
import type { StandardFeatures } from './features.js';

/**
 * FlipTest's flipsets from the model's decisions h(x) on the source sample and h(G(x)) on the
 * counterparts: F+ holds the members decided favourably whose counterpart is not (advantaged by their
 * group), F- the members decided unfavourably whose counterpart is decided favourably. Returns indices
 * into the sample.
 */
export function flipsets(
  sampleLabels: Int32Array,
  counterpartLabels: Int32Array,
  favorable: number,
): { positive: Int32Array; negative: Int32Array } {
  const positive: number[] = [];
  const negative: number[] = [];
  sampleLabels.forEach((h, i) => {
    const g = counterpartLabels[i]!;
    if (h === favorable && g !== favorable) positive.push(i);
    else if (h !== favorable && g === favorable) negative.push(i);
  });
  return { positive: Int32Array.from(positive), negative: Int32Array.from(negative) };
}

/** How one feature changes from members of a flipset to their counterparts. */
export interface FeatureChange {
  attribute: string;
  /** Mean of x - G(x) in the attribute's units; for a categorical attribute, the share of members whose category changes. */
  meanChange: number;
  /** meanChange divided by the feature's standard deviation (the share itself for a categorical attribute). */
  standardizedMeanChange: number;
  /** Mean of sign(x - G(x)): +1 or -1 when every member changes the same way; null for a categorical attribute. */
  meanSign: number | null;
}

export interface TransparencyReport {
  size: number;
  /** Features by decreasing |standardizedMeanChange|. */
  byMeanChange: FeatureChange[];
  /** Non-categorical features by decreasing |meanSign|. */
  bySign: FeatureChange[];
}

/**
 * The transparency report of a flipset: per feature, the mean change and the mean sign of the change
 * from each member x to its counterpart G(x), ranked.
 */
export function transparencyReport(
  dataset: Dataset,
  sampleRows: Int32Array,
  counterparts: Float64Array,
  members: Int32Array,
  features: StandardFeatures,
): TransparencyReport {
  const { d, x, schema } = dataset;
  const changes: FeatureChange[] = Array.from(features.columns, (j, k) => {
    const a = schema.attributes[j]!;
    let sum = 0;
    let signs = 0;
    for (const i of members) {
      const delta = x[sampleRows[i]! * d + j]! - counterparts[i * d + j]!;
      if (a.categories) sum += delta !== 0 ? 1 : 0;
      else {
        sum += delta;
        signs += Math.sign(delta);
      }
    }
    const size = Math.max(members.length, 1);
    const meanChange = sum / size;
    return {
      attribute: a.name,
      meanChange,
      standardizedMeanChange: a.categories ? meanChange : meanChange / features.scale[k]!,
      meanSign: a.categories ? null : signs / size,
    };
  });
  const byMeanChange = [...changes].sort(
    (p, q) => Math.abs(q.standardizedMeanChange) - Math.abs(p.standardizedMeanChange),
  );
  const bySign = changes
    .filter((c) => c.meanSign !== null)
    .sort((p, q) => Math.abs(q.meanSign!) - Math.abs(p.meanSign!));
  return { size: members.length, byMeanChange, bySign };
}
