import { DataError, OptionsError, type Schema } from '@fb/core';
import { BINNING_WASM } from './wasm/binning-wasm.js';
import {
  instanceOn,
  layout,
  lazyModule,
  MAX_MEMORY,
  type WasmMemory,
  wasmApi,
  workingMemory,
} from './wasm-api.js';

/** Largest number of bins per feature: bin codes are stored as bytes. */
export const MAX_BINS = 256;

/** What a `FeatureBinner` holds, as structured-clonable arrays. */
export interface BinnerParts {
  readonly nBins: Int32Array;
  readonly edges: Float64Array[];
  readonly lower: Float64Array[];
  readonly upper: Float64Array[];
  readonly exact: boolean[];
}

/**
 * Discretises each feature once, before any tree is grown: a categorical attribute keeps its exact codes
 * (one bin per category), a numeric one gets one bin per distinct training value, or quantile bins when it
 * has more distinct values than `maxBins`. Splits are searched between occupied bins; the threshold put in
 * the tree is the midpoint between the largest training value of the left bin and the smallest of the
 * right one, so trees predict from raw values without binning.
 */
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
    return binTable(schema, x, n, maxBins, weight, false).binner;
  }

  /** `fit`, then `transform` of the same rows: each feature goes to the binning kernels once. */
  static fitTransform(
    schema: Schema,
    x: Float64Array,
    n: number,
    maxBins: number,
    weight?: Float64Array,
  ): { binner: FeatureBinner; codes: Uint8Array } {
    const { binner, codes } = binTable(schema, x, n, maxBins, weight, true);
    return { binner, codes: codes! };
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
    const kernels = binningKernels(binningLayout(n, d), n, d);
    const parts = this.parts();
    for (let j = 0; j < d; j++) {
      kernels.gather(x, n, d, j);
      codeFeature(kernels, parts, j, n);
    }
    return kernels.takeCodes(n * d);
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

/** The binning kernels of src/wasm/binning.wat; pointers are byte offsets into their memory. */
interface BinningExports {
  gather(x: number, d: number, j: number, hasRows: number, rows: number, count: number, column: number): void;
  distinct(sorted: number, n: number, out: number): number;
  greedy(sorted: number, n: number, maxBins: number, lo: number, hi: number): number;
  search(x: number, n: number, d: number, j: number, e: number, last: number, codes: number): void;
  exact(x: number, n: number, d: number, j: number, codes: number): void;
}

/**
 * Where a binning call lays out one feature's values in row order, its sorted column, the row list, the
 * bins and the codes in the kernels' memory.
 */
interface BinningLayout {
  values: number;
  column: number;
  rows: number;
  lo: number;
  hi: number;
  edges: number;
  codes: number;
  end: number;
}

function binningLayout(n: number, d: number): BinningLayout {
  const regions = layout(0);
  const take = (length: number, bytes: number): number => regions.take(length, bytes).at;
  return {
    values: take(n, 8),
    column: take(n, 8),
    rows: take(n, 4),
    lo: take(MAX_BINS, 8),
    hi: take(MAX_BINS, 8),
    edges: take(MAX_BINS, 8),
    codes: take(n * d, 1),
    get end() {
      return regions.end;
    },
  };
}

const binningModule = lazyModule(BINNING_WASM, true);

/** The kernels on a memory of at least `at.end` bytes, for one binning call. */
class BinningKernels {
  constructor(
    readonly k: BinningExports,
    private readonly memory: WasmMemory,
    readonly at: BinningLayout,
  ) {}

  view(at: number, length: number): Float64Array {
    return new Float64Array(this.memory.buffer, at, length);
  }

  rows(length: number): Int32Array {
    return new Int32Array(this.memory.buffer, this.at.rows, length);
  }

  /**
   * Feature j of the n row-major rows of x (width d) into the values region. One feature at a time, not
   * the whole table: a copy of the table took a process's first fit 825 page faults on Adult (1.1 ms) for
   * memory the kernels then read one feature at a time.
   */
  gather(x: Float64Array, n: number, d: number, j: number): void {
    gatherFeature(x, n, d, j, this.view(this.at.values, n));
  }

  /** A copy of the codes region. */
  takeCodes(length: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, this.at.codes, length).slice();
  }
}

function binningKernels(at: BinningLayout, n: number, d: number): BinningKernels {
  const module = binningModule();
  if (!wasmApi || !module) {
    throw new Error(
      '@fb/models bins features with WebAssembly, which this JavaScript runtime does not provide',
    );
  }
  if (at.end > MAX_MEMORY) {
    throw new DataError(
      'DATA_SHAPE',
      `${n} rows of ${d} features need ${at.end} bytes of working memory to bin, more than the ` +
        `${MAX_MEMORY} WebAssembly can address: fit on fewer rows`,
    );
  }
  // The thread's working memory, shared with the tree builder (see `workingMemory`).
  const memory = workingMemory(at.end);
  return new BinningKernels(instanceOn(module, memory) as BinningExports, memory, at);
}

