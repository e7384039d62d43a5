import type { ScanDirection } from './data.js';
import type { Grouping, Kernel } from './kernels.js';
import { fitDirection, positiveInterval } from './solve.js';

/** The best value set of one attribute, given the other attributes' constraints. */
export interface StepChoice {
  /** True when leaving the attribute unconstrained (no penalty) is best. */
  all: boolean;
  /** The chosen values (ascending), valid when `all` is false. */
  values: Int32Array;
  count: number;
  /** Unpenalised F of the chosen records at their fitted t. */
  f: number;
  t: number;
  /** F − penalty·count (penalty 0 for `all`). */
  score: number;
}

export type StepMethod = 'intervals' | 'prefix' | 'contiguous';

/**
 * Solves one coordinate-ascent step exactly. With the grouping built for attribute m over the
 * records matching every other constraint, it returns the value set V_m maximising
 * F(V_m) − penalty·|V_m|, or "all values" (unconstrained, no penalty) when that scores at least as high.
 */
export class AttributeStep {
  private readonly present: Int32Array;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  /** Per value, its own fit (F, t and F″ at its maximum). */
  private readonly own: Float64Array;
  private readonly ownT: Float64Array;
  private readonly ownCurvature: Float64Array;
  private readonly union: Int32Array;
  private readonly order: Int32Array;
  private readonly priorities: Float64Array;
  private readonly single = new Int32Array(1);
  private readonly best: StepChoice;

  constructor(
    private readonly g: Grouping,
    private readonly k: Kernel,
    private readonly direction: ScanDirection,
    private readonly penalty: number,
    maxArity: number,
  ) {
    this.present = new Int32Array(maxArity);
    this.lo = new Float64Array(maxArity);
    this.hi = new Float64Array(maxArity);
    this.own = new Float64Array(maxArity);
    this.ownT = new Float64Array(maxArity);
    this.ownCurvature = new Float64Array(maxArity);
    this.union = new Int32Array(maxArity);
    this.order = new Int32Array(maxArity);
    this.priorities = new Float64Array(maxArity);
    this.best = { all: true, values: new Int32Array(maxArity), count: 0, f: 0, t: 0, score: 0 };
  }

  solve(method: StepMethod): StepChoice {
    const { g, k, best } = this;
    let nPresent = 0;
    for (let v = 0; v < g.k; v++) if (g.counts[v]! > 0) this.present[nPresent++] = v;
    // "All values": the attribute unconstrained.
    k.select(this.present, nPresent);
    const all = fitDirection(k, this.direction);
    best.all = true;
    best.count = 0;
    best.f = all.f;
    best.t = all.t;
    best.score = all.f;
    if (method === 'intervals') this.intervals(nPresent);
    else if (method === 'prefix') this.prefix(nPresent);
    else this.contiguous();
    return best;
  }

  /** Offer value set `values[0..count)` (ascending) to the best. */
  private offer(values: Int32Array, count: number): void {
    const { k } = this;
    k.select(values, count);
    const fit = fitDirection(k, this.direction);
    const score = fit.f - this.penalty * count;
    if (score > this.best.score) {
      const best = this.best;
      best.all = false;
      best.values.set(values.subarray(0, count));
      best.count = count;
      best.f = fit.f;
      best.t = fit.t;
      best.score = score;
    }
  }

  /**
   * ALTSS by parameter intervals (seed 003, Algorithm 1, lines 16–42): each value's interval of t on
   * which its own score exceeds one value's penalty; between consecutive interval endpoints the set of
   * values contributing positively is constant, and conditional on t the best set is exactly that set.
   */
  private intervals(nPresent: number): void {
    const { k, lo, hi, own, ownT, ownCurvature, present, single, penalty } = this;
    // First each value's own fit: a value scoring at most one penalty has no interval.
    let nPositive = 0;
    let total = 0;
    for (let j = 0; j < nPresent; j++) {
      const v = present[j]!;
      single[0] = v;
      k.select(single, 1);
      const fit = fitDirection(k, this.direction);
      if (!(fit.f > penalty)) continue;
      own[v] = fit.f;
      ownT[v] = fit.t;
      ownCurvature[v] = fit.curvature;
      present[nPositive++] = v;
      total += fit.f - penalty;
    }
    // A union is offered only when the sum of its values' (own − penalty) beats the best; every term
    // is positive and rounding is monotone, so no union's sum exceeds the sum over all positive
    // values: when that does not beat the best, no union is offered and the intervals (the root
    // searches, most of a step's work) are not needed.
    if (nPositive === 0 || total <= this.best.score) return;
    const ends = new Float64Array(2 * nPositive);
    for (let j = 0; j < nPositive; j++) {
      const v = present[j]!;
      single[0] = v;
      k.select(single, 1);
      const iv = positiveInterval(
        k,
        penalty,
        { t: ownT[v]!, f: own[v]!, curvature: ownCurvature[v]! },
        this.direction,
      )!;
      lo[v] = iv.lo;
      hi[v] = iv.hi;
      ends[2 * j] = iv.lo;
      ends[2 * j + 1] = iv.hi;
    }
    const sorted = ends.sort();
    let previous = -1;
    for (let e = 0; e + 1 < sorted.length; e++) {
      if (!(sorted[e + 1]! > sorted[e]!)) continue;
      const mid = (sorted[e]! + sorted[e + 1]!) / 2;
      let count = 0;
      let signature = 0;
      // A union scores at most the sum of its values' own maxima: skip it when that cannot win.
      let bound = 0;
      for (let j = 0; j < nPositive; j++) {
        const v = present[j]!;
        if (lo[v]! < mid && hi[v]! > mid) {
          this.union[count++] = v;
          signature = signature * 31 + v + 1;
          bound += own[v]! - penalty;
        }
      }
      // Adjacent intervals often hold the same set when endpoints coincide across values.
      if (count === 0 || signature === previous || bound <= this.best.score) continue;
      previous = signature;
      this.offer(this.union, count);
    }
  }

  /**
   * Linear-time subset scanning (Neill 2012): for scores of sufficient statistics without penalty,
   * the best set is a prefix of the values sorted by priority (descending for the positive direction).
   */
  private prefix(nPresent: number): void {
    const { k, order, priorities, present } = this;
    const sign = this.direction === 'positive' ? -1 : 1;
    for (let j = 0; j < nPresent; j++) {
      order[j] = present[j]!;
      priorities[present[j]!] = sign * (k.priority(present[j]!) ?? 0);
    }
    const sorted = order.subarray(0, nPresent).sort((a, b) => priorities[a]! - priorities[b]! || a - b);
    for (let len = 1; len < nPresent; len++) {
      const chosen = this.union;
      chosen.set(sorted.subarray(0, len));
      chosen.subarray(0, len).sort();
      this.offer(chosen, len);
    }
  }

  /** Ordinal contiguity: every range [a, b] of codes except the full range, each at its own maximum. */
  private contiguous(): void {
    const n = this.g.k;
    for (let a = 0; a < n; a++) {
      for (let b = a; b < n; b++) {
        if (a === 0 && b === n - 1) continue;
        for (let v = a; v <= b; v++) this.union[v - a] = v;
        this.offer(this.union, b - a + 1);
      }
    }
  }
}
