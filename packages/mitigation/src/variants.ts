import {
  domainValues,
  MAX_VARIANTS,
  OptionsError,
  protectedIndices,
  type Schema,
  type VariantMode,
} from '@fb/core';

/**
 * Each row followed by its protected variants (the same row with other protected values), as the
 * counterfactual check builds them: every other combination of the protected values
 * (`all-combinations`) or every other value of one protected attribute at a time (`one-at-a-time`).
 * Returns `block` rows per input, the input first.
 */
export function protectedVariants(
  schema: Schema,
  rows: Float64Array,
  mode: VariantMode,
): { x: Float64Array; block: number } {
  const d = schema.attributes.length;
  const n = rows.length / d;
  const prot = protectedIndices(schema);
  const domains = prot.map((p) => domainValues(schema.attributes[p]!));
  const block =
    mode === 'all-combinations'
      ? domains.reduce((acc, dom) => acc * dom.length, 1)
      : domains.reduce((acc, dom) => acc + dom.length - 1, 1);
  if (block - 1 > MAX_VARIANTS) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `${block - 1} protected variants per input exceed ${MAX_VARIANTS}: use the one-at-a-time variant mode`,
      { option: '/variantMode' },
    );
  }
  const x = new Float64Array(n * block * d);
  const own = new Int32Array(prot.length);
  const combo = new Int32Array(prot.length);
  for (let i = 0; i < n; i++) {
    const src = rows.subarray(i * d, i * d + d);
    let out = i * block;
    x.set(src, out++ * d);
    prot.forEach((p, k) => {
      own[k] = nearest(domains[k]!, src[p]!);
    });
    if (mode === 'all-combinations') {
      combo.fill(0);
      for (let c = 0; c < block; c++) {
        if (c > 0) {
          // Odometer step over the protected value indices.
          let k = prot.length - 1;
          while (++combo[k]! === domains[k]!.length) combo[k--] = 0;
        }
        if (combo.every((v, k) => v === own[k])) continue;
        x.set(src, out * d);
        prot.forEach((p, k) => {
          x[out * d + p] = domains[k]![combo[k]!]!;
        });
        out++;
      }
    } else {
      prot.forEach((p, k) => {
        domains[k]!.forEach((value, v) => {
          if (v === own[k]) return;
          x.set(src, out * d);
          x[out * d + p] = value;
          out++;
        });
      });
    }
  }
  return { x, block };
}

/** Index of the domain value nearest to `v` (domains are sorted). */
function nearest(dom: Float64Array, v: number): number {
  let best = 0;
  for (let j = 1; j < dom.length; j++) if (Math.abs(dom[j]! - v) < Math.abs(dom[best]! - v)) best = j;
  return best;
}
