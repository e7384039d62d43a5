import { type Dataset, kmeans, type Rng } from '@fb/core';

/**
 * SG's seed order: k-means over the dataset rows, then rows taken round-robin across the clusters,
 * each cluster in row order, until `count` rows (or every row) are taken. `shouldStop` is polled by
 * the clustering; a stopped clustering still gives an order (from the clusters reached so far).
 */
export function seedOrder(
  dataset: Dataset,
  clusters: number,
  count: number,
  rng: Rng,
  shouldStop?: () => boolean,
): Int32Array {
  const { n, d, x } = dataset;
  const k = Math.min(clusters, n);
  const { labels } = kmeans(x, d, k, rng, { shouldStop });
  const members: number[][] = Array.from({ length: k }, () => []);
  for (let i = 0; i < n; i++) members[labels[i]!]!.push(i);
  const out = new Int32Array(Math.min(count, n));
  let m = 0;
  for (let round = 0; m < out.length; round++) {
    for (let c = 0; c < k && m < out.length; c++) {
      const rows = members[c]!;
      if (round < rows.length) out[m++] = rows[round]!;
    }
  }
  return out;
}
