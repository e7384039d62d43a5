import type { PreparedScore } from './data.js';

/**
 * Bound on the free parameter t of the multiplicative scores (|ln q| ≤ ln 10⁶): a subgroup whose
 * likelihood keeps rising as q → 0 or ∞ (all outcomes 0 or all 1) is scored at this bound.
 */
export const T_BOUND = Math.log(1e6);

/**
 * Records grouped by the value of one attribute: per value the record count and the sums of values
 * and expectations, and (when the kernel reads single records) the expectations laid out value by
 * value, so that value v's records are grouped[offsets[v] .. offsets[v+1]). The caller accumulates
 * counts and sums after `reset`, then calls `finish`.
 */
export class Grouping {
  k = 0;
  readonly counts: Int32Array;
  readonly offsets: Int32Array;
  readonly sumValues: Float64Array;
  readonly sumExpected: Float64Array;
  readonly grouped: Float64Array;
  private readonly cursor: Int32Array;

  constructor(
    private readonly prepared: PreparedScore,
    maxArity: number,
    private readonly needRecords: boolean,
  ) {
    this.counts = new Int32Array(maxArity);
    this.offsets = new Int32Array(maxArity + 1);
    this.sumValues = new Float64Array(maxArity);
    this.sumExpected = new Float64Array(maxArity);
    this.cursor = new Int32Array(maxArity);
    this.grouped = new Float64Array(needRecords ? prepared.n : 0);
  }

  reset(k: number): void {
    this.k = k;
    this.counts.fill(0, 0, k);
    this.sumValues.fill(0, 0, k);
    this.sumExpected.fill(0, 0, k);
  }

  /** Offsets, and the expectations of `members[0..count)` (codes in `codes`, or all value 0) by value. */
  finish(members: Int32Array, count: number, codes: Int32Array | null): void {
    const { offsets, counts, cursor, k } = this;
    offsets[0] = 0;
    for (let v = 0; v < k; v++) {
      cursor[v] = offsets[v]!;
      offsets[v + 1] = offsets[v]! + counts[v]!;
    }
    if (!this.needRecords) return;
    const { grouped } = this;
    const expected = this.prepared.expected;
    if (codes === null) {
      for (let j = 0; j < count; j++) grouped[j] = expected[members[j]!]!;
      return;
    }
    for (let j = 0; j < count; j++) {
      const i = members[j]!;
      grouped[cursor[codes[i]!]!++] = expected[i]!;
    }
  }
}

/**
 * F(t), F′(t) and F″(t) of one score function for a selection of values of the current grouping.
 * F is concave in t with F(0) = 0.
 */
export interface Kernel {
  /** Largest |t| considered (T_BOUND, or Infinity for the Gaussian mean shift). */
  readonly bound: number;
  /** Records and value sum of the selection. */
  size: number;
  sum: number;
  f: number;
  d1: number;
  d2: number;
  /** Select the union of the listed values' records. */
  select(values: Int32Array, count: number): void;
  /** Set f (when `needF`), d1 and d2 at t. */
  eval(t: number, needF: boolean): void;
  /** argmax of F over t ∈ [−T_BOUND, T_BOUND] (the Gaussian is unbounded). */
  mle(): number;
  /**
   * True only when `mle()` is sure to fall on the other side of t = 0 than `sign` (+1 or −1), as
   * known from the selection's sums alone; false when that is not known without evaluating F.
   */
  mleOpposes(sign: number): boolean;
  /**
   * Linear-time subset scanning priority of value v when F is a function of sufficient statistics
   * (higher = more evidence for t > 0), or null when no fixed ordering exists.
   */
  priority(v: number): number | null;
}

const clampT = (t: number) => Math.min(T_BOUND, Math.max(-T_BOUND, t));

/** Poisson, Gaussian and Berk-Jones: F depends on the selection only through (N, Σ values, Σ expected). */
class StatisticKernel implements Kernel {
  readonly bound: number;
  size = 0;
  sum = 0;
  expectedSum = 0;
  f = 0;
  d1 = 0;
  d2 = 0;

  constructor(
    private readonly g: Grouping,
    private readonly prepared: PreparedScore,
  ) {
    this.bound = prepared.score === 'gaussian' ? Number.POSITIVE_INFINITY : T_BOUND;
  }

  select(values: Int32Array, count: number): void {
    let n = 0;
    let s = 0;
    let e = 0;
    for (let j = 0; j < count; j++) {
      const v = values[j]!;
      n += this.g.counts[v]!;
      s += this.g.sumValues[v]!;
      e += this.g.sumExpected[v]!;
    }
    this.size = n;
    this.sum = s;
    this.expectedSum = e;
  }

  eval(t: number): void {
    const { score, variance, alpha } = this.prepared;
    const y = this.sum;
    if (score === 'gaussian') {
      this.f = (t * y - (t * t * this.size) / 2) / variance;
      this.d1 = (y - t * this.size) / variance;
      this.d2 = -this.size / variance;
    } else if (score === 'poisson') {
      const eq = this.expectedSum * Math.exp(t);
      this.f = y * t + this.expectedSum - eq;
      this.d1 = y - eq;
      this.d2 = -eq;
    } else {
      // Berk-Jones: a Bernoulli likelihood with every expectation equal to α.
      const q = Math.exp(t);
      const a = 1 - alpha + alpha * q;
      const r = (alpha * q) / a;
      this.f = y * t - this.size * Math.log(a);
      this.d1 = y - this.size * r;
      this.d2 = -this.size * r * (1 - r);
    }
  }

