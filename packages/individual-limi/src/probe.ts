/** A hyperplane w·z + b = 0 in the latent space with unit normal w (positive side: favourable). */
export interface Hyperplane {
  w: Float64Array;
  b: number;
}

/**
 * LIMI's probes of `m` latent vectors (m x k): the projection onto the hyperplane,
 * z0 = z - (w·z + b) w, and z0 + lambda·w, z0 - lambda·w (on either side at distance lambda).
 */
export function probeCandidates(
  z: Float64Array,
  m: number,
  plane: Hyperplane,
  lambda: number,
): { onBoundary: Float64Array; plus: Float64Array; minus: Float64Array } {
  const k = plane.w.length;
  const onBoundary = new Float64Array(m * k);
  const plus = new Float64Array(m * k);
  const minus = new Float64Array(m * k);
  for (let i = 0; i < m; i++) {
    let dist = plane.b;
    for (let r = 0; r < k; r++) dist += plane.w[r]! * z[i * k + r]!;
    for (let r = 0; r < k; r++) {
      const z0 = z[i * k + r]! - dist * plane.w[r]!;
      onBoundary[i * k + r] = z0;
      plus[i * k + r] = z0 + lambda * plane.w[r]!;
      minus[i * k + r] = z0 - lambda * plane.w[r]!;
    }
  }
  return { onBoundary, plus, minus };
}
