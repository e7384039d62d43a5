import { type Attribute, cardinality, domainValues, isDiscrete, OptionsError } from '@fb/core';
import { normalCdf, normalQuantile } from './normal.js';

/**
 * A discrete marginal: probabilities over the attribute's domain values and, for the copula, the
 * latent cells: value k is produced when the latent normal lies in [upper[k-1], upper[k]).
 */
export interface DiscreteMarginal {
  readonly kind: 'discrete';
  readonly values: Float64Array;
  /** Probability of each domain value, in domain order. */
  readonly probs: Float64Array;
  /** Domain index of each latent cell, lowest cell first (identity except for reordered categories). */
  readonly order: Int32Array;
  /** Latent cell of each domain index (the inverse of `order`). */
  readonly rank: Int32Array;
  /** Upper latent bound of each cell, in cell order. */
  readonly upper: Float64Array;
  readonly mean: number;
  readonly sd: number;
}

/**
 * A smooth continuous marginal: a piecewise-linear quantile function through knots (u, x) with
 * u from 0 to 1. Values observed with a large share of the rows are atoms (flat segments, so
 * they are reproduced exactly); between them the quantile function interpolates linearly.
 */
export interface ContinuousMarginal {
  readonly kind: 'continuous';
  readonly u: Float64Array;
  readonly x: Float64Array;
  readonly mean: number;
  readonly sd: number;
}

export type Marginal = DiscreteMarginal | ContinuousMarginal;

/** Share of rows above which a repeated value of a continuous column is kept as an atom. */
export const ATOM_SHARE = 0.005;
/** Most interpolation knots kept for the continuous part of a fitted marginal. */
const MAX_KNOTS = 2048;

/** Position of `v` in the domain of a discrete attribute (-1 when outside it). */
export function domainIndex(a: Attribute, v: number): number {
  return a.categories
    ? indexIn(a.categories.length, 0, 1, 0, v)
    : indexIn(-1, a.min!, a.step!, cardinality(a), v);
}

/**
 * Position of `v` among `categories` codes (when ≥ 0), else on the grid min + k·step, k < size; -1 when
 * outside.
 */
function indexIn(categories: number, min: number, step: number, size: number, v: number): number {
  if (categories >= 0) {
    const k = v | 0;
    return k === v && k >= 0 && k < categories ? k : -1;
  }
  const q = (v - min) / step;
  const k = Math.round(q);
  return Math.abs(q - k) < 1e-9 && k >= 0 && k < size ? k : -1;
}

/**
 * `domainIndex` for attributes fixed in advance, on many values: index(t, v) is domainIndex(attrs[t], v),
 * with each attribute's kind and bounds read once rather than from its object per value.
 */
export class DomainIndexer {
  private readonly categories: Int32Array;
  private readonly min: Float64Array;
  private readonly step: Float64Array;
  private readonly size: Int32Array;

  constructor(attrs: readonly Attribute[]) {
    this.categories = Int32Array.from(attrs, (a) => (a.categories ? a.categories.length : -1));
    this.min = Float64Array.from(attrs, (a) => (a.categories ? 0 : a.min!));
    this.step = Float64Array.from(attrs, (a) => (a.categories ? 1 : a.step!));
    this.size = Int32Array.from(attrs, (a) => (a.categories ? 0 : cardinality(a)));
  }

  index(t: number, v: number): number {
    // A category code's test reads nothing else (the common case on generated rows).
    const categories = this.categories[t]!;
    if (categories >= 0) {
      const k = v | 0;
      return k === v && k >= 0 && k < categories ? k : -1;
    }
    return indexIn(-1, this.min[t]!, this.step[t]!, this.size[t]!, v);
  }
}

export function discreteMarginal(
  a: Attribute,
  probs: Float64Array,
  cellOrder?: Int32Array,
): DiscreteMarginal {
  const values = domainValues(a);
  const order = cellOrder ?? Int32Array.from(values, (_, k) => k);
  const rank = new Int32Array(values.length);
  order.forEach((k, pos) => {
    rank[k] = pos;
  });
  let total = 0;
  for (const p of probs) total += p;
  const norm = Float64Array.from(probs, (p) => p / total);
  const upper = new Float64Array(values.length);
  let cum = 0;
  let mean = 0;
  let sq = 0;
  for (let pos = 0; pos < values.length; pos++) {
    const k = order[pos]!;
    cum += norm[k]!;
    upper[pos] = pos === values.length - 1 ? Number.POSITIVE_INFINITY : normalQuantile(Math.min(cum, 1));
    mean += norm[k]! * values[k]!;
    sq += norm[k]! * values[k]! ** 2;
  }
  return {
    kind: 'discrete',
    values,
    probs: norm,
    order,
    rank,
    upper,
    mean,
    sd: Math.sqrt(Math.max(sq - mean * mean, 0)),
  };
}

function continuousFromKnots(u: Float64Array, x: Float64Array): ContinuousMarginal {
  let mean = 0;
  let sq = 0;
  for (let k = 1; k < u.length; k++) {
    const w = u[k]! - u[k - 1]!;
    const x0 = x[k - 1]!;
    const x1 = x[k]!;
    mean += (w * (x0 + x1)) / 2;
    sq += (w * (x0 * x0 + x0 * x1 + x1 * x1)) / 3;
  }
  return { kind: 'continuous', u, x, mean, sd: Math.sqrt(Math.max(sq - mean * mean, 0)) };
}

/** A continuous marginal from values at equally spaced probabilities 0, 1/(m-1), ..., 1. */
export function continuousFromQuantiles(quantiles: readonly number[]): ContinuousMarginal {
  const m = quantiles.length;
  return continuousFromKnots(
    Float64Array.from({ length: m }, (_, k) => k / (m - 1)),
    Float64Array.from(quantiles),
  );
}

