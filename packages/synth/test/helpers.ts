import { Hasher } from '@fb/core';
import type { SynthResult } from '../src/index.js';
import { normalQuantile } from '../src/normal.js';

/** A hasher fed a generated data set's rows, labels and every per-row truth array, in that order. */
export function outputHasher(r: SynthResult): Hasher {
  const t = r.truth;
  return new Hasher()
    .numbers(r.dataset.x)
    .numbers(r.dataset.y)
    .numbers(t.subgroupOf)
    .numbers(t.bias)
    .numbers(t.epistemicSigma)
    .numbers(t.aleatoricSigma)
    .numbers(t.aleatoricNoise)
    .numbers(t.probability)
    .numbers(t.counterfactualProbability)
    .numbers(t.counterfactualLabel);
}

/** Digest of `outputHasher`'s arrays. */
export const outputDigest = (r: SynthResult): string => outputHasher(r).digest();

/** Van der Waerden normal scores of a column (mid-ranks for ties), computed independently of the generator. */
export function normalScores(col: Float64Array): Float64Array {
  const n = col.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => col[a]! - col[b]!);
  const out = new Float64Array(n);
  for (let i = 0; i < n; ) {
    let j = i;
    while (j < n && col[order[j]!] === col[order[i]!]) j++;
    const z = normalQuantile((i + j + 1) / 2 / (n + 1));
    for (let k = i; k < j; k++) out[order[k]!] = z;
    i = j;
  }
  return out;
}

export function column(x: Float64Array, d: number, j: number): Float64Array {
  return Float64Array.from({ length: x.length / d }, (_, i) => x[i * d + j]!);
}

export function pearson(a: Float64Array, b: Float64Array): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  return saa && sbb ? sab / Math.sqrt(saa * sbb) : 0;
}

/** Plug-in mutual information (nats) of two discrete columns (codes, grid values or bin indices). */
export function mutualInformation(a: Float64Array, b: Float64Array): number {
  const n = a.length;
  const ka = new Map<number, number>();
  const kb = new Map<number, number>();
  const kab = new Map<number, [number, number, number]>();
  for (let i = 0; i < n; i++) {
    ka.set(a[i]!, (ka.get(a[i]!) ?? 0) + 1);
    kb.set(b[i]!, (kb.get(b[i]!) ?? 0) + 1);
    // Discrete codes and bin indices are small integers, so the pair packs into one number.
    const key = a[i]! * 1e6 + b[i]!;
    const cell = kab.get(key);
    if (cell) cell[2]++;
    else kab.set(key, [a[i]!, b[i]!, 1]);
  }
  let mi = 0;
  for (const [va, vb, c] of kab.values()) mi += (c / n) * Math.log((c * n) / (ka.get(va)! * kb.get(vb)!));
  return mi;
}

/** Cut a continuous column into `bins` bins at the quantiles of `ref`. */
export function binAt(col: Float64Array, ref: Float64Array, bins: number): Float64Array {
  const sorted = Float64Array.from(ref).sort();
  const edges = Array.from(
    { length: bins - 1 },
    (_, k) => sorted[Math.floor(((k + 1) * sorted.length) / bins)]!,
  );
  return Float64Array.from(col, (v) => edges.filter((e) => v >= e).length);
}
