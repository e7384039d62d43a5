import type { Rng } from '@fb/core';

/**
 * ADF's local attribute probabilities: attribute j (non-protected) is chosen with probability
 * proportional to 1 / (|g_j| + |g'_j| + epsilon), so that the walk prefers attributes that barely
 * move the decision of the pair and stays near the boundary. With epsilon = 0, attributes whose two
 * gradients are both zero would get an infinite weight: they then share the probability equally (the
 * limit of the rule), and when every gradient is zero the choice is uniform, as in the original.
 * Writes `movable.length` probabilities into `out[outOff..]`.
 */
export function inverseGradientProbabilities(
  g: Float64Array,
  gTwin: Float64Array,
  off: number,
  movable: Int32Array,
  epsilon: number,
  out: Float64Array,
  outOff: number,
): void {
  const m = movable.length;
  let zeros = 0;
  for (let k = 0; k < m; k++) {
    const j = off + movable[k]!;
    if (Math.abs(g[j]!) + Math.abs(gTwin[j]!) + epsilon === 0) zeros++;
  }
  let total = 0;
  for (let k = 0; k < m; k++) {
    const j = off + movable[k]!;
    const denominator = Math.abs(g[j]!) + Math.abs(gTwin[j]!) + epsilon;
    const w = zeros > 0 ? (denominator === 0 ? 1 : 0) : 1 / denominator;
    out[outOff + k] = w;
    total += w;
  }
  for (let k = 0; k < m; k++) out[outOff + k]! /= total;
}

/** Index k in [0, m) drawn with probability `p[off + k]` (p sums to 1 over the m entries). */
export function drawIndex(rng: Rng, p: Float64Array, off: number, m: number): number {
  let r = rng.next();
  for (let k = 0; k < m; k++) {
    r -= p[off + k]!;
    if (r < 0) return k;
  }
  // Rounding can leave r just above 0: take the last attribute with positive probability.
  for (let k = m - 1; k >= 0; k--) if (p[off + k]! > 0) return k;
  return m - 1;
}
