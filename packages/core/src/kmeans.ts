import { DataError, OptionsError } from './errors.js';
import type { Rng } from './rng.js';

export interface KMeansOptions {
  /** Lloyd iterations at most (default 100). */
  maxIterations?: number;
  /** Stop when no centroid moves more than this (squared Euclidean distance; default 1e-10). */
  tolerance?: number;
  /** Scale each column to unit variance before clustering; centroids are returned unscaled (default false). */
  standardize?: boolean;
  /**
   * Polled every `KMEANS_POLL_ROWS` rows of work (seeding and assignment) and between iterations; once it
   * returns true the clustering stops where it is and is returned with `stopped: true`. Never called
   * again after it returned true. Without a stop, the clustering is the same as without the callback.
   */
  shouldStop?: () => boolean;
}

/** Rows of distance work between two polls of `shouldStop`. */
export const KMEANS_POLL_ROWS = 1024;

export interface KMeansResult {
  k: number;
  d: number;
  /** k × d centroids, row-major, in the input's units. */
  centroids: Float64Array;
  /** Cluster of each row. */
  labels: Int32Array;
  /** Rows in each cluster. */
  sizes: Int32Array;
  /** Sum of squared distances of rows to their centroid (in the clustering's units). */
  inertia: number;
  iterations: number;
  /**
   * True when `shouldStop` ended the clustering early: the centroids are those reached so far (centres
   * not yet seeded are rows drawn uniformly), each row keeps the last label it was given (0 before its
   * first assignment), and `sizes` and `inertia` describe those labels.
   */
  stopped: boolean;
}

/**
 * k-means with k-means++ seeding (Arthur and Vassilvitskii, 2007) and Lloyd iterations, on
 * row-major `x` (n × d). Every draw comes from `rng`, so a seed gives one clustering. Used by the
 * individual methods that seed their search by clusters of the data (ADF, SG).
 */
export function kmeans(
  x: Float64Array,
  d: number,
  k: number,
  rng: Rng,
  options: KMeansOptions = {},
): KMeansResult {
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-10;
  if (!Number.isInteger(d) || d < 1 || x.length % d !== 0) {
    throw new DataError(
      'DATA_SHAPE',
      `kmeans: x of length ${x.length} is not a whole number of rows of width ${d}`,
    );
  }
  const n = x.length / d;
  if (n === 0) throw new DataError('DATA_EMPTY', 'kmeans: no rows');
  if (!Number.isInteger(k) || k < 1 || k > n) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `kmeans: k must be an integer in 1..${n} (the number of rows), got ${k}`,
      {
        option: '/k',
      },
    );
  }
  if (!Number.isInteger(maxIterations) || maxIterations < 1) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `kmeans: maxIterations must be a positive integer, got ${maxIterations}`,
      {
        option: '/maxIterations',
      },
    );
  }
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i]!)) {
      throw new DataError('DATA_NOT_FINITE', `kmeans: value at row ${Math.floor(i / d)} is not finite`, {
        row: Math.floor(i / d),
      });
    }
  }

  const scale = new Float64Array(d).fill(1);
  let z = x;
  if (options.standardize) {
    z = new Float64Array(x.length);
    for (let j = 0; j < d; j++) {
      let mean = 0;
      for (let i = 0; i < n; i++) mean += x[i * d + j]!;
      mean /= n;
      let v = 0;
      for (let i = 0; i < n; i++) v += (x[i * d + j]! - mean) ** 2;
      const sd = Math.sqrt(v / n);
      scale[j] = sd > 0 ? sd : 1;
      for (let i = 0; i < n; i++) z[i * d + j] = x[i * d + j]! / scale[j]!;
    }
  }

  const stop = stopPoller(options.shouldStop);
  const centroids = seedPlusPlus(z, n, d, k, rng, stop);
  const labels = new Int32Array(n);
  if (stop.stopped) return stoppedResult(z, x, n, d, k, centroids, labels, scale, 0);
  const sizes = new Int32Array(k);
  const sums = new Float64Array(k * d);
  let inertia = 0;
  let iterations = 0;
  for (; iterations < maxIterations; ) {
    iterations++;
    inertia = assign(z, n, d, centroids, k, labels, stop);
    if (stop.stopped) return stoppedResult(z, x, n, d, k, centroids, labels, scale, iterations);
    sums.fill(0);
    sizes.fill(0);
    for (let i = 0; i < n; i++) {
      const c = labels[i]!;
      sizes[c]!++;
      for (let j = 0; j < d; j++) sums[c * d + j]! += z[i * d + j]!;
    }
    let shift = 0;
    for (let c = 0; c < k; c++) {
      // An emptied cluster keeps its centroid; k-means++ seeding makes this rare.
      if (sizes[c] === 0) continue;
      let moved = 0;
      for (let j = 0; j < d; j++) {
        const m = sums[c * d + j]! / sizes[c]!;
        moved += (m - centroids[c * d + j]!) ** 2;
        centroids[c * d + j] = m;
      }
      if (moved > shift) shift = moved;
    }
    if (shift <= tolerance) break;
    if (stop.poll()) return stoppedResult(z, x, n, d, k, centroids, labels, scale, iterations);
  }
  inertia = assign(z, n, d, centroids, k, labels, stop);
  if (stop.stopped) return stoppedResult(z, x, n, d, k, centroids, labels, scale, iterations);
  sizes.fill(0);
  for (let i = 0; i < n; i++) sizes[labels[i]!]!++;
  for (let c = 0; c < k; c++) for (let j = 0; j < d; j++) centroids[c * d + j]! *= scale[j]!;
  return { k, d, centroids, labels, sizes, inertia, iterations, stopped: false };
}

