import type { Rng } from '@fb/core';
import type { FeatureBinner } from './binning.js';

export type Criterion = 'gini' | 'entropy';

/** A fitted tree as flat arrays indexed by node id; node 0 is the root, children are allocated in pairs. */
export interface TreeArrays {
  readonly nodeCount: number;
  /** Split feature, -1 at leaves. */
  readonly feature: Int32Array;
  /** Go left iff x[feature] <= threshold (raw units); NaN at leaves. */
  readonly threshold: Float64Array;
  /** Child ids, -1 at leaves; right = left + 1. */
  readonly left: Int32Array;
  readonly right: Int32Array;
  /** Class distribution of the training weight at each node, nodeCount x nClasses. */
  readonly value: Float64Array;
  /** Training rows (distinct, with positive weight) reaching each node. */
  readonly nodeSamples: Int32Array;
  /** Training weight reaching each node. */
  readonly nodeWeight: Float64Array;
  readonly impurity: Float64Array;
  /** Weighted impurity decrease per feature, normalised to sum 1 (all 0 for a single leaf). */
  readonly featureImportances: Float64Array;
  readonly maxDepth: number;
}

export interface GrowParams {
  readonly criterion: Criterion;
  readonly maxDepth: number;
  readonly minSamplesSplit: number;
  readonly minSamplesLeaf: number;
  /** Non-constant features examined per node (sampled without replacement). */
  readonly maxFeatures: number;
}

/** The binned training table, shared by every tree of a forest. */
export interface BinnedData {
  readonly binner: FeatureBinner;
  /** Feature-major bin codes: row i, feature j at j * n + i. */
  readonly bins: Uint8Array;
  readonly n: number;
  readonly y: Int32Array;
  readonly nClasses: number;
}

// A node whose largest class holds all but this fraction of its weight is pure.
const PURE = 1e-12;

/**
 * Work buffers sized for one training table, reused by every tree grown on it: a forest allocates them once.
 */
export class TreeBuilder {
  private readonly data: BinnedData;
  private readonly d: number;
  private readonly K: number;
  // Rows of the current tree, partitioned node by node, with their weight and class moved alongside.
  private readonly idx: Int32Array;
  private readonly wv: Float64Array;
  private readonly yv: Int32Array;
  // One feature's histogram: weight per (bin, class), rows per bin, and the bins touched in sparse mode.
  private readonly hw: Float64Array;
  private readonly hc: Int32Array;
  private readonly touched: Int32Array;
  private readonly order: Int32Array;
  private readonly cum: Float64Array;
  private readonly bestLeft: Float64Array;
  private readonly tmpK: Float64Array;
  // The best split score so far in a bestSplit call.
  private readonly best = new Float64Array(1);
  private cap = 0;
  private feature = new Int32Array(0);
  private threshold = new Float64Array(0);
  private left = new Int32Array(0);
  private value = new Float64Array(0);
  private samples = new Int32Array(0);
  private weight = new Float64Array(0);
  private impurity = new Float64Array(0);
  // The best split found by the last bestSplit call.
  private splitFeature = -1;
  private splitBin = -1;
  private splitThreshold = Number.NaN;
  // The depth of the deepest node of the tree being grown.
  private deepest = 0;

  constructor(data: BinnedData) {
    this.data = data;
    this.d = data.binner.nFeatures;
    this.K = data.nClasses;
    const n = data.n;
    this.idx = new Int32Array(n);
    this.wv = new Float64Array(n);
    this.yv = new Int32Array(n);
    let maxBins = 1;
    for (let j = 0; j < this.d; j++) maxBins = Math.max(maxBins, data.binner.nBins[j]!);
    this.hw = new Float64Array(maxBins * this.K);
    this.hc = new Int32Array(maxBins);
    this.touched = new Int32Array(maxBins);
    this.order = new Int32Array(this.d);
    // The running left class weights, then (from K) those of the best split of the feature scanned.
    this.cum = new Float64Array(2 * this.K);
    this.bestLeft = new Float64Array(this.K);
    this.tmpK = new Float64Array(this.K);
  }

