import { createRng } from '@fb/core';
import type { RecodedTable } from '../src/index.js';

/** A random table of n rows over features with the given arities (values uniform). */
export function randomTable(n: number, arities: number[], seed: string): RecodedTable {
  const rng = createRng(seed);
  const m = arities.length;
  const codes = new Int32Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) codes[i * m + j] = rng.int(0, arities[j]! - 1);
  const attributes = arities.map((arity, j) => ({
    attribute: `f${j}`,
    binned: false,
    arity,
    distinctValues: arity,
    bins: [],
    condition: (code: number) => ({ attribute: `f${j}`, values: [code] }),
  }));
  return { n, m, codes, attributes };
}

export interface BruteSlice {
  /** "feature=code" terms joined by "&", features ascending. */
  key: string;
  size: number;
  error: number;
  score: number;
}

/**
 * Every conjunction of at most maxL feature = code predicates (one per feature), scored by the
 * SliceLine formula written out directly; the valid ones (score > 0, size >= minSup) sorted best first.
 */
export function bruteForce(
  table: RecodedTable,
  e: Float64Array,
  alpha: number,
  maxL: number,
  minSup: number,
): BruteSlice[] {
  const { n, m, codes, attributes } = table;
  let total = 0;
  for (let i = 0; i < n; i++) total += e[i]!;
  const mean = total / n;
  const out: BruteSlice[] = [];
  const recurse = (from: number, feats: number[], vals: number[]) => {
    if (feats.length > 0) {
      let size = 0;
      let error = 0;
      for (let i = 0; i < n; i++) {
        let ok = true;
        for (let t = 0; t < feats.length && ok; t++) ok = codes[i * m + feats[t]!] === vals[t];
        if (ok) {
          size++;
          error += e[i]!;
        }
      }
      if (size > 0) {
        const score = alpha * (error / size / mean - 1) - (1 - alpha) * (n / size - 1);
        if (score > 0 && size >= minSup) {
          out.push({ key: feats.map((f, t) => `${f}=${vals[t]}`).join('&'), size, error, score });
        }
      }
    }
    if (feats.length === maxL) return;
    for (let f = from; f < m; f++) {
      for (let v = 0; v < attributes[f]!.arity; v++) recurse(f + 1, [...feats, f], [...vals, v]);
    }
  };
  recurse(0, [], []);
  return out.sort((a, b) => b.score - a.score);
}
