import { ProtectedVariants, type Schema, type VariantMode } from '@fb/core';

/**
 * Each row followed by its protected variants, built exactly as the shared counterfactual check
 * builds them (core's `ProtectedVariants`). Returns `block` rows per input, the input first.
 */
export function protectedVariants(
  schema: Schema,
  rows: Float64Array,
  mode: VariantMode,
): { x: Float64Array; block: number } {
  const variants = new ProtectedVariants(schema, mode);
  const d = variants.d;
  const n = rows.length / d;
  const block = variants.perInput + 1;
  const x = new Float64Array(n * block * d);
  for (let i = 0; i < n; i++) {
    x.set(rows.subarray(i * d, i * d + d), i * block * d);
    variants.write(rows, i * d, x, (i * block + 1) * d);
  }
  return { x, block };
}
