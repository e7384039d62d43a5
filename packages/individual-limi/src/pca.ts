import { type Dataset, type Rng, symmetricEigen } from '@fb/core';
import type { TabularCodec } from './codec.js';
import { type LatentGenerator, normalLatent } from './generator.js';

/**
 * A linear-Gaussian generator: the encoded data's mean plus its top principal components scaled by
 * their standard deviations, so that z ~ N(0, I) decodes to the Gaussian approximation of the data
 * restricted to k components (probabilistic PCA without noise).
 */
export function fitPcaGenerator(dataset: Dataset, codec: TabularCodec, latentDim: number): LatentGenerator {
  const { n } = dataset;
  const p = codec.width;
  const e = codec.encode(dataset.x, n);
  const mean = new Float64Array(p);
  for (let i = 0; i < n; i++) for (let c = 0; c < p; c++) mean[c]! += e[i * p + c]!;
  for (let c = 0; c < p; c++) mean[c]! /= n;
  const cov = new Float64Array(p * p);
  const row = new Float64Array(p);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < p; c++) row[c] = e[i * p + c]! - mean[c]!;
    for (let a = 0; a < p; a++) {
      const ra = row[a]!;
      if (ra === 0) continue;
      for (let b = a; b < p; b++) cov[a * p + b]! += ra * row[b]!;
    }
  }
  for (let a = 0; a < p; a++)
    for (let b = a; b < p; b++) {
      cov[a * p + b]! /= n;
      cov[b * p + a] = cov[a * p + b]!;
    }
  const { values, vectors } = symmetricEigen(cov, p);
  let k = Math.min(latentDim, p);
  while (k > 1 && !(values[k - 1]! > 1e-12 * values[0]!)) k--;
  const loading = new Float64Array(k * p);
  for (let r = 0; r < k; r++) {
    const sd = Math.sqrt(Math.max(values[r]!, 0));
    for (let c = 0; c < p; c++) loading[r * p + c] = sd * vectors[r * p + c]!;
  }
  return {
    k,
    kind: 'pca',
    sampleLatent: (rng: Rng, m: number) => normalLatent(rng, m, k),
    decode(z: Float64Array, m: number): Float64Array {
      const enc = new Float64Array(m * p);
      for (let i = 0; i < m; i++) {
        enc.set(mean, i * p);
        for (let r = 0; r < k; r++) {
          const zr = z[i * k + r]!;
          for (let c = 0; c < p; c++) enc[i * p + c]! += zr * loading[r * p + c]!;
        }
      }
      const out = new Float64Array(m * codec.d);
      codec.decode(enc, m, out);
      return out;
    },
  };
}