  /**
   * Grow one tree on the rows with positive `rowWeight` (indexed by training row; a bootstrap passes its
   * draw counts times the sample weights). `rng` orders the candidate features at each node.
   */
  grow(rowWeight: Float64Array, params: GrowParams, rng: Rng): TreeArrays {
    const m = collectRows(rowWeight, this.data.y, this.idx, this.wv, this.yv);
    this.reserve(nodeBound(m, params.maxDepth));
    const importance = new Float64Array(this.d);
    this.initNode(0, m, classSums(this.yv, this.wv, m, this.K, this.value), params.criterion);
    const nodes = this.splitNodes(m, params, rng, importance);
    return this.finish(nodes, importance, this.deepest);
  }

  /**
   * Split nodes depth first from the root (rows 0..m-1) until every node is a leaf; returns the node
   * count, with the depth of the deepest node in `deepest`. The loop ends the function: code after a
   * long loop, not yet run when V8 optimises the loop, sends the function back to the interpreter when
   * first reached, and did so for every tree of a forest.
   */
  private splitNodes(m: number, params: GrowParams, rng: Rng, importance: Float64Array): number {
    const K = this.K;
    let nodes = 1;
    // Depth-first: each entry is (node, start, end, depth).
    const stack: number[] = [0, 0, m, 0];
    this.deepest = 0;
    while (stack.length > 0) {
      const depth = stack.pop()!;
      const end = stack.pop()!;
      const start = stack.pop()!;
      const node = stack.pop()!;
      if (depth > this.deepest) this.deepest = depth;
      this.feature[node] = -1;
      this.threshold[node] = Number.NaN;
      this.left[node] = -1;
      const count = end - start;
      if (
        depth >= params.maxDepth ||
        count < params.minSamplesSplit ||
        count < 2 * params.minSamplesLeaf ||
        this.isPure(node)
      ) {
        continue;
      }
      const split = this.bestSplit(node, start, end, params, rng);
      if (split < 0) continue;
      const f = this.splitFeature;
      const bin = this.splitBin;
      const mid = this.partition(start, end, f, bin);
      const l = nodes;
      const r = nodes + 1;
      nodes += 2;
      this.feature[node] = f;
      this.threshold[node] = this.splitThreshold;
      this.left[node] = l;
      const v = this.value;
      let wl = 0;
      for (let k = 0; k < K; k++) {
        const a = this.bestLeft[k]!;
        v[l * K + k] = a;
        v[r * K + k] = Math.max(0, v[node * K + k]! - a);
        wl += a;
      }
      this.initNode(l, mid - start, wl, params.criterion);
      this.initNode(r, end - mid, Math.max(0, this.weight[node]! - wl), params.criterion);
      importance[f]! +=
        this.weight[node]! * this.impurity[node]! -
        this.weight[l]! * this.impurity[l]! -
        this.weight[r]! * this.impurity[r]!;
      stack.push(r, mid, end, depth + 1, l, start, mid, depth + 1);
    }
    return nodes;
  }

  /** The grown tree's arrays: class weights as distributions, importances normalised. */
  private finish(nodes: number, importance: Float64Array, deepest: number): TreeArrays {
    const K = this.K;
    normalise(importance);
    const value = this.value.slice(0, nodes * K);
    perWeight(value, this.weight, nodes, K);
    const left = this.left.slice(0, nodes);
    const right = rightChildren(left);
    return {
      nodeCount: nodes,
      feature: this.feature.slice(0, nodes),
      threshold: this.threshold.slice(0, nodes),
      left,
      right,
      value,
      nodeSamples: this.samples.slice(0, nodes),
      nodeWeight: this.weight.slice(0, nodes),
      impurity: this.impurity.slice(0, nodes),
      featureImportances: importance,
      maxDepth: deepest,
    };
  }

