import type { Classifier, ProtectedVariants } from '@fb/core';

/**
 * The paper's fitness: for each of the n inputs in `pop`, the largest gap, over its protected
 * variants, in the probability of the class the model predicts for the input. One model query for
 * the inputs and all their variants.
 */
export function probabilityGap(
  model: Classifier & { predictProba(x: Float64Array): Float64Array },
  variants: ProtectedVariants,
  pop: Float64Array,
  n: number,
): Float64Array {
  const { d, perInput } = variants;
  const block = perInput + 1;
  const rows = new Float64Array(n * block * d);
  const counts = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    rows.set(pop.subarray(i * d, (i + 1) * d), i * block * d);
    counts[i] = variants.write(pop, i * d, rows, (i * block + 1) * d);
  }
  const c = model.nClasses;
  const proba = model.predictProba(rows);
  const gap = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const own = i * block * c;
    let label = 0;
    for (let k = 1; k < c; k++) if (proba[own + k]! > proba[own + label]!) label = k;
    let best = 0;
    for (let v = 1; v <= counts[i]!; v++) {
      const g = Math.abs(proba[own + label]! - proba[(i * block + v) * c + label]!);
      if (g > best) best = g;
    }
    gap[i] = best;
  }
  return gap;
}