/** `shouldStop` behind a sticky flag (a no-op without one), so that the loops test a field. */
interface StopPoller {
  stopped: boolean;
  poll(): boolean;
}

function stopPoller(shouldStop: (() => boolean) | undefined): StopPoller {
  return {
    stopped: false,
    poll() {
      if (!this.stopped && shouldStop?.()) this.stopped = true;
      return this.stopped;
    },
  };
}

/** The result of a stopped clustering: sizes and inertia of the labels as they stand (one pass). */
function stoppedResult(
  z: Float64Array,
  x: Float64Array,
  n: number,
  d: number,
  k: number,
  centroids: Float64Array,
  labels: Int32Array,
  scale: Float64Array,
  iterations: number,
): KMeansResult {
  const sizes = new Int32Array(k);
  let inertia = 0;
  for (let i = 0; i < n; i++) {
    const c = labels[i]!;
    sizes[c]!++;
    for (let j = 0; j < d; j++) inertia += (z[i * d + j]! - centroids[c * d + j]!) ** 2;
  }
  if (z !== x) for (let c = 0; c < k; c++) for (let j = 0; j < d; j++) centroids[c * d + j]! *= scale[j]!;
  return { k, d, centroids, labels, sizes, inertia, iterations, stopped: true };
}

/** k-means++: the first centre uniformly, each next one with probability proportional to D(x)^2. */
function seedPlusPlus(
  z: Float64Array,
  n: number,
  d: number,
  k: number,
  rng: Rng,
  stop: StopPoller,
): Float64Array {
  const centroids = new Float64Array(k * d);
  const nearest = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  let pick = rng.int(0, n - 1);
  for (let c = 0; c < k; c++) {
    for (let j = 0; j < d; j++) centroids[c * d + j] = z[pick * d + j]!;
    if (c === k - 1) break;
    if (stop.stopped) {
      pick = rng.int(0, n - 1);
      continue;
    }
    let total = 0;
    for (let i = 0; i < n; i++) {
      if (i % KMEANS_POLL_ROWS === 0 && stop.poll()) break;
      let dist = 0;
      for (let j = 0; j < d; j++) dist += (z[i * d + j]! - centroids[c * d + j]!) ** 2;
      if (dist < nearest[i]!) nearest[i] = dist;
      total += nearest[i]!;
    }
    // All remaining rows coincide with a centre: any row will do (and a stopped seeding draws the rest).
    pick = total > 0 && !stop.stopped ? rng.weightedIndex(nearest) : rng.int(0, n - 1);
  }
  return centroids;
}

function assign(
  z: Float64Array,
  n: number,
  d: number,
  centroids: Float64Array,
  k: number,
  labels: Int32Array,
  stop: StopPoller,
): number {
  let inertia = 0;
  for (let i = 0; i < n; i++) {
    if (i % KMEANS_POLL_ROWS === 0 && stop.poll()) break;
    let best = 0;
    let bestDist = Number.POSITIVE_INFINITY;
    for (let c = 0; c < k; c++) {
      let dist = 0;
      for (let j = 0; j < d; j++) dist += (z[i * d + j]! - centroids[c * d + j]!) ** 2;
      if (dist < bestDist) {
        bestDist = dist;
        best = c;
      }
    }
    labels[i] = best;
    inertia += bestDist;
  }
  return inertia;
}