  private reserve(size: number): void {
    if (size <= this.cap) return;
    this.cap = size;
    this.feature = new Int32Array(size);
    this.threshold = new Float64Array(size);
    this.left = new Int32Array(size);
    this.value = new Float64Array(size * this.K);
    this.samples = new Int32Array(size);
    this.weight = new Float64Array(size);
    this.impurity = new Float64Array(size);
  }

  private initNode(node: number, count: number, weight: number, criterion: Criterion): void {
    this.samples[node] = count;
    this.weight[node] = weight;
    this.impurity[node] = nodeImpurity(this.value, node * this.K, this.K, weight, criterion);
  }

  private isPure(node: number): boolean {
    const K = this.K;
    let top = 0;
    for (let k = 0; k < K; k++) top = Math.max(top, this.value[node * K + k]!);
    return top >= this.weight[node]! * (1 - PURE);
  }

  /**
   * Search the features in random order until `maxFeatures` non-constant ones have been examined (more
   * than maxFeatures when some are constant in the node, as CART does). Returns -1 when no valid split
   * exists, else the split's feature, with the split in splitFeature/splitBin/splitThreshold and the left class weights in
   * bestLeft.
   */
  private bestSplit(node: number, start: number, end: number, params: GrowParams, rng: Rng): number {
    const { bins, n, binner } = this.data;
    const K = this.K;
    const d = this.d;
    const { hw, hc, touched, order, cum, idx, wv, yv } = this;
    const parent = this.tmpK;
    for (let k = 0; k < K; k++) parent[k] = this.value[node * K + k]!;
    const W = this.weight[node]!;
    const count = end - start;
    const minLeaf = params.minSamplesLeaf;
    const gini = params.criterion === 'gini';
    const best = this.best;
    best[0] = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < d; j++) order[j] = j;
    let visited = 0;
    let bestFeature = -1;
    this.splitFeature = -1;
    for (let t = 0; t < d && visited < params.maxFeatures; t++) {
      const pick = rng.int(t, d - 1);
      const f = order[pick]!;
      order[pick] = order[t]!;
      order[t] = f;
      const nb = binner.nBins[f]!;
      const col = f * n;
      // Sparse mode (fewer rows than bins): remember the touched bins and scan only those, in order.
      let occupied: number;
      if (count < nb) occupied = sparseHistogram(bins, col, idx, yv, wv, start, end, K, hc, hw, touched);
      else {
        addRows(bins, col, idx, yv, wv, start, end, K, hc, hw);
        occupied = occupiedBins(hc, nb, touched);
      }
      if (occupied > 1) {
        visited++;
        const s = scanSplits(touched, occupied, hc, hw, K, parent, W, count, minLeaf, gini, cum, best);
        if (s >= 0) {
          bestFeature = f;
          this.splitFeature = f;
          this.splitBin = touched[s]!;
          this.splitThreshold = binner.threshold(f, touched[s]!, touched[s + 1]!);
          // A plain loop: a subarray is an object per improving split (about 600,000 per forest fit).
          for (let k = 0; k < K; k++) this.bestLeft[k] = cum[K + k]!;
        }
      }
      clearHistogram(touched, occupied, K, hc, hw);
    }
    return bestFeature;
  }

  /** Move rows with bin <= `bin` on feature f to the front of [start, end); returns the boundary. */
  private partition(start: number, end: number, f: number, bin: number): number {
    const { bins, n } = this.data;
    const { idx, wv, yv } = this;
    const col = f * n;
    let i = start;
    let j = end - 1;
    while (true) {
      while (i <= j && bins[col + idx[i]!]! <= bin) i++;
      while (i <= j && bins[col + idx[j]!]! > bin) j--;
      if (i >= j) break;
      const ti = idx[i]!;
      idx[i] = idx[j]!;
      idx[j] = ti;
      const tw = wv[i]!;
      wv[i] = wv[j]!;
      wv[j] = tw;
      const ty = yv[i]!;
      yv[i] = yv[j]!;
      yv[j] = ty;
      i++;
      j--;
    }
    return i;
  }
}

