import type { CutIndex } from './tree-kernels.js';
import { shared } from './tree-threads.js';

/** Number of values of the ascending array a that are < v (0 for NaN). */
export function lowerBound(a: Float64Array, v: number): number {
  let n = a.length;
  if (n === 0) return 0;
  let base = 0;
  while (n > 1) {
    const half = n >>> 1;
    base += half * +(a[base + half - 1]! < v);
    n -= half;
  }
  return base + +(a[base]! < v);
}

// Buckets per threshold, up to a table of 64 KB: on Adult's forest, at most 9 of fnlwgt's 14,871
// thresholds share a bucket, and every other feature's thresholds have one bucket each or share by four at
// most, so a search takes 0 to 4 halving steps where a plain binary search takes up to 14.
const BUCKETS_PER_CUT = 4;
const MAX_BUCKETS = 1 << 14;

/**
 * The bucket table of ascending distinct thresholds (see `CutIndex`): equal-width buckets from the first
 * threshold to the last. Any bucket width gives exact ranks; the width only sets how many thresholds a
 * search still has to look at.
 */
export function buildCutIndex(cuts: Float64Array): CutIndex {
  const m = cuts.length;
  let buckets = 1;
  while (buckets < Math.min(BUCKETS_PER_CUT * m, MAX_BUCKETS)) buckets *= 2;
  const origin = m > 0 ? cuts[0]! : 0;
  const span = m > 0 ? cuts[m - 1]! - origin : 0;
  // A zero or infinite span (one threshold, or thresholds from -1e308 to 1e308) makes one bucket.
  const scale = span > 0 && Number.isFinite(buckets / span) ? buckets / span : 0;
  const bucketOf = (v: number) => Math.min(Math.max((v - origin) * scale, 0), buckets - 1) | 0;
  const size = new Int32Array(buckets);
  for (let i = 0; i < m; i++) size[bucketOf(cuts[i]!)]!++;
  const first = shared(Int32Array, buckets);
  let largest = 0;
  for (let b = 0, below = 0; b < buckets; b++) {
    first[b] = below;
    below += size[b]!;
    largest = Math.max(largest, size[b]!);
  }
  let window = 1;
  while (window < largest) window *= 2;
  const padded = shared(Float64Array, m + window);
  padded.set(cuts);
  padded.fill(Number.POSITIVE_INFINITY, m);
  return { cuts: padded, origin, scale, first, window };
}
