import type { Rng } from '@fb/core';
import type { Hyperplane } from './probe.js';

/**
 * LIMI's probes of a batch of latent vectors z, decoded without forming them: `load` takes the batch
 * (m x k), `decode(side, index, take)` the rows of z0 = z - (w·z + b)·w (side 0) or z0 ± lambda·w
 * (side ±1) for the vectors index[0..take).
 */
export interface LatentProber {
  load(z: Float64Array, m: number): void;
  decode(side: -1 | 0 | 1, index: Int32Array, take: number): Float64Array;
}

/** A generative model with a latent space: latent vectors drawn by `sampleLatent` decode to data rows. */
export interface LatentGenerator {
  /** Latent dimension. */
  readonly k: number;
  readonly kind: 'tvae' | 'vae' | 'pca';
  /** `m` latent vectors (m x k) from the generator's latent distribution. */
  sampleLatent(rng: Rng, m: number): Float64Array;
  /** Decode `m` latent vectors (m x k) into rows on the schema's domain (m x d). */
  decode(z: Float64Array, m: number): Float64Array;
  /** A faster decoder of the probes around `plane` (the generators whose decoder allows one). */
  prober?(plane: Hyperplane, lambda: number): LatentProber;
}

/** `m` latent vectors of N(0, I_k): the latent distribution of the VAE and PCA generators. */
export function normalLatent(rng: Rng, m: number, k: number): Float64Array {
  return Float64Array.from({ length: m * k }, () => rng.normal());
}