/**
 * The most nodes a tree on m rows can have: a binary tree with at most m leaves, and at most
 * 2^(maxDepth + 1) - 1 nodes. The node arrays are allocated at this size (zeroed): sized for m rows
 * alone, a depth-10 tree on Adult allocated 3 MB per fit for its 2,047 nodes at most.
 */
export function nodeBound(m: number, maxDepth: number): number {
  const byRows = Math.max(1, 2 * m - 1);
  return maxDepth < 30 ? Math.min(byRows, 2 ** (maxDepth + 1) - 1) : byRows;
}

/** Gini or entropy (in bits, as scikit-learn reports it) impurity of the class weights at value[at .. at + K). */
export function nodeImpurity(
  value: Float64Array,
  at: number,
  K: number,
  weight: number,
  criterion: Criterion,
): number {
  if (!(weight > 0)) return 0;
  let s = 0;
  if (criterion === 'gini') {
    for (let k = 0; k < K; k++) {
      const p = value[at + k]! / weight;
      s += p * p;
    }
    return Math.max(0, 1 - s);
  }
  for (let k = 0; k < K; k++) {
    const p = value[at + k]! / weight;
    if (p > 0) s -= p * Math.log2(p);
  }
  return Math.max(0, s);
}

// The loops of `finish`, as functions of their own (see `splitNodes`).

/** Scale non-negative values to sum 1 (left all 0 when they sum to 0). */
function normalise(values: Float64Array): void {
  let total = 0;
  for (let j = 0; j < values.length; j++) total += values[j]!;
  if (total > 0) for (let j = 0; j < values.length; j++) values[j] = values[j]! / total;
}

/** Divide each node's K class weights by the node's weight. */
function perWeight(value: Float64Array, weight: Float64Array, nodes: number, K: number): void {
  for (let node = 0; node < nodes; node++) {
    const w = weight[node]!;
    for (let k = 0; k < K; k++) value[node * K + k] = value[node * K + k]! / w;
  }
}

/** Right child ids from left ones (right = left + 1; -1 at leaves). */
function rightChildren(left: Int32Array): Int32Array {
  const right = new Int32Array(left.length);
  for (let i = 0; i < left.length; i++) right[i] = left[i]! < 0 ? -1 : left[i]! + 1;
  return right;
}

/**
 * Gather the rows of positive weight into idx, with their weight in wv and class in yv; returns how many.
 */
function collectRows(
  rowWeight: Float64Array,
  y: Int32Array,
  idx: Int32Array,
  wv: Float64Array,
  yv: Int32Array,
): number {
  let m = 0;
  for (let i = 0; i < rowWeight.length; i++) {
    const w = rowWeight[i]!;
    if (w > 0) {
      idx[m] = i;
      wv[m] = w;
      yv[m] = y[i]!;
      m++;
    }
  }
  return m;
}

/** The class weights of the first m rows into value[0..K); returns their total. */
function classSums(yv: Int32Array, wv: Float64Array, m: number, K: number, value: Float64Array): number {
  value.fill(0, 0, K);
  let total = 0;
  for (let i = 0; i < m; i++) {
    value[yv[i]!]! += wv[i]!;
    total += wv[i]!;
  }
  return total;
}

// The phases of the split search, each a function of its own: V8 optimises each loop apart, so that the
// first run of a phase reached late (the sparse histograms of small nodes, a first improving split) does
// not throw away the optimised code of the others.

/**
 * Histogram of feature column `col` over rows start..end-1 when the node has fewer rows than bins: rows
 * and weight per bin, the occupied bins listed in touched in increasing order. Returns their count.
 */
function sparseHistogram(
  bins: Uint8Array,
  col: number,
  idx: Int32Array,
  yv: Int32Array,
  wv: Float64Array,
  start: number,
  end: number,
  K: number,
  hc: Int32Array,
  hw: Float64Array,
  touched: Int32Array,
): number {
  let occupied = 0;
  for (let i = start; i < end; i++) {
    const b = bins[col + idx[i]!]!;
    if (hc[b]++ === 0) touched[occupied++] = b;
    hw[b * K + yv[i]!]! += wv[i]!;
  }
  sortFew(touched, occupied);
  return occupied;
}