/**
 * The bins of every feature of n row-major rows (see `FeatureBinner`), and with `withCodes` every row's
 * codes: one feature at a time, its values are gathered into the kernels' memory in row order; a
 * continuous one's values (of the rows that count) are copied into a column, sorted (the typed array's
 * own sort) and binned by the kernels, then its codes found, while its values are still there.
 */
function binTable(
  schema: Schema,
  x: Float64Array,
  n: number,
  maxBins: number,
  weight: Float64Array | undefined,
  withCodes: boolean,
): { binner: FeatureBinner; codes: Uint8Array | null } {
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
  const kernels = binningKernels(binningLayout(n, d), n, d);
  const { k, at } = kernels;
  // Without weights every row counts, and the columns are read without a row list.
  const count = weight ? listWeighted(n, weight, kernels.rows(n)) : n;
  const nBins = new Int32Array(d);
  const edges: Float64Array[] = [];
  const lower: Float64Array[] = [];
  const upper: Float64Array[] = [];
  const exact: boolean[] = [];
  // Filled feature by feature: feature j's entries are in place when its codes are found.
  const parts: BinnerParts = { nBins, edges, lower, upper, exact };
  for (let j = 0; j < d; j++) {
    const a = schema.attributes[j]!;
    const categories = a.categories?.length ?? 0;
    if (a.kind === 'categorical' && categories <= MAX_BINS) {
      const codes = Float64Array.from({ length: categories }, (_, c) => c);
      nBins[j] = categories;
      edges.push(Float64Array.from({ length: Math.max(categories - 1, 0) }, (_, c) => c + 0.5));
      lower.push(codes);
      upper.push(codes.slice());
      exact.push(true);
      if (withCodes) {
        kernels.gather(x, n, d, j);
        codeFeature(kernels, parts, j, n);
      }
      continue;
    }
    kernels.gather(x, n, d, j);
    // The rows that count, in row order, into the column to sort.
    k.gather(at.values, 1, 0, weight ? 1 : 0, at.rows, count, at.column);
    kernels.view(at.column, count).sort();
    const distinct = k.distinct(at.column, count, -1);
    let lo: Float64Array;
    let hi: Float64Array;
    if (distinct > maxBins) {
      const m = k.greedy(at.column, count, maxBins, at.lo, at.hi);
      lo = kernels.view(at.lo, m).slice();
      hi = kernels.view(at.hi, m).slice();
    } else {
      k.distinct(at.column, count, at.lo);
      lo = kernels.view(at.lo, distinct).slice();
      hi = lo.slice();
    }
    const e = new Float64Array(lo.length - 1);
    for (let b = 0; b < e.length; b++) e[b] = midpoint(hi[b]!, lo[b + 1]!);
    nBins[j] = lo.length;
    edges.push(e);
    lower.push(lo);
    upper.push(hi);
    exact.push(false);
    // The feature's values are still in row order in the values region.
    if (withCodes) codeFeature(kernels, parts, j, n);
  }
  const binner = FeatureBinner.fromParts(parts);
  if (!withCodes) return { binner, codes: null };
  return { binner, codes: kernels.takeCodes(n * d) };
}

/** Feature j's bin codes of the n values in the values region, into the codes from j * n. */
function codeFeature(kernels: BinningKernels, bins: BinnerParts, j: number, n: number): void {
  const { k, at } = kernels;
  if (bins.exact[j]) {
    k.exact(at.values, n, 1, 0, at.codes + j * n);
    return;
  }
  const e = bins.edges[j]!;
  kernels.view(at.edges, e.length).set(e);
  k.search(at.values, n, 1, 0, at.edges, e.length, at.codes + j * n);
}

/** Feature j of n row-major rows of width d into out (a loop of its own, see `listWeighted`). */
function gatherFeature(x: Float64Array, n: number, d: number, j: number, out: Float64Array): void {
  for (let i = 0, p = j; i < n; i++, p += d) out[i] = x[p]!;
}

/**
 * The rows of positive weight into rows; returns their count. The loop is a function with nothing after
 * it: code after a loop, with no type feedback when V8 optimised the running loop, threw the function
 * out of its optimised code in the first fit and again in the second (`--trace-deopt`).
 */
function listWeighted(n: number, weight: Float64Array, rows: Int32Array): number {
  let m = 0;
  for (let i = 0; i < n; i++) if (weight[i]! > 0) rows[m++] = i;
  return m;
}
