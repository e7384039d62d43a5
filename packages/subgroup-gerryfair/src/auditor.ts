import { linearValue, RidgeSolver } from '@fb/models';
import type { Options, Side } from './options.js';

/** One side of the audit: the group whose audited error rate lies above or below the baseline. */
export interface SideAudit {
  side: Side;
  /** Audited rows (the error rate's denominator) in the group. */
  auditedMembers: number;
  /** The group's error rate over its audited rows (0 when it has none, as in the reference). */
  rate: number;
  /** alpha: audited members / all rows. */
  alpha: number;
  /** beta: |rate − baseline|. */
  beta: number;
  /** gamma-unfairness alpha·beta. */
  gamma: number;
}

export interface Audit {
  baseline: number;
  higher: SideAudit;
  lower: SideAudit;
  /** The side returned under the direction option. */
  chosen: SideAudit;
  /** The chosen group as a linear threshold: row i is a member iff intercept + design_i·weights < 0. */
  weights: Float64Array;
  intercept: number;
}

/**
 * The GerryFair auditor (Kearns, Neel, Roth & Wu 2018) on a fixed design over the group attributes X′.
 *
 * The audited rows are those with y = 0 (FP) or y = 1 (FN); each carries its error indicator vᵢ (the
 * prediction for FP, one minus it for FN) and b is their mean. The best-response group is learned by the
 * cost-sensitive classification reduction: costs c₀ = 0 and c₁ᵢ = (vᵢ − b)/n, one regression per cost
 * vector, membership where the fitted c₁ is below the fitted c₀. The regression on c₀ = 0 is identically
 * 0, and least squares is linear in its target, so the reference's second pair of regressions (on the
 * negated costs) is the negation of the first: one fit r gives both sides, `lower` = {r < 0} and
 * `higher` = {r > 0}.
 */
export class Auditor {
  private readonly ls: RidgeSolver;
  private readonly design: Float64Array;
  private readonly p: number;
  private readonly n: number;
  private readonly audited: Int32Array;
  /** The cost vector, indexed by row of the design (only audited rows are read). */
  private readonly cost: Float64Array;

  constructor(design: Float64Array, p: number, audited: Int32Array) {
    this.design = design;
    this.p = p;
    this.n = design.length / p;
    this.audited = audited;
    this.cost = new Float64Array(this.n);
    // A tiny relative ridge: to rounding, the minimum-norm least-squares solution that scikit-learn's
    // `LinearRegression` returns when one-hot columns are collinear.
    this.ls = new RidgeSolver(design, p, { alpha: 0, relativeAlpha: 1e-9, rows: audited });
  }

  /** Audit the error indicators `values` (one per audited row, in `audited` order). */
  audit(values: Float64Array, direction: Options['direction']): Audit {
    const { baseline, fitted, weights, intercept } = this.fit(values);
    const higher = this.side('higher', values, fitted, baseline);
    const lower = this.side('lower', values, fitted, baseline);
    const chosen = pick(higher, lower, direction);
    if (chosen.side === 'lower') return { baseline, higher, lower, chosen, weights, intercept };
    return { baseline, higher, lower, chosen, weights: weights.map((w) => -w), intercept: -intercept };
  }

  /** The gamma-unfairness the audit would return for `values` (the permutation statistic). */
  gamma(values: Float64Array, direction: Options['direction']): number {
    const { baseline, fitted } = this.fit(values);
    return pick(
      this.side('higher', values, fitted, baseline),
      this.side('lower', values, fitted, baseline),
      direction,
    ).gamma;
  }

  /** Membership of every row of the design in the group of an audit. */
  members(audit: Audit): Uint8Array {
    const members = new Uint8Array(this.n);
    for (let i = 0; i < this.n; i++) members[i] = linearValue(audit, this.design, this.p, i) < 0 ? 1 : 0;
    return members;
  }

  private fit(values: Float64Array) {
    const m = values.length;
    let baseline = 0;
    for (let r = 0; r < m; r++) baseline += values[r]!;
    baseline /= m;
    const { cost, audited } = this;
    for (let r = 0; r < m; r++) cost[audited[r]!] = (values[r]! - baseline) / this.n;
    const fit = this.ls.fit(cost);
    const fitted = new Float64Array(m);
    for (let r = 0; r < m; r++) fitted[r] = linearValue(fit, this.design, this.p, audited[r]!);
    return { baseline, fitted, weights: fit.weights, intercept: fit.intercept };
  }

  private side(side: Side, values: Float64Array, fitted: Float64Array, baseline: number): SideAudit {
    let count = 0;
    let sum = 0;
    for (let r = 0; r < values.length; r++) {
      if (side === 'lower' ? fitted[r]! < 0 : fitted[r]! > 0) {
        count++;
        sum += values[r]!;
      }
    }
    const rate = count === 0 ? 0 : sum / count;
    const alpha = count / this.n;
    const beta = Math.abs(rate - baseline);
    return { side, auditedMembers: count, rate, alpha, beta, gamma: alpha * beta };
  }
}

/**
 * The reference keeps the `lower` side unless the other is strictly more unfair. When no audited row lies
 * on the hyperplane the two sides partition the audited rows and Σ(vᵢ − b) = 0 makes their gammas equal
 * in exact arithmetic, so a relative tolerance keeps rounding from deciding the tie.
 */
function pick(higher: SideAudit, lower: SideAudit, direction: Options['direction']): SideAudit {
  if (direction === 'higher') return higher;
  if (direction === 'lower') return lower;
  return higher.gamma > lower.gamma * (1 + 1e-9) ? higher : lower;
}
