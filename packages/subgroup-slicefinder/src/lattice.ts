import type { RunController } from '@fb/core';
import { AlphaInvesting } from './alpha-investing.js';
import type { SliceColumn } from './columns.js';
import { describeSlice, type EvaluatedSlice, moments, testInOrder } from './slice-stats.js';
import type { LossMoments } from './statistics.js';

/** A lattice slice: its items (attribute, code) and statistics. */
export interface LatticeSlice extends EvaluatedSlice {
  /** Attribute index of each predicate, ascending. */
  attributes: number[];
  /** Code of each predicate. */
  codes: number[];
  degree: number;
}

export interface LatticeParams {
  k: number;
  epsilon: number;
  alpha: number;
  /** Initial α-investing wealth (α when absent). */
  wealth?: number;
  degree: number;
  /** Smallest slice evaluated and tested. */
  minSize: number;
}

export interface LatticeResult {
  slices: LatticeSlice[];
  /** Candidates evaluated per degree. */
  evaluated: number[];
  tests: number;
  wealth: number;
  complete: boolean;
}

type Control = Pick<RunController, 'checkpoint'>;

interface Candidate {
  attributes: number[];
  codes: number[];
  rows: Int32Array;
}

const BLOCK = 256;

/** Rows in both ascending lists. */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) {
      out[k++] = x;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return out.subarray(0, k);
}

const keyOf = (attributes: number[], codes: number[]) => `${attributes}|${codes}`;

/** Whether dropping one predicate of the slice gives a problematic slice (which is not expanded). */
function hasProblematicParent(attributes: number[], codes: number[], problematic: Set<string>): boolean {
  if (problematic.size === 0) return false;
  for (let p = 0; p < attributes.length; p++) {
    const a = attributes.filter((_, q) => q !== p);
    const c = codes.filter((_, q) => q !== p);
    if (problematic.has(keyOf(a, c))) return true;
  }
  return false;
}

/** Base slices: one per code of every attribute with at least `minSize` rows, with its rows ascending. */
function baseSlices(columns: SliceColumn[], n: number, minSize: number): Candidate[] {
  const out: Candidate[] = [];
  columns.forEach((col, j) => {
    const rows = Array.from({ length: col.arity }, (_, c) => new Int32Array(col.counts[c]!));
    const fill = new Int32Array(col.arity);
    for (let i = 0; i < n; i++) {
      const c = col.codes[i]!;
      rows[c]![fill[c]!++] = i;
    }
    for (let c = 0; c < col.arity; c++) {
      if (col.counts[c]! >= Math.max(1, minSize)) out.push({ attributes: [j], codes: [c], rows: rows[c]! });
    }
  });
  return out;
}

/**
 * SliceFinder's lattice search (Chung et al., ICDE 2019). Degree 1 holds one slice per attribute
 * value (or bin). Each slice of at least `minSize` rows is compared with its counterpart (the other
 * rows) by Welch's one-sided test under α-investing; it is problematic when the test finds its loss
 * significantly higher and its effect size reaches ε. Problematic slices are recommended and not expanded; the others are crossed
 * with the non-problematic base slices of other attributes into the next degree, leaving out every
 * crossing that extends a problematic slice. The search stops
 * once k slices are recommended or at `degree`; the recommendation is the k largest.
 */
export async function latticeSearch(
  columns: SliceColumn[],
  loss: Float64Array,
  all: LossMoments,
  params: LatticeParams,
  ctl: Control,
): Promise<LatticeResult> {
  const n = loss.length;
  const investing = new AlphaInvesting(params.alpha, params.wealth ?? params.alpha);
  const base = baseSlices(columns, n, params.minSize);
  const recommended: LatticeSlice[] = [];
  const evaluated: number[] = [];
  let plainBase: Candidate[] = [];
  const problematicKeys = new Set<string>();
  let candidates = base;
  let complete = true;
  for (let degree = 1; degree <= params.degree && candidates.length > 0; degree++) {
    const stats: LatticeSlice[] = [];
    for (let t = 0; t < candidates.length; t++) {
      if (
        t % BLOCK === 0 &&
        (await ctl.checkpoint({ phase: `degree-${degree}`, done: t, total: candidates.length }))
      ) {
        complete = false;
        break;
      }
      const c = candidates[t]!;
      stats.push({
        ...describeSlice(all, moments(loss, c.rows)),
        attributes: c.attributes,
        codes: c.codes,
        degree,
      });
    }
    evaluated.push(stats.length);
    // Every evaluated slice is tested, larger slices first (stable: candidate order among equal
    // sizes); the order depends on sizes only, never on the losses.
    const order = stats.map((_, t) => t).sort((p, q) => stats[q]!.size - stats[p]!.size);
    testInOrder(
      order.map((t) => stats[t]!),
      params.epsilon,
      params.minSize,
      investing,
    );
    const plain: Candidate[] = [];
    stats.forEach((s, t) => {
      if (s.problematic) {
        recommended.push(s);
        problematicKeys.add(keyOf(s.attributes, s.codes));
      } else plain.push(candidates[t]!);
    });
    if (!complete || recommended.length >= params.k || degree === params.degree) break;
    if (degree === 1) plainBase = plain;

    // Cross: each non-problematic slice with each non-problematic base slice of another attribute.
    const next: Candidate[] = [];
    const seen = new Set<string>();
    let crossings = 0;
    for (let t = 0; t < plain.length && complete; t++) {
      const s = plain[t]!;
      for (const b of plainBase) {
        // Checked every 256 crossings: with many base slices one slice alone crosses hundreds.
        if (
          crossings++ % 256 === 0 &&
          (await ctl.checkpoint({ phase: `cross-${degree + 1}`, done: t, total: plain.length }))
        ) {
          complete = false;
          break;
        }
        const j = b.attributes[0]!;
        if (s.attributes.includes(j)) continue;
        const at = s.attributes.findIndex((a) => a > j);
        const pos = at < 0 ? s.attributes.length : at;
        const attributes = [...s.attributes.slice(0, pos), j, ...s.attributes.slice(pos)];
        const codes = [...s.codes.slice(0, pos), b.codes[0]!, ...s.codes.slice(pos)];
        const key = keyOf(attributes, codes);
        if (seen.has(key)) continue;
        seen.add(key);
        if (hasProblematicParent(attributes, codes, problematicKeys)) continue;
        const rows = intersect(s.rows, b.rows);
        if (rows.length >= Math.max(1, params.minSize)) next.push({ attributes, codes, rows });
      }
    }
    if (!complete) break;
    candidates = next;
  }
  recommended.sort((a, b) => b.size - a.size || (b.effectSize ?? 0) - (a.effectSize ?? 0));
  return {
    slices: recommended.slice(0, params.k),
    evaluated,
    tests: investing.tests,
    wealth: investing.wealth,
    complete,
  };
}