/** Fit the smooth marginal of a continuous column from its sorted values. */
export function continuousFromSorted(sorted: Float64Array): ContinuousMarginal {
  const n = sorted.length;
  const starts: number[] = [];
  for (let i = 0; i < n; ) {
    starts.push(i);
    let j = i;
    while (j < n && sorted[j] === sorted[i]) j++;
    i = j;
  }
  starts.push(n);
  const isAtom = (r: number) => (starts[r + 1]! - starts[r]!) / n >= ATOM_SHARE;
  let singles = 0;
  for (let r = 0; r + 1 < starts.length; r++) if (!isAtom(r)) singles++;
  const thin = Math.max(1, Math.ceil(singles / MAX_KNOTS));
  const u: number[] = [];
  const x: number[] = [];
  const push = (p: number, v: number) => {
    // Equal knots add nothing; equal u with a larger x is a jump between atoms and is kept.
    if (u.length && u[u.length - 1] === p && x[x.length - 1] === v) return;
    u.push(p);
    x.push(v);
  };
  push(0, sorted[0]!);
  let seen = 0;
  for (let r = 0; r + 1 < starts.length; r++) {
    const i = starts[r]!;
    const j = starts[r + 1]!;
    if (isAtom(r)) {
      push(i / n, sorted[i]!);
      push(j / n, sorted[i]!);
    } else if (seen++ % thin === 0) push((i + j) / 2 / n, sorted[i]!);
  }
  push(1, sorted[n - 1]!);
  return continuousFromKnots(Float64Array.from(u), Float64Array.from(x));
}

/** The quantile function of a continuous marginal. */
export function quantile(m: ContinuousMarginal, p: number): number {
  const { u, x } = m;
  let lo = 0;
  let hi = u.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (u[mid]! <= p) lo = mid;
    else hi = mid;
  }
  const w = u[hi]! - u[lo]!;
  return w > 0 ? x[lo]! + ((p - u[lo]!) / w) * (x[hi]! - x[lo]!) : x[hi]!;
}

/** inf{u : Q(u) >= v} (strict = false) or inf{u : Q(u) > v} (strict = true). */
function cdfAt(m: ContinuousMarginal, v: number, strict: boolean): number {
  const { u, x } = m;
  const last = u.length - 1;
  const beyond = (k: number) => (strict ? x[k]! > v : x[k]! >= v);
  if (beyond(0)) return 0;
  if (!beyond(last)) return 1;
  let lo = 0;
  let hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (beyond(mid)) hi = mid;
    else lo = mid;
  }
  const dx = x[hi]! - x[lo]!;
  return dx > 0 ? u[lo]! + ((v - x[lo]!) / dx) * (u[hi]! - u[lo]!) : u[hi]!;
}

/**
 * The latent interval [lo, hi] of the rows whose value satisfies `min <= v < max` (or `<= max`)
 * for a continuous marginal; for a discrete one, the cell of value index k.
 */
export function rangeLatent(
  m: ContinuousMarginal,
  min: number,
  max: number,
  maxInclusive: boolean,
): [number, number] {
  return [normalQuantile(cdfAt(m, min, false)), normalQuantile(cdfAt(m, max, maxInclusive))];
}

/** The latent interval of the cells of domain indices kLo..kHi (adjacent cells). */
export function cellLatent(m: DiscreteMarginal, kLo: number, kHi = kLo): [number, number] {
  const lo = Math.min(m.rank[kLo]!, m.rank[kHi]!);
  const hi = Math.max(m.rank[kLo]!, m.rank[kHi]!);
  return [lo === 0 ? Number.NEGATIVE_INFINITY : m.upper[lo - 1]!, m.upper[hi]!];
}

/** The value a latent normal z maps to. */
export function valueOfLatent(m: Marginal, z: number): number {
  if (m.kind === 'continuous') return quantile(m, normalCdf(z));
  const up = m.upper;
  let lo = 0;
  let hi = up.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (z < up[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return m.values[m.order[lo]!]!;
}

/** Check that a declared marginal fits its attribute; throws OptionsError naming the option and attribute. */
export function declaredMarginal(
  a: Attribute,
  spec: { probabilities?: number[]; quantiles?: number[] } | null | undefined,
  where: string,
): Marginal {
  const bad = (msg: string): never => {
    throw new OptionsError('OPTIONS_INVALID', `${where} (attribute "${a.name}"): ${msg}`, {
      option: where,
      attribute: a.name,
    });
  };
  if (isDiscrete(a)) {
    const k = cardinality(a);
    if (spec?.quantiles) bad('a discrete attribute takes "probabilities", not "quantiles"');
    const probs = spec?.probabilities ?? new Array(k).fill(1 / k);
    if (probs.length !== k) bad(`needs ${k} probabilities, got ${probs.length}`);
    if (probs.some((p) => !(p >= 0) || !Number.isFinite(p)) || !(probs.reduce((s, p) => s + p, 0) > 0)) {
      bad('probabilities must be finite, non-negative and not all zero');
    }
    return discreteMarginal(a, Float64Array.from(probs));
  }
  if (spec?.probabilities) bad('a continuous attribute takes "quantiles", not "probabilities"');
  const q = spec?.quantiles ?? [a.min!, a.max!];
  if (q.length < 2) bad('needs at least two quantiles');
  for (let i = 0; i < q.length; i++) {
    if (!Number.isFinite(q[i]) || q[i]! < a.min! || q[i]! > a.max!)
      bad(`quantile ${q[i]} is outside [${a.min}, ${a.max}]`);
    if (i > 0 && q[i]! < q[i - 1]!) bad('quantiles must be non-decreasing');
  }
  return continuousFromQuantiles(q);
}
