/**
 * Monte Carlo p-value of an observed maximum against `replicates` null maxima of which `atLeast` were
 * ≥ it: (1 + atLeast) / (1 + replicates). Counting the observed scan as one draw keeps the test valid
 * at every replicate count and never gives p = 0. Null when no replicate was run.
 */
export function monteCarloPValue(atLeast: number, replicates: number): number | null {
  if (replicates === 0) return null;
  return (1 + atLeast) / (1 + replicates);
}