  mle(): number {
    const { score, alpha } = this.prepared;
    const y = this.sum;
    if (score === 'gaussian') return this.size === 0 ? 0 : y / this.size;
    if (score === 'poisson') {
      if (y <= 0) return -T_BOUND;
      return this.expectedSum <= 0 ? T_BOUND : clampT(Math.log(y / this.expectedSum));
    }
    if (y <= 0) return -T_BOUND;
    if (y >= this.size) return T_BOUND;
    const r = y / this.size;
    return clampT(Math.log(r / (1 - r)) - Math.log(alpha / (1 - alpha)));
  }

  /** The closed forms above cost less than any check. */
  mleOpposes(): boolean {
    return false;
  }

  priority(v: number): number {
    const { score } = this.prepared;
    const n = this.g.counts[v]!;
    const s = this.g.sumValues[v]!;
    if (score === 'poisson') {
      const e = this.g.sumExpected[v]!;
      return e > 0 ? s / e : s > 0 ? Number.POSITIVE_INFINITY : 0;
    }
    return n > 0 ? s / n : 0;
  }
}

/** Bernoulli: F(t) = Y·t − Σ ln(1 − pᵢ + pᵢ·eᵗ), evaluated record by record. */
class BernoulliKernel implements Kernel {
  readonly bound = T_BOUND;
  size = 0;
  sum = 0;
  /** Σ pᵢ of the selection, from the per-value sums. */
  private expectedSum = 0;
  f = 0;
  d1 = 0;
  d2 = 0;
  private readonly chosen: Int32Array;
  private chosenCount = 0;

  constructor(
    private readonly g: Grouping,
    maxArity: number,
  ) {
    this.chosen = new Int32Array(maxArity);
  }

  select(values: Int32Array, count: number): void {
    let n = 0;
    let s = 0;
    let e = 0;
    for (let j = 0; j < count; j++) {
      const v = values[j]!;
      this.chosen[j] = v;
      n += this.g.counts[v]!;
      s += this.g.sumValues[v]!;
      e += this.g.sumExpected[v]!;
    }
    this.chosenCount = count;
    this.size = n;
    this.sum = s;
    this.expectedSum = e;
  }

  eval(t: number, needF: boolean): void {
    const q = Math.exp(t);
    const qm1 = q - 1;
    const { grouped, offsets } = this.g;
    let f = 0;
    let d1 = 0;
    let d2 = 0;
    // At t = 0 every 1 + p(q − 1) is exactly 1, whose logarithm is 0: F(0) = 0 needs no logarithms.
    const logs = needF && t !== 0;
    for (let j = 0; j < this.chosenCount; j++) {
      const v = this.chosen[j]!;
      const end = offsets[v + 1]!;
      if (logs) {
        for (let i = offsets[v]!; i < end; i++) {
          const p = grouped[i]!;
          const a = 1 + p * qm1;
          const r = (p * q) / a;
          f += Math.log(a);
          d1 += r;
          d2 += r * (1 - r);
        }
      } else {
        for (let i = offsets[v]!; i < end; i++) {
          const p = grouped[i]!;
          const r = (p * q) / (1 + p * qm1);
          d1 += r;
          d2 += r * (1 - r);
        }
      }
    }
    this.f = this.sum * t - f;
    this.d1 = this.sum - d1;
    this.d2 = -d2;
  }

  /**
   * F′(0) = Y − Σpᵢ, and |F″| = Σ rᵢ(1 − rᵢ) ≤ N/4, so the maximum lies at least 4|F′(0)|/N from 0, on
   * F′(0)'s side. Newton (`newtonMax`) then ends within its tolerance, 1e-10, of it: on the same side
   * when that distance exceeds 1e-6. Σpᵢ comes from the per-value sums (their rounding, about 1e-16
   * of Σpᵢ, is far below that margin), so no record is read.
   */
  mleOpposes(sign: number): boolean {
    if (this.size === 0) return false;
    const slope = this.sum - this.expectedSum;
    return (4 * Math.abs(slope)) / this.size > 1e-6 && slope * sign < 0;
  }

  mle(): number {
    const y = this.sum;
    if (y <= 0) return -T_BOUND;
    if (y >= this.size) return T_BOUND;
    // Start from the log odds ratio of the observed to the expected rate, then safeguarded Newton.
    let e = 0;
    for (let j = 0; j < this.chosenCount; j++) e += this.g.sumExpected[this.chosen[j]!]!;
    const ro = y / this.size;
    const re = Math.min(1 - 1e-12, Math.max(1e-12, e / this.size));
    return newtonMax(this, clampT(Math.log(ro / (1 - ro)) - Math.log(re / (1 - re))));
  }

  priority(): null {
    return null;
  }
}

const NEWTON_TOLERANCE = 1e-10;
const NEWTON_MAX_STEPS = 100;

/** Maximise a concave F on [−T_BOUND, T_BOUND] by Newton steps kept inside a shrinking bracket. */
export function newtonMax(k: Kernel, start: number): number {
  let lo = -T_BOUND;
  let hi = T_BOUND;
  let t = start;
  for (let step = 0; step < NEWTON_MAX_STEPS; step++) {
    k.eval(t, false);
    if (k.d1 === 0) return t;
    if (k.d1 > 0) lo = t;
    else hi = t;
    let next = k.d2 < 0 ? t - k.d1 / k.d2 : Number.NaN;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - t) < NEWTON_TOLERANCE || hi - lo < NEWTON_TOLERANCE) return next;
    t = next;
  }
  return t;
}

/** The kernel of a prepared score over a grouping. */
export function createKernel(g: Grouping, prepared: PreparedScore, maxArity: number): Kernel {
  return prepared.score === 'bernoulli' ? new BernoulliKernel(g, maxArity) : new StatisticKernel(g, prepared);
}

/** Whether the kernel of `score` reads single records (and so needs grouped expectations). */
export function needsRecords(prepared: PreparedScore): boolean {
  return prepared.score === 'bernoulli';
}
