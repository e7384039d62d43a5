import { DataError } from '@fb/core';

/** One evaluated candidate: its fairness (a disparity, lower is better) and accuracy (higher is better). */
export interface TradeoffPoint {
  readonly fairness: number;
  readonly accuracy: number;
  /** Regularisation penalty of the candidate (mean |ln multiplier|); breaks ties towards small changes. */
  readonly penalty: number;
}

export type ConstraintTarget = 'accuracy' | 'fairness';
export type ConstraintType = 'relative' | 'absolute';

export interface SelectionRule {
  /** Metric the constraint applies to; the best model on the other metric within it is chosen. */
  readonly target: ConstraintTarget;
  /**
   * `relative`: within `value` relative deviation of the best front value (accuracy >= best (1 - value),
   * fairness <= best (1 + value)); `absolute`: accuracy >= value, or fairness <= value.
   */
  readonly type: ConstraintType;
  readonly value: number;
  /** Weight of the penalty subtracted from the unconstrained metric when choosing. */
  readonly regularization: number;
}

export interface Selection {
  readonly index: number;
  /** False when no front model meets the constraint: the one best on the constrained metric is chosen. */
  readonly admissible: boolean;
  /** The bound the constrained metric is held to. */
  readonly criterion: number;
  /** Per front model: whether it meets the constraint. */
  readonly admissibleMask: readonly boolean[];
}

/**
 * Indices of the non-dominated points (no other point is at least as fair and at least as accurate and
 * strictly better on one), ordered by fairness from best to worst (hence accuracy from worst to best).
 * Of identical points the one with the smallest penalty is kept. Points with a non-finite fairness or
 * accuracy are left out.
 */
export function paretoFront(points: readonly TradeoffPoint[]): number[] {
  const order = points
    .map((_, i) => i)
    .filter((i) => Number.isFinite(points[i]!.fairness) && Number.isFinite(points[i]!.accuracy))
    .sort((a, b) => {
      const pa = points[a]!;
      const pb = points[b]!;
      return pa.fairness - pb.fairness || pb.accuracy - pa.accuracy || pa.penalty - pb.penalty || a - b;
    });
  const front: number[] = [];
  let best = Number.NEGATIVE_INFINITY;
  for (const i of order) {
    if (points[i]!.accuracy > best) {
      front.push(i);
      best = points[i]!.accuracy;
    }
  }
  return front;
}

/**
 * The default model of a front (seed 004's constraint rule): among the models meeting the constraint on
 * `rule.target`, the best on the other metric, less `regularization` times its penalty.
 */
export function selectFromFront(front: readonly TradeoffPoint[], rule: SelectionRule): Selection {
  if (front.length === 0) throw new DataError('DATA_EMPTY', 'the trade-off front is empty');
  const onAccuracy = rule.target === 'accuracy';
  let criterion: number;
  if (rule.type === 'absolute') criterion = rule.value;
  else if (onAccuracy) {
    const best = Math.max(...front.map((p) => p.accuracy));
    criterion = best - rule.value * Math.abs(best);
  } else {
    const best = Math.min(...front.map((p) => p.fairness));
    criterion = best + rule.value * Math.abs(best);
  }
  const tol = 1e-12;
  const admissibleMask = front.map((p) =>
    onAccuracy ? p.accuracy >= criterion - tol : p.fairness <= criterion + tol,
  );
  let index = -1;
  let bestScore = Number.POSITIVE_INFINITY;
  front.forEach((p, i) => {
    if (!admissibleMask[i]) return;
    // Lower is better: fairness, or minus accuracy.
    const score = (onAccuracy ? p.fairness : -p.accuracy) + rule.regularization * p.penalty;
    if (score < bestScore) {
      bestScore = score;
      index = i;
    }
  });
  if (index >= 0) return { index, admissible: true, criterion, admissibleMask };
  // Nothing meets an absolute constraint: take the model closest to it.
  front.forEach((p, i) => {
    const score = onAccuracy ? -p.accuracy : p.fairness;
    if (score < bestScore) {
      bestScore = score;
      index = i;
    }
  });
  return { index, admissible: false, criterion, admissibleMask };
}
