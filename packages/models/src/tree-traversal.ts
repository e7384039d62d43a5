import { ModelError } from '@fb/core';

/** The node arrays a coded walk needs (see `TreeArrays`). */
export interface SplitNodes {
  readonly feature: Int32Array;
  readonly threshold: Float64Array;
  readonly left: Int32Array;
  /** Class distribution per node, nodeCount x K. */
  readonly value: Float64Array;
}

// Codes per block (1 MB): every tree walks the whole block while its nodes stay in cache, so the larger
// the block, the fewer times each tree is fetched.
const BLOCK_CODES = 1 << 18;

/**
 * Trees compiled for batch prediction. Each split threshold of feature j is replaced by its rank among the
 * distinct thresholds of j over all the trees, and each row is encoded once per batch as, per feature, the
 * count of those thresholds below its value: then x <= threshold iff code <= rank, exactly. A node is two
 * int32s, (rank << featureBits | feature, left child); a leaf's second int is ~(its index in a table of
 * leaf distributions), so a walk reads only nodes and codes until it reads its leaf's distribution.
 */
export class CodedTrees {
  private readonly d: number;
  private readonly K: number;
  private readonly featureBits: number;
  /** Distinct thresholds per feature, ascending. */
  private readonly cuts: Float64Array[];
  private readonly nodes: Int32Array[];
  /** Per tree: class distribution of each leaf, in node order. */
  private readonly leaves: Float64Array[];

  constructor(trees: readonly SplitNodes[], d: number, K: number) {
    this.d = d;
    this.K = K;
    const perFeature: number[][] = Array.from({ length: d }, () => []);
    for (const t of trees) {
      for (let i = 0; i < t.left.length; i++) {
        const v = t.threshold[i]!;
        if (t.left[i]! >= 0 && !Number.isNaN(v)) perFeature[t.feature[i]!]!.push(v);
      }
    }
    this.cuts = perFeature.map((list) => {
      const sorted = Float64Array.from(list).sort();
      let m = 0;
      for (let i = 0; i < sorted.length; i++)
        if (m === 0 || sorted[i] !== sorted[m - 1]) sorted[m++] = sorted[i]!;
      return sorted.slice(0, m);
    });
    const bits = Math.max(1, Math.ceil(Math.log2(d)));
    const maxCuts = this.cuts.reduce((a, c) => Math.max(a, c.length), 0);
    // Fitted trees have at most 256 * 255 / 2 distinct thresholds per feature (midpoints between bins).
    if (maxCuts >= 2 ** (31 - bits)) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `${maxCuts} distinct thresholds on one feature of ${d}: too many to encode a tree's nodes`,
      );
    }
    this.featureBits = bits;
    this.nodes = [];
    this.leaves = [];
    for (const t of trees) {
      const m = t.left.length;
      const rec = new Int32Array(2 * m);
      let leafCount = 0;
      for (let i = 0; i < m; i++) if (t.left[i]! < 0) leafCount++;
      const leaf = new Float64Array(leafCount * K);
      leafCount = 0;
      for (let i = 0; i < m; i++) {
        const l = t.left[i]!;
        if (l < 0) {
          rec[2 * i + 1] = ~leafCount;
          leaf.set(t.value.subarray(i * K, i * K + K), leafCount * K);
          leafCount++;
          continue;
        }
        const f = t.feature[i]!;
        const v = t.threshold[i]!;
        // A NaN threshold sends every row right: rank -1 is below every code.
        const rank = Number.isNaN(v) ? -1 : lowerBound(this.cuts[f]!, v);
        rec[2 * i] = (rank << bits) | f;
        rec[2 * i + 1] = l;
      }
      this.nodes.push(rec);
      this.leaves.push(leaf);
    }
  }

  /** Add every tree's leaf class distribution for the n rows of x (checked, width d) to out (n x K). */
  addLeafValues(x: Float64Array, n: number, out: Float64Array): void {
    const { d, K, nodes, leaves, featureBits } = this;
    const block = Math.min(n, Math.max(8, Math.floor(BLOCK_CODES / d)));
    const codes = new Int32Array(block * d);
    for (let lo = 0; lo < n; lo += block) {
      const rows = Math.min(block, n - lo);
      this.encode(x, lo, rows, codes);
      for (let t = 0; t < nodes.length; t++) {
        walkBlock(nodes[t]!, leaves[t]!, K, featureBits, codes, d, rows, out, lo * K);
      }
    }
  }

  /** Codes of rows lo..lo+rows-1 into codes, row-major. */
  private encode(x: Float64Array, lo: number, rows: number, codes: Int32Array): void {
    const { d, cuts } = this;
    for (let j = 0; j < d; j++) {
      const c = cuts[j]!;
      for (let i = 0; i < rows; i++) codes[i * d + j] = lowerBound(c, x[(lo + i) * d + j]!);
    }
  }
}

