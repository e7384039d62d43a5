import { OptionsError, type Schema } from '@fb/core';

/** Largest number of bins per feature: bin codes are stored as bytes. */
export const MAX_BINS = 256;

/**
 * Discretises each feature once, before any tree is grown: a categorical attribute keeps its exact codes
 * (one bin per category), a numeric one gets one bin per distinct training value, or quantile bins when it
 * has more distinct values than `maxBins`. Splits are searched between occupied bins; the threshold put in
 * the tree is the midpoint between the largest training value of the left bin and the smallest of the
 * right one, so trees predict from raw values without binning.
 */
/** What a `FeatureBinner` holds, as structured-clonable arrays. */
export interface BinnerParts {
  readonly nBins: Int32Array;
  readonly edges: Float64Array[];
  readonly lower: Float64Array[];
  readonly upper: Float64Array[];
  readonly exact: boolean[];
}

export class FeatureBinner {
  readonly nFeatures: number;
  /** Bins per feature. */
  readonly nBins: Int32Array;
  /** Upper edge of every bin but the last, per feature: v goes to the first bin with v <= edge. */
  private readonly edges: Float64Array[];
  /** Smallest and largest training value of each bin, per feature (exact codes: the code itself). */
  private readonly lower: Float64Array[];
  private readonly upper: Float64Array[];
  private readonly exact: boolean[];

  private constructor(
    nBins: Int32Array,
    edges: Float64Array[],
    lower: Float64Array[],
    upper: Float64Array[],
    exact: boolean[],
  ) {
    this.nFeatures = nBins.length;
    this.nBins = nBins;
    this.edges = edges;
    this.lower = lower;
    this.upper = upper;
    this.exact = exact;
  }

  /**
   * Learn the bins from n row-major training rows (already checked finite and in domain); when `weight` is
   * given, only rows of positive weight count.
   */
  static fit(
    schema: Schema,
    x: Float64Array,
    n: number,
    maxBins: number,
    weight?: Float64Array,
  ): FeatureBinner {
    if (!Number.isInteger(maxBins) || maxBins < 2 || maxBins > MAX_BINS) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `maxBins must be an integer in [2, ${MAX_BINS}], got ${maxBins}`,
        {
          option: '/maxBins',
        },
      );
    }
    const d = schema.attributes.length;
    const nBins = new Int32Array(d);
    const edges: Float64Array[] = [];
    const lower: Float64Array[] = [];
    const upper: Float64Array[] = [];
    const exact: boolean[] = [];
    // Without weights every row counts, and the columns are read without a row list.
    const rows = weight ? weightedRows(n, weight) : null;
    const column = new Float64Array(rows ? rows.length : n);
    for (let j = 0; j < d; j++) {
      const a = schema.attributes[j]!;
      const k = a.categories?.length ?? 0;
      if (a.kind === 'categorical' && k <= MAX_BINS) {
        const codes = Float64Array.from({ length: k }, (_, c) => c);
        nBins[j] = k;
        edges.push(Float64Array.from({ length: Math.max(k - 1, 0) }, (_, c) => c + 0.5));
        lower.push(codes);
        upper.push(codes.slice());
        exact.push(true);
        continue;
      }
      gatherColumn(x, d, j, rows, column);
      column.sort();
      const { lo, hi } = quantileBins(column, maxBins);
      const e = new Float64Array(lo.length - 1);
      for (let b = 0; b < e.length; b++) e[b] = midpoint(hi[b]!, lo[b + 1]!);
      nBins[j] = lo.length;
      edges.push(e);
      lower.push(lo);
      upper.push(hi);
      exact.push(false);
    }
    return new FeatureBinner(nBins, edges, lower, upper, exact);
  }

  /** The bins as plain arrays, for a helper thread to rebuild the binner (`fromParts`). */
  parts(): BinnerParts {
    const { nBins, edges, lower, upper, exact } = this;
    return { nBins, edges, lower, upper, exact };
  }

  static fromParts(p: BinnerParts): FeatureBinner {
    return new FeatureBinner(p.nBins, p.edges, p.lower, p.upper, p.exact);
  }

  /** Bin codes of n row-major rows, feature-major: code of row i, feature j at j * n + i. */
  transform(x: Float64Array, n: number): Uint8Array {
    const d = this.nFeatures;
    const out = new Uint8Array(d * n);
    for (let j = 0; j < d; j++) {
      if (this.exact[j]) exactCodes(x, n, d, j, out);
      else searchCodes(x, n, d, j, this.edges[j]!, out);
    }
    return out;
  }

  /** Raw-unit threshold separating bin `leftBin` (goes left) from bin `rightBin` > leftBin of feature j. */
  threshold(j: number, leftBin: number, rightBin: number): number {
    return midpoint(this.upper[j]![leftBin]!, this.lower[j]![rightBin]!);
  }
}

