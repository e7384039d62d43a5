import { type Classifier, DataError, type Dataset, ModelError, OptionsError } from '@fb/core';
import type { Subgroups } from '@fb/metrics';
import { groupsOfRows } from './row-groups.js';

export interface ThresholdOptions {
  /** `equalized_odds` (default): TPR and FPR gaps within epsilon; `equal_opportunity`: TPR gap only. */
  target?: 'equalized_odds' | 'equal_opportunity';
  /** Largest allowed gap between any two groups. Default 0.05 (seed 002). */
  epsilon?: number;
  /** Thresholds tried per group: linspace(0, 1, gridSize). Default 100 (seed 002). */
  gridSize?: number;
}

export interface ThresholdResult {
  /** Threshold per group key: predict favourable when P(favourable) >= threshold. */
  readonly thresholds: Readonly<Record<string, number>>;
  /** False when no combination meets the constraint: the thresholds are then the smallest-gap ones. */
  readonly feasible: boolean;
  readonly accuracy: number;
  /** Largest TPR and FPR gaps between groups at the chosen thresholds. */
  readonly tprGap: number;
  readonly fprGap: number;
}

/** Largest number of threshold combinations searched exhaustively. */
export const MAX_COMBINATIONS = 5_000_000;

/**
 * Group-specific thresholds maximising accuracy subject to |TPR_a - TPR_b| <= epsilon (and the same
 * for FPR under equalized odds) for every pair of groups (seed 002; Hardt et al. 2016 without
 * randomisation): an exhaustive search of the per-group grid, on per-group counts precomputed once.
 */
export function optimizeThresholds(
  scores: ArrayLike<number>,
  yTrue: ArrayLike<number>,
  groups: Subgroups,
  options: ThresholdOptions & { favorable?: number } = {},
): ThresholdResult {
  const target = options.target ?? 'equalized_odds';
  const epsilon = options.epsilon ?? 0.05;
  const gridSize = options.gridSize ?? 100;
  const favorable = options.favorable ?? 1;
  if (target !== 'equalized_odds' && target !== 'equal_opportunity') {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `target must be equalized_odds or equal_opportunity, got ${String(target)}`,
      { option: '/target' },
    );
  }
  if (!(epsilon >= 0))
    throw new OptionsError('OPTIONS_INVALID', `epsilon must be >= 0, got ${epsilon}`, { option: '/epsilon' });
  if (!Number.isInteger(gridSize) || gridSize < 2)
    throw new OptionsError('OPTIONS_INVALID', `gridSize must be an integer >= 2, got ${gridSize}`, {
      option: '/gridSize',
    });
  const n = scores.length;
  if (yTrue.length !== n || groups.codes.length !== n)
    throw new DataError('DATA_SHAPE', 'scores, yTrue and groups must cover the same rows');
  const k = groups.keys.length;
  if (gridSize ** k > MAX_COMBINATIONS) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `${k} groups x ${gridSize} thresholds is ${gridSize}^${k} combinations (limit ${MAX_COMBINATIONS}): lower gridSize`,
      { option: '/gridSize' },
    );
  }
  const grid = Float64Array.from({ length: gridSize }, (_, i) => i / (gridSize - 1));
  // Per group and threshold: TPR, FPR and correctly classified rows.
  const tpr = new Float64Array(k * gridSize);
  const fpr = new Float64Array(k * gridSize);
  const correct = new Float64Array(k * gridSize);
  const pos = new Float64Array(k);
  for (let i = 0; i < n; i++) if (yTrue[i] === favorable) pos[groups.codes[i]!]!++;
  for (let t = 0; t < gridSize; t++) {
    const tp = new Float64Array(k);
    const fp = new Float64Array(k);
    const tn = new Float64Array(k);
    for (let i = 0; i < n; i++) {
      const g = groups.codes[i]!;
      const predPos = scores[i]! >= grid[t]!;
      const actual = yTrue[i] === favorable;
      if (predPos && actual) tp[g]!++;
      else if (predPos) fp[g]!++;
      else if (!actual) tn[g]!++;
    }
    for (let g = 0; g < k; g++) {
      const neg = groups.sizes[g]! - pos[g]!;
      // A group without positives (negatives) places no constraint on TPR (FPR).
      tpr[g * gridSize + t] = pos[g]! > 0 ? tp[g]! / pos[g]! : Number.NaN;
      fpr[g * gridSize + t] = neg > 0 ? fp[g]! / neg : Number.NaN;
      correct[g * gridSize + t] = tp[g]! + tn[g]!;
    }
  }
  const spread = (rates: Float64Array, idx: Int32Array): number => {
    let lo = Infinity;
    let hi = -Infinity;
    for (let g = 0; g < k; g++) {
      const v = rates[g * gridSize + idx[g]!]!;
      if (Number.isNaN(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    return hi >= lo ? hi - lo : 0;
  };
  const idx = new Int32Array(k);
  let best: { acc: number; gap: number; idx: Int32Array; feasible: boolean } | null = null;
  for (;;) {
    const tGap = spread(tpr, idx);
    const fGap = target === 'equalized_odds' ? spread(fpr, idx) : 0;
    const gap = Math.max(tGap, fGap);
    const feasible = gap <= epsilon + 1e-12;
    let acc = 0;
    for (let g = 0; g < k; g++) acc += correct[g * gridSize + idx[g]!]!;
    acc /= n;
    if (
      !best ||
      (feasible && (!best.feasible || acc > best.acc)) ||
      (!feasible && !best.feasible && (gap < best.gap || (gap === best.gap && acc > best.acc)))
    ) {
      best = { acc, gap, idx: idx.slice(), feasible };
    }
    let g = 0;
    while (g < k && ++idx[g]! === gridSize) idx[g++] = 0;
    if (g === k) break;
  }
  const chosen = best!;
  return {
    thresholds: Object.fromEntries(groups.keys.map((key, g) => [key, grid[chosen.idx[g]!]!])),
    feasible: chosen.feasible,
    accuracy: chosen.acc,
    tprGap: spread(tpr, chosen.idx),
    fprGap: spread(fpr, chosen.idx),
  };
}

/**
 * A classifier that applies group-specific thresholds to a model's P(favourable); the group of a row
 * is read from its protected attribute values, as in `subgroupsOf`. Rows of an unseen group fall back
 * to `defaultThreshold` (0.5).
 */
export function withGroupThresholds(
  model: Classifier,
  ds: Dataset,
  thresholds: Readonly<Record<string, number>>,
  options: { protectedAttributes?: readonly string[]; defaultThreshold?: number } = {},
): Classifier {
  const predictProba = model.predictProba?.bind(model);
  if (!predictProba || model.nClasses !== 2) {
    throw new ModelError('MODEL_MISMATCH', 'group thresholds need a binary model with predictProba');
  }
  const favorable = ds.schema.outcome.favorable;
  const fallback = options.defaultThreshold ?? 0.5;
  return {
    nFeatures: model.nFeatures,
    nClasses: 2,
    description: `group-thresholds(${model.description ?? 'model'})`,
    predict(x: Float64Array): Int32Array {
      const rows = x.length / ds.d;
      const proba = predictProba(x);
      const groups = groupsOfRows(ds.schema, x, options.protectedAttributes);
      const out = new Int32Array(rows);
      for (let i = 0; i < rows; i++) {
        const t = thresholds[groups.keys[groups.codes[i]!]!] ?? fallback;
        out[i] = proba[i * 2 + favorable]! >= t ? favorable : 1 - favorable;
      }
      return out;
    },
    predictProba,
  };
}
