import { type Dataset, DomainSampler, type Rng } from '@fb/core';
import type { TabularCodec } from './codec.js';

export interface NaturalnessReport {
  /** Rows measured per group. */
  sample: number;
  /** Mean distance from a generated candidate to its nearest real row. */
  generated: number | null;
  /** The same for the discriminatory candidates. */
  discriminatory: number | null;
  /** Baseline: real rows to the nearest other real row. */
  real: number;
  /** Baseline: uniform random inputs over the domain to the nearest real row. */
  uniform: number;
}

/** Real rows the distances are measured against. */
export const REFERENCE_ROWS = 2000;

/** Mean Euclidean distance from each of `q` query rows to its nearest of `r` reference rows (width p). */
export function meanNearest(
  query: Float64Array,
  q: number,
  reference: Float64Array,
  r: number,
  p: number,
  stop?: () => boolean,
): number {
  let total = 0;
  for (let i = 0; i < q; i++) {
    // A run's budget is polled every 64 rows: a stopped check has no value (NaN).
    if (stop && i % 64 === 0 && stop()) return Number.NaN;
    let best = Number.POSITIVE_INFINITY;
    for (let j = 0; j < r; j++) {
      let s = 0;
      for (let c = 0; c < p && s < best; c++) s += (query[i * p + c]! - reference[j * p + c]!) ** 2;
      if (s < best) best = s;
    }
    total += Math.sqrt(best);
  }
  return total / q;
}

/**
 * Naturalness of generated rows, LIMI's claim: the mean Euclidean distance to the nearest real row in
 * the codec's encoding (standardised numbers, one-hot categories), next to two baselines: real rows
 * (held out from the reference set) and uniform random inputs. Closer to `real` is more natural.
 */
export function naturalness(
  dataset: Dataset,
  codec: TabularCodec,
  generated: Float64Array,
  nGenerated: number,
  discriminatory: Float64Array,
  nDiscriminatory: number,
  sample: number,
  rng: Rng,
): NaturalnessReport {
  const { n, d, x } = dataset;
  const p = codec.width;
  const shuffled = rng.sampleIndices(n, n);
  const heldOut = Math.min(sample, Math.floor(n / 2));
  const r = Math.min(REFERENCE_ROWS, n - heldOut);
  const pick = (from: number, count: number) => {
    const rows = new Float64Array(count * d);
    for (let i = 0; i < count; i++)
      rows.set(x.subarray(shuffled[from + i]! * d, (shuffled[from + i]! + 1) * d), i * d);
    return codec.encode(rows, count);
  };
  const reference = pick(0, r);
  const real = heldOut > 0 ? meanNearest(pick(r, heldOut), heldOut, reference, r, p) : 0;
  const uniformRows = new Float64Array(sample * d);
  new DomainSampler(dataset.schema).fill(rng, uniformRows);
  const measure = (rows: Float64Array, count: number) => {
    const m = Math.min(count, sample);
    return m === 0 ? null : meanNearest(codec.encode(rows, m), m, reference, r, p);
  };
  return {
    sample,
    generated: measure(generated, nGenerated),
    discriminatory: measure(discriminatory, nDiscriminatory),
    real,
    uniform: measure(uniformRows, sample)!,
  };
}
