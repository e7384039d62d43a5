import type { Rng } from '@fb/core';

/** A generative model with a latent space: latent vectors drawn by `sampleLatent` decode to data rows. */
export interface LatentGenerator {
  /** Latent dimension. */
  readonly k: number;
  readonly kind: 'tvae' | 'vae' | 'pca';
  /** `m` latent vectors (m x k) from the generator's latent distribution. */
  sampleLatent(rng: Rng, m: number): Float64Array;
  /** Decode `m` latent vectors (m x k) into rows on the schema's domain (m x d). */
  decode(z: Float64Array, m: number): Float64Array;
}

/** `m` latent vectors of N(0, I_k): the latent distribution of the VAE and PCA generators. */
export function normalLatent(rng: Rng, m: number, k: number): Float64Array {
  return Float64Array.from({ length: m * k }, () => rng.normal());
}