/**
 * Sort a[0..m-1] ascending by insertion: a sparse node's occupied bins are few (6.5 on average in a
 * forest fit on Adult), and a typed-array sort of a subarray made an object per node and feature.
 */
function sortFew(a: Int32Array, m: number): void {
  for (let i = 1; i < m; i++) {
    const v = a[i]!;
    let j = i - 1;
    for (; j >= 0 && a[j]! > v; j--) a[j + 1] = a[j]!;
    a[j + 1] = v;
  }
}

/** Add rows start..end-1 to the histogram of feature column `col` (every bin: dense mode). */
function addRows(
  bins: Uint8Array,
  col: number,
  idx: Int32Array,
  yv: Int32Array,
  wv: Float64Array,
  start: number,
  end: number,
  K: number,
  hc: Int32Array,
  hw: Float64Array,
): void {
  for (let i = start; i < end; i++) {
    const b = bins[col + idx[i]!]!;
    hc[b]!++;
    hw[b * K + yv[i]!]! += wv[i]!;
  }
}

/** List the bins below nb holding rows in touched, in increasing order; returns how many. */
function occupiedBins(hc: Int32Array, nb: number, touched: Int32Array): number {
  let occupied = 0;
  for (let b = 0; b < nb; b++) if (hc[b]! > 0) touched[occupied++] = b;
  return occupied;
}

/** Zero the histogram's occupied bins. */
function clearHistogram(
  touched: Int32Array,
  occupied: number,
  K: number,
  hc: Int32Array,
  hw: Float64Array,
): void {
  for (let s = 0; s < occupied; s++) {
    const b = touched[s]!;
    hc[b] = 0;
    for (let k = 0; k < K; k++) hw[b * K + k] = 0;
  }
}

/**
 * Scan the splits between consecutive occupied bins of one feature's histogram (score, larger is better:
 * Gini, the sum of squared class weights over the weight, per side; entropy, minus the weighted entropy
 * of the two sides, in nats). A split better than best[0] updates best[0] and copies its left class
 * weights to cum[K..2K); returns the position in touched of the last bin going left of the best such
 * split, or -1 when none beat best[0].
 */
function scanSplits(
  touched: Int32Array,
  occupied: number,
  hc: Int32Array,
  hw: Float64Array,
  K: number,
  parent: Float64Array,
  W: number,
  count: number,
  minLeaf: number,
  gini: boolean,
  cum: Float64Array,
  best: Float64Array,
): number {
  cum.fill(0, 0, K);
  let found = -1;
  let cl = 0;
  let wl = 0;
  for (let s = 0; s < occupied - 1; s++) {
    const b = touched[s]!;
    cl += hc[b]!;
    for (let k = 0; k < K; k++) {
      const v = hw[b * K + k]!;
      cum[k]! += v;
      wl += v;
    }
    if (cl < minLeaf) continue;
    if (count - cl < minLeaf) break;
    const wr = W - wl;
    if (!(wl > 0 && wr > 0)) continue;
    let score = 0;
    if (gini) {
      let sl = 0;
      let sr = 0;
      for (let k = 0; k < K; k++) {
        const a = cum[k]!;
        const c = parent[k]! - a;
        sl += a * a;
        sr += c * c;
      }
      score = sl / wl + sr / wr;
    } else {
      for (let k = 0; k < K; k++) {
        const a = cum[k]!;
        const c = parent[k]! - a;
        if (a > 0) score += a * Math.log(a);
        if (c > 0) score += c * Math.log(c);
      }
      score -= wl * Math.log(wl) + wr * Math.log(wr);
    }
    if (score > best[0]!) found = keepBest(cum, K, best, score, s);
  }
  return found;
}

/** Record an improving split: its score, and its left class weights in cum[K..2K). Returns s. */
function keepBest(cum: Float64Array, K: number, best: Float64Array, score: number, s: number): number {
  best[0] = score;
  for (let k = 0; k < K; k++) cum[K + k] = cum[k]!;
  return s;
}
