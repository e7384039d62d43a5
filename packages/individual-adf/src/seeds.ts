import { type Dataset, kmeans, type Rng } from '@fb/core';

export interface Seeds {
  /** `count` rows of width d, in the order the global phase takes them. */
  rows: Float64Array;
  count: number;
  /** Rows of the data in each cluster. */
  clusterSizes: number[];
}

/**
 * ADF's seed selection: k-means clusters of the data, then one row from each cluster in turn
 * (round-robin, skipping exhausted clusters) until `limit` rows. Within a cluster rows are taken in a
 * random order drawn from `rng`.
 */
export function clusterSeeds(dataset: Dataset, k: number, limit: number, rng: Rng): Seeds {
  const { n, d, x } = dataset;
  const clusters = Math.min(k, n);
  const { labels, sizes } = kmeans(x, d, clusters, rng.fork('kmeans'));
  const members: Int32Array[] = Array.from(sizes, (s) => new Int32Array(s));
  const fill = new Int32Array(clusters);
  for (let i = 0; i < n; i++) {
    const c = labels[i]!;
    members[c]![fill[c]!++] = i;
  }
  const order = rng.fork('order');
  for (const m of members) order.shuffle(m);
  const count = Math.min(limit, n);
  const rows = new Float64Array(count * d);
  let taken = 0;
  for (let depth = 0; taken < count; depth++) {
    for (const m of members) {
      if (depth >= m.length) continue;
      const i = m[depth]!;
      rows.set(x.subarray(i * d, (i + 1) * d), taken * d);
      if (++taken === count) break;
    }
  }
  return { rows, count, clusterSizes: Array.from(sizes) };
}