/** A value strictly between a < b when one exists (a itself when they are adjacent doubles), as CART does. */
function midpoint(a: number, b: number): number {
  const m = a / 2 + b / 2;
  return m >= b || m < a ? a : m;
}

// The loops below are functions of their own: code after a long loop, not yet run when V8 optimises the
// loop, sends the rest of its function back to the interpreter when first reached.

/** Indices of the rows of positive weight (all n rows without weights). */
function weightedRows(n: number, weight: Float64Array | undefined): Int32Array {
  const rows = new Int32Array(n);
  return rows.subarray(0, listWeighted(n, weight, rows));
}

/**
 * The rows of positive weight into rows; returns their count. The loop is a function with nothing after
 * it: the `subarray` after it, with no type feedback when V8 optimised the running loop, threw the
 * function out of its optimised code in the first fit and again in the second (`--trace-deopt`).
 */
function listWeighted(n: number, weight: Float64Array | undefined, rows: Int32Array): number {
  let m = 0;
  for (let i = 0; i < n; i++) if (!weight || weight[i]! > 0) rows[m++] = i;
  return m;
}

/** Feature j of the given rows (all rows when null) of row-major x (width d), into column. */
function gatherColumn(
  x: Float64Array,
  d: number,
  j: number,
  rows: Int32Array | null,
  column: Float64Array,
): void {
  if (rows) for (let r = 0; r < rows.length; r++) column[r] = x[rows[r]! * d + j]!;
  else for (let r = 0; r < column.length; r++) column[r] = x[r * d + j]!;
}

/** Bin codes of feature j when its bins are its exact (categorical) codes, into out from j * n. */
function exactCodes(x: Float64Array, n: number, d: number, j: number, out: Uint8Array): void {
  const base = j * n;
  for (let i = 0; i < n; i++) out[base + i] = Math.round(x[i * d + j]!);
}

/** Bin codes of feature j against its upper bin edges e, into out from j * n. */
function searchCodes(
  x: Float64Array,
  n: number,
  d: number,
  j: number,
  e: Float64Array,
  out: Uint8Array,
): void {
  const base = j * n;
  const last = e.length;
  for (let i = 0; i < n; i++) {
    const v = x[i * d + j]!;
    // First edge >= v by binary search; past every edge means the last bin.
    let lo = 0;
    let hi = last;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (e[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    out[base + i] = lo;
  }
}

/** The number of distinct values of a sorted array. */
function distinctCount(sorted: Float64Array): number {
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
  return distinct;
}

/**
 * Bins over sorted values: one per distinct value when there are at most maxBins of them, else greedy
 * quantile bins that close once their cumulative count reaches the next multiple of n / maxBins (a
 * heavily repeated value thus gets a bin of its own). Returns each bin's smallest and largest value.
 */
function quantileBins(sorted: Float64Array, maxBins: number): { lo: Float64Array; hi: Float64Array } {
  const distinct = distinctCount(sorted);
  if (distinct > maxBins) return greedyBins(sorted, maxBins);
  const lo = distinctBins(sorted, distinct);
  return { lo, hi: lo.slice() };
}

/** The distinct values of a sorted array with `distinct` of them. */
function distinctBins(sorted: Float64Array, distinct: number): Float64Array {
  const lo = new Float64Array(distinct);
  let m = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) lo[m++] = sorted[i]!;
  return lo;
}

/** Greedy quantile bins (see `quantileBins`), at most maxBins of them. */
function greedyBins(sorted: Float64Array, maxBins: number): { lo: Float64Array; hi: Float64Array } {
  const lo = new Float64Array(maxBins);
  const hi = new Float64Array(maxBins);
  const m = greedyEdges(sorted, maxBins, lo, hi);
  return { lo: lo.slice(0, m), hi: hi.slice(0, m) };
}

/** The bins of `greedyBins` into lo and hi; returns their count (a loop alone: see `listWeighted`). */
function greedyEdges(sorted: Float64Array, maxBins: number, lo: Float64Array, hi: Float64Array): number {
  const n = sorted.length;
  const step = n / maxBins;
  let m = 0;
  let start = 0;
  for (let i = 0; i < n; ) {
    let end = i + 1;
    while (end < n && sorted[end] === sorted[i]) end++;
    if (end === n || (maxBins - m > 1 && end >= (m + 1) * step)) {
      lo[m] = sorted[start]!;
      hi[m] = sorted[end - 1]!;
      m++;
      start = end;
    }
    i = end;
  }
  return m;
}