/** Number of values of the ascending array a that are < v. */
function lowerBound(a: Float64Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Add one tree's leaf distributions for the block's rows to out from offset `at`. Eight rows walk the tree
 * together so that their independent loads overlap; the step `left + (code > rank)` has no branch (the
 * right child is always left + 1).
 */
function walkBlock(
  nd: Int32Array,
  leaf: Float64Array,
  K: number,
  bits: number,
  codes: Int32Array,
  d: number,
  rows: number,
  out: Float64Array,
  at: number,
): void {
  const mask = (1 << bits) - 1;
  const rootLeft = nd[1]!;
  let i = 0;
  for (; i + 7 < rows; i += 8) {
    const b0 = i * d;
    const b1 = b0 + d;
    const b2 = b1 + d;
    const b3 = b2 + d;
    const b4 = b3 + d;
    const b5 = b4 + d;
    const b6 = b5 + d;
    const b7 = b6 + d;
    let n0 = 0;
    let n1 = 0;
    let n2 = 0;
    let n3 = 0;
    let n4 = 0;
    let n5 = 0;
    let n6 = 0;
    let n7 = 0;
    let l0 = rootLeft;
    let l1 = rootLeft;
    let l2 = rootLeft;
    let l3 = rootLeft;
    let l4 = rootLeft;
    let l5 = rootLeft;
    let l6 = rootLeft;
    let l7 = rootLeft;
    // Leaves have a negative second int: loop while any of the eight rows is still at a split.
    while ((l0 & l1 & l2 & l3 & l4 & l5 & l6 & l7) >= 0) {
      if (l0 >= 0) {
        const w = nd[2 * n0]!;
        n0 = l0 + +(codes[b0 + (w & mask)]! > w >> bits);
        l0 = nd[2 * n0 + 1]!;
      }
      if (l1 >= 0) {
        const w = nd[2 * n1]!;
        n1 = l1 + +(codes[b1 + (w & mask)]! > w >> bits);
        l1 = nd[2 * n1 + 1]!;
      }
      if (l2 >= 0) {
        const w = nd[2 * n2]!;
        n2 = l2 + +(codes[b2 + (w & mask)]! > w >> bits);
        l2 = nd[2 * n2 + 1]!;
      }
      if (l3 >= 0) {
        const w = nd[2 * n3]!;
        n3 = l3 + +(codes[b3 + (w & mask)]! > w >> bits);
        l3 = nd[2 * n3 + 1]!;
      }
      if (l4 >= 0) {
        const w = nd[2 * n4]!;
        n4 = l4 + +(codes[b4 + (w & mask)]! > w >> bits);
        l4 = nd[2 * n4 + 1]!;
      }
      if (l5 >= 0) {
        const w = nd[2 * n5]!;
        n5 = l5 + +(codes[b5 + (w & mask)]! > w >> bits);
        l5 = nd[2 * n5 + 1]!;
      }
      if (l6 >= 0) {
        const w = nd[2 * n6]!;
        n6 = l6 + +(codes[b6 + (w & mask)]! > w >> bits);
        l6 = nd[2 * n6 + 1]!;
      }
      if (l7 >= 0) {
        const w = nd[2 * n7]!;
        n7 = l7 + +(codes[b7 + (w & mask)]! > w >> bits);
        l7 = nd[2 * n7 + 1]!;
      }
    }
    const o = at + i * K;
    const v0 = ~l0 * K;
    const v1 = ~l1 * K;
    const v2 = ~l2 * K;
    const v3 = ~l3 * K;
    const v4 = ~l4 * K;
    const v5 = ~l5 * K;
    const v6 = ~l6 * K;
    const v7 = ~l7 * K;
    for (let k = 0; k < K; k++) {
      out[o + k]! += leaf[v0 + k]!;
      out[o + K + k]! += leaf[v1 + k]!;
      out[o + 2 * K + k]! += leaf[v2 + k]!;
      out[o + 3 * K + k]! += leaf[v3 + k]!;
      out[o + 4 * K + k]! += leaf[v4 + k]!;
      out[o + 5 * K + k]! += leaf[v5 + k]!;
      out[o + 6 * K + k]! += leaf[v6 + k]!;
      out[o + 7 * K + k]! += leaf[v7 + k]!;
    }
  }
  for (; i < rows; i++) {
    const base = i * d;
    let node = 0;
    let l = rootLeft;
    while (l >= 0) {
      const w = nd[2 * node]!;
      node = l + +(codes[base + (w & mask)]! > w >> bits);
      l = nd[2 * node + 1]!;
    }
    const o = at + i * K;
    const v = ~l * K;
    for (let k = 0; k < K; k++) out[o + k]! += leaf[v + k]!;
  }
}

/** Index of the largest of each row's K values (first on ties). */
export function argmaxRows(values: Float64Array, K: number): Int32Array {
  const n = values.length / K;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let k = 1; k < K; k++) if (values[i * K + k]! > values[i * K + best]!) best = k;
    out[i] = best;
  }
  return out;
}
