import { type Attribute, type Dataset, OptionsError, Rng } from '@fb/core';
import type { Subgroups } from './groups.js';

export interface ConsistencyOptions {
  /** Neighbours per row. Default 5 (seed 004). */
  k?: number;
  /** Features for the neighbour search: `all` attributes (default, as AIF360) or `non-protected` ones. */
  features?: 'all' | 'non-protected';
  /** Rows whose neighbours are searched; above this many rows, a seeded sample of anchors is used. Default 5000. */
  maxAnchors?: number;
  seed?: number | string;
}

/**
 * Features for row distances: categorical attributes keep their codes (a mismatch counts 1); ordinal
 * and continuous ones are divided by their range (an ordinal with labelled categories spans codes 0
 * to k − 1), so that no attribute adds more than 1 to a squared distance.
 */
export function scaledFeatures(
  ds: Dataset,
  cols: readonly (readonly [Attribute, number])[],
): { z: Float64Array; categorical: Uint8Array } {
  const m = cols.length;
  const z = new Float64Array(ds.n * m);
  const categorical = new Uint8Array(m);
  cols.forEach(([a, j], c) => {
    categorical[c] = a.kind === 'categorical' ? 1 : 0;
    const lo = a.categories ? 0 : a.min!;
    const span = (a.categories ? a.categories.length - 1 : a.max! - a.min!) || 1;
    for (let i = 0; i < ds.n; i++)
      z[i * m + c] = categorical[c] ? ds.x[i * ds.d + j]! : (ds.x[i * ds.d + j]! - lo) / span;
  });
  return { z, categorical };
}

/**
 * Consistency in seed 004's sense: the mean share of each row's k nearest neighbours whose label
 * differs from the row's own (0 = perfectly consistent; AIF360's `consistency` is 1 minus this).
 * Distance: numeric attributes scaled by their schema range, categorical ones 0/1 on mismatch.
 */
export function consistency(ds: Dataset, options: ConsistencyOptions = {}): number {
  const k = options.k ?? 5;
  if (!Number.isInteger(k) || k < 1 || k >= ds.n) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `k must be an integer in [1, n - 1] = [1, ${ds.n - 1}], got ${k}`,
      { option: '/k' },
    );
  }
  const cols = ds.schema.attributes
    .map((a, j) => [a, j] as const)
    .filter(([a]) => options.features !== 'non-protected' || !a.protected);
  if (cols.length === 0)
    throw new OptionsError('OPTIONS_INVALID', 'no feature is left for the neighbour search', {
      option: '/features',
    });
  const m = cols.length;
  const { z, categorical } = scaledFeatures(ds, cols);
  const maxAnchors = options.maxAnchors ?? 5000;
  const anchors =
    ds.n > maxAnchors
      ? Rng.create(options.seed ?? 0)
          .fork('consistency')
          .sampleIndices(ds.n, maxAnchors)
      : Int32Array.from({ length: ds.n }, (_, i) => i);
  const bestD = new Float64Array(k);
  const bestI = new Int32Array(k);
  let total = 0;
  for (const i of anchors) {
    bestD.fill(Number.POSITIVE_INFINITY);
    bestI.fill(-1);
    for (let j = 0; j < ds.n; j++) {
      if (j === i) continue;
      let dist = 0;
      for (let c = 0; c < m; c++) {
        const diff = z[i * m + c]! - z[j * m + c]!;
        dist += categorical[c] ? (diff !== 0 ? 1 : 0) : diff * diff;
      }
      if (dist >= bestD[k - 1]!) continue;
      let p = k - 1;
      while (p > 0 && bestD[p - 1]! > dist) {
        bestD[p] = bestD[p - 1]!;
        bestI[p] = bestI[p - 1]!;
        p--;
      }
      bestD[p] = dist;
      bestI[p] = j;
    }
    let differ = 0;
    for (let q = 0; q < k; q++) if (ds.y[bestI[q]!] !== ds.y[i]) differ++;
    total += differ / k;
  }
  return total / anchors.length;
}

export interface SmoothedEdfResult {
  /** max over group pairs and outcomes of |ln P(y | g) - ln P(y | h)| with Dirichlet smoothing. */
  readonly epsilon: number;
  /** The pair of subgroup keys and the outcome code attaining it. */
  readonly attainedBy: { readonly groups: readonly [string, string]; readonly outcome: number } | null;
  /** Smoothed P(y = favourable | g) per subgroup. */
  readonly favourableRate: Readonly<Record<string, number>>;
}

/**
 * Smoothed empirical differential fairness (Foulds et al., ICDE 2020): per intersectional group g,
 * P(y | g) = (N(g, y) + alpha / |Y|) / (N(g) + alpha); epsilon is the largest log-ratio between two
 * groups over all outcomes (0 = every group has the same label distribution).
 */
export function smoothedEdf(
  yTrue: ArrayLike<number>,
  subgroups: Subgroups,
  options: { concentration?: number; outcomes?: number; favorable?: number } = {},
): SmoothedEdfResult {
  const alpha = options.concentration ?? 1;
  if (!(alpha >= 0))
    throw new OptionsError('OPTIONS_INVALID', `concentration must be >= 0, got ${alpha}`, {
      option: '/concentration',
    });
  const outcomes = options.outcomes ?? 2;
  const favorable = options.favorable ?? 1;
  const g = subgroups.keys.length;
  const counts = new Float64Array(g * outcomes);
  for (let i = 0; i < yTrue.length; i++) counts[subgroups.codes[i]! * outcomes + yTrue[i]!]!++;
  const theta = (grp: number, y: number) =>
    (counts[grp * outcomes + y]! + alpha / outcomes) / (subgroups.sizes[grp]! + alpha);
  let epsilon = 0;
  let attainedBy: SmoothedEdfResult['attainedBy'] = null;
  for (let y = 0; y < outcomes; y++) {
    for (let a = 0; a < g; a++) {
      for (let b = a + 1; b < g; b++) {
        const e = Math.abs(Math.log(theta(a, y)) - Math.log(theta(b, y)));
        if (e > epsilon) {
          epsilon = e;
          attainedBy = { groups: [subgroups.keys[a]!, subgroups.keys[b]!], outcome: y };
        }
      }
    }
  }
  return {
    epsilon,
    attainedBy,
    favourableRate: Object.fromEntries(subgroups.keys.map((key, grp) => [key, theta(grp, favorable)])),
  };
}
