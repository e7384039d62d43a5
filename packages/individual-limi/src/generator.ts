/** A generative model with a latent space: latent vectors drawn from N(0, I) decode to data rows. */
export interface LatentGenerator {
  /** Latent dimension. */
  readonly k: number;
  readonly kind: 'vae' | 'pca';
  /** Decode `m` latent vectors (m x k) into rows on the schema's domain (m x d). */
  decode(z: Float64Array, m: number): Float64Array;
}
