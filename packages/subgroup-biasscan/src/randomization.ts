import type { Rng } from '@fb/core';

/** One replicate of the null hypothesis: yᵢ* ~ Bernoulli(pᵢ), written into `out`. */
export function drawNullOutcomes(
  expectations: Float64Array,
  rng: Rng,
  out = new Float64Array(expectations.length),
): Float64Array {
  for (let i = 0; i < expectations.length; i++) out[i] = rng.next() < expectations[i]! ? 1 : 0;
  return out;
}

/**
 * Monte Carlo p-value of an observed maximum score against `replicates` null maxima of which
 * `atLeast` were ≥ it: (1 + atLeast) / (1 + replicates). Counting the observed scan as one draw
 * keeps the test valid under the null at every replicate count and never gives p = 0.
 * Null when no replicate was run.
 */
export function monteCarloPValue(atLeast: number, replicates: number): number | null {
  if (replicates === 0) return null;
  return (1 + atLeast) / (1 + replicates);
}
