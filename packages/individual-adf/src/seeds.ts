import { type Dataset, kmeans, type Rng } from '@fb/core';

export interface Seeds {
  /** `count` rows of width d, in the order the global phase takes them. */
  rows: Float64Array;
  count: number;
  /** Rows of the data in each cluster; empty when the data was not clustered. */
  clusterSizes: number[];
}

/** k-means clusters of the data (on the raw attribute values), as lists of row indices. */
function clusterMembers(dataset: Dataset, k: number, rng: Rng): { members: Int32Array[]; sizes: number[] } {
  const { n, d, x } = dataset;
  const clusters = Math.min(k, n);
  const { labels, sizes } = kmeans(x, d, clusters, rng.fork('kmeans'));
  const members: Int32Array[] = Array.from(sizes, (s) => new Int32Array(s));
  const fill = new Int32Array(clusters);
  for (let i = 0; i < n; i++) {
    const c = labels[i]!;
    members[c]![fill[c]!++] = i;
  }
  return { members, sizes: Array.from(sizes) };
}

function copyRows(dataset: Dataset, indices: ArrayLike<number>): Float64Array {
  const { d, x } = dataset;
  const rows = new Float64Array(indices.length * d);
  for (let t = 0; t < indices.length; t++) {
    const i = indices[t]!;
    rows.set(x.subarray(i * d, (i + 1) * d), t * d);
  }
  return rows;
}

/**
 * ADF's seed selection: k-means clusters of the data, then one row from each cluster in turn
 * (round-robin, skipping exhausted clusters) until `limit` rows. Within a cluster rows are taken in a
 * random order drawn from `rng`.
 */
export function clusterSeeds(dataset: Dataset, k: number, limit: number, rng: Rng): Seeds {
  const { members, sizes } = clusterMembers(dataset, k, rng);
  const order = rng.fork('order');
  for (const m of members) order.shuffle(m);
  const count = Math.min(limit, dataset.n);
  const picked = new Int32Array(count);
  let taken = 0;
  for (let depth = 0; taken < count; depth++) {
    for (const m of members) {
      if (depth >= m.length) continue;
      picked[taken] = m[depth]!;
      if (++taken === count) break;
    }
  }
  return { rows: copyRows(dataset, picked), count, clusterSizes: sizes };
}

/**
 * EIDIG's seed selection (its `get_seed` in the 'RoundRobin' fashion): with `limit` at least the
 * number of rows, every row in data order, unclustered; otherwise seed i is a row drawn uniformly, with
 * replacement, from k-means cluster i mod k (empty clusters left out), so a row can be a seed twice.
 */
export function eidigSeeds(dataset: Dataset, k: number, limit: number, rng: Rng): Seeds {
  const { n } = dataset;
  if (limit >= n) return { rows: dataset.x.slice(0, n * dataset.d), count: n, clusterSizes: [] };
  const { members, sizes } = clusterMembers(dataset, k, rng);
  const nonEmpty = members.filter((m) => m.length > 0);
  const draw = rng.fork('order');
  const picked = new Int32Array(limit);
  for (let i = 0; i < limit; i++) {
    const m = nonEmpty[i % nonEmpty.length]!;
    picked[i] = m[draw.int(0, m.length - 1)]!;
  }
  return { rows: copyRows(dataset, picked), count: limit, clusterSizes: sizes };
}
