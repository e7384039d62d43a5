import { DataError, type Rng } from '@fb/core';
import type { FeatureBinner } from './binning.js';
import { TREE_WASM } from './wasm/tree-wasm.js';
import {
  instanceOn,
  layout,
  lazyModule,
  MAX_MEMORY,
  ownMemory,
  type WasmMemory,
  workingMemory,
} from './wasm-api.js';

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

/** The split search's kernels in src/wasm/tree.wat; pointers are byte offsets into the memory. */
export interface TreeKernels {
  collect(
    rw: number,
    y: number,
    n: number,
    idx: number,
    wv: number,
    yv: number,
    K: number,
    cls: number,
  ): number;
  addRows(
    bins: number,
    idx: number,
    yv: number,
    wv: number,
    start: number,
    end: number,
    K: number,
    hc: number,
    hw: number,
  ): void;
  addRowsAll(
    bins: number,
    n: number,
    d: number,
    idx: number,
    yv: number,
    wv: number,
    start: number,
    end: number,
    K: number,
    hc: number,
    hw: number,
    hcStride: number,
    hwStride: number,
  ): void;
  occupied(hc: number, nb: number, touched: number): number;
  sparse(
    bins: number,
    idx: number,
    yv: number,
    wv: number,
    start: number,
    end: number,
    K: number,
    hc: number,
    hw: number,
    touched: number,
  ): number;
  clear(touched: number, occupied: number, K: number, hc: number, hw: number): void;
  scanGini(
    touched: number,
    occupied: number,
    hc: number,
    hw: number,
    K: number,
    parent: number,
    W: number,
    count: number,
    minLeaf: number,
    cum: number,
    best: number,
  ): number;
  partition(
    bins: number,
    idx: number,
    wv: number,
    yv: number,
    start: number,
    end: number,
    bin: number,
  ): number;
  searchFeatures(
    order: number,
    d: number,
    nBins: number,
    bins: number,
    n: number,
    idx: number,
    yv: number,
    wv: number,
    start: number,
    end: number,
    K: number,
    all: number,
    hcAll: number,
    hwAll: number,
    hcStride: number,
    hwStride: number,
    hc: number,
    hw: number,
    touched: number,
    parent: number,
    W: number,
    minLeaf: number,
    cum: number,
    best: number,
    out: number,
    left: number,
  ): number;
}

const treeModule = lazyModule(TREE_WASM, true);

/** Per node of the tree being grown (see `TreeArrays`); the grown tree gets copies. */
interface NodeArrays {
  readonly feature: Int32Array;
  readonly threshold: Float64Array;
  readonly left: Int32Array;
  readonly value: Float64Array;
  readonly samples: Int32Array;
  readonly weight: Float64Array;
  readonly impurity: Float64Array;
}

/**
 * What a builder leaves for the next one to take over (one builder at a time): the node arrays. Many
 * small fits in a row otherwise allocate node arrays sized for twice the rows each. (The kernels' memory
 * and instance are the thread's working memory and its instance, see `workingMemory`.)
 */
export interface TreeWork {
  readonly nodes: NodeArrays;
}

/** The kernels' compiled module (once per process and thread). */
function kernelModule(): object {
  const module = treeModule();
  if (!module) {
    throw new Error(
      '@fb/models grows trees with WebAssembly, which this JavaScript runtime does not provide',
    );
  }
  return module;
}

// Most memory the histograms of every feature at once may take (wider data searches feature by feature).
const ALL_HISTOGRAMS_BYTES = 4 * 2 ** 20;

/**
 * Work buffers sized for one training table, reused by every tree grown on it: a forest allocates them
 * once (per thread). The split search's loops run on WebAssembly (src/wasm/tree.wat) over a memory of
 * the builder's own, which holds a copy of the bin codes, the training classes and the rows of the tree
 * being grown; the typed arrays below are views of it, at the byte offsets in the `*At` fields.
 */
export class TreeBuilder {
  private readonly data: BinnedData;
  private readonly d: number;
  private readonly K: number;
  private readonly k: TreeKernels;
  private readonly memory: WasmMemory;
  private readonly binsAt: number;
  private readonly yAt: number;
  // The weights of the tree being grown, per training row.
  private readonly rwAt: number;
  private readonly rowWeight: Float64Array;
  // Rows of the current tree, partitioned node by node, with their weight and class moved alongside.
  private readonly idxAt: number;
  private readonly wvAt: number;
  private readonly yvAt: number;
  // One feature's histogram: weight per (bin, class), rows per bin, and the occupied bins in order.
  private readonly hwAt: number;
  private readonly hcAt: number;
  private readonly touchedAt: number;
  private readonly hw: Float64Array;
  // Every feature's histogram, laid out as the one above at `maxBins` bins each (see `bestSplit`), when
  // they take at most ALL_HISTOGRAMS_BYTES (0 and false otherwise).
  private readonly hcAllAt: number;
  private readonly hwAllAt: number;
  private readonly allHistograms: boolean;
  private readonly maxBins: number;
  private readonly hc: Int32Array;
  private readonly touched: Int32Array;
  // The running left class weights, then (from K) those of the best split of the feature scanned.
  private readonly cumAt: number;
  private readonly cum: Float64Array;
  // The node's class weights.
  private readonly parentAt: number;
  private readonly parent: Float64Array;
  // The best split score so far in a bestSplit call.
  private readonly bestAt: number;
  private readonly best: Float64Array;
  // The root's class weights, then their total, from `collect`.
  private readonly clsAt: number;
  private readonly cls: Float64Array;
  // The features in the order a node examines them, and each feature's bin count.
  private readonly orderAt: number;
  private readonly order: Int32Array;
  private readonly nBinsAt: number;
  // The best split of a `searchFeatures` call: feature, last bin going left, next bin; left class weights.
  private readonly outAt: number;
  private readonly out: Int32Array;
  private readonly leftAt: number;
  private readonly searchLeft: Float64Array;
  private readonly bestLeft: Float64Array;
  private cap = 0;
  private feature: Int32Array = new Int32Array(0);
  private threshold: Float64Array = new Float64Array(0);
  private left: Int32Array = new Int32Array(0);
  private value: Float64Array = new Float64Array(0);
  private samples: Int32Array = new Int32Array(0);
  private weight: Float64Array = new Float64Array(0);
  private impurity: Float64Array = new Float64Array(0);
  // The best split found by the last bestSplit call.
  private splitFeature = -1;
  private splitBin = -1;
  private splitThreshold = Number.NaN;
  // The depth of the deepest node of the tree being grown.
  private deepest = 0;

  /**
   * `reuse`: the node arrays of an earlier builder. With `onWorkingMemory`, the kernels run on the
   * thread's working memory, where the binning of the same fit has just run (a forest's builders, on
   * helper threads, take memories of their own, which the threads do not keep).
   */
  constructor(data: BinnedData, reuse?: TreeWork, onWorkingMemory = false) {
    this.data = data;
    const d = data.binner.nFeatures;
    const K = data.nClasses;
    const n = data.n;
    this.d = d;
    this.K = K;
    let maxBins = 1;
    for (let j = 0; j < d; j++) maxBins = Math.max(maxBins, data.binner.nBins[j]!);
    const regions = layout(0);
    const take = (length: number, bytes: number): number => regions.take(length, bytes).at;
    this.binsAt = take(data.bins.length, 1);
    this.yAt = take(n, 4);
    this.rwAt = take(n, 8);
    this.idxAt = take(n, 4);
    this.yvAt = take(n, 4);
    this.wvAt = take(n, 8);
    this.hcAt = take(maxBins, 4);
    this.touchedAt = take(maxBins, 4);
    this.hwAt = take(maxBins * K, 8);
    this.allHistograms = d * maxBins * (4 + 8 * K) <= ALL_HISTOGRAMS_BYTES;
    this.hcAllAt = this.allHistograms ? take(d * maxBins, 4) : 0;
    this.hwAllAt = this.allHistograms ? take(d * maxBins * K, 8) : 0;
    this.maxBins = maxBins;
    this.cumAt = take(2 * K, 8);
    this.parentAt = take(K, 8);
    this.clsAt = take(K + 1, 8);
    this.bestAt = take(1, 8);
    this.orderAt = take(d, 4);
    this.nBinsAt = take(d, 4);
    this.outAt = take(3, 4);
    this.leftAt = take(K, 8);
    const end = regions.end;
    if (end > MAX_MEMORY) {
      throw new DataError(
        'DATA_SHAPE',
        `${n} rows of ${d} features need ${end} bytes of working memory to grow a tree, more than the ` +
          `${MAX_MEMORY} WebAssembly can address: fit on fewer rows`,
      );
    }
    const module = kernelModule();
    this.memory = onWorkingMemory ? workingMemory(end) : ownMemory(end);
    this.k = instanceOn(module, this.memory) as TreeKernels;
    // The histograms must start empty, and the working memory holds what its last call left; the
    // regions before them are written before they are read.
    if (onWorkingMemory) new Uint8Array(this.memory.buffer, this.hcAt, end - this.hcAt).fill(0);
    if (reuse) {
      const { nodes } = reuse;
      // Every node's entries are written before they are read (`reserve` checks the sizes).
      this.feature = nodes.feature;
      this.threshold = nodes.threshold;
      this.left = nodes.left;
      this.value = nodes.value;
      this.samples = nodes.samples;
      this.weight = nodes.weight;
      this.impurity = nodes.impurity;
      this.cap = nodes.feature.length;
    }
    const buffer = this.memory.buffer;
    new Uint8Array(buffer, this.binsAt, data.bins.length).set(data.bins);
    new Int32Array(buffer, this.yAt, n).set(data.y);
    this.rowWeight = new Float64Array(buffer, this.rwAt, n);
    this.hc = new Int32Array(buffer, this.hcAt, maxBins);
    this.touched = new Int32Array(buffer, this.touchedAt, maxBins);
    this.hw = new Float64Array(buffer, this.hwAt, maxBins * K);
    this.cum = new Float64Array(buffer, this.cumAt, 2 * K);
    this.parent = new Float64Array(buffer, this.parentAt, K);
    this.cls = new Float64Array(buffer, this.clsAt, K + 1);
    this.best = new Float64Array(buffer, this.bestAt, 1);
    this.order = new Int32Array(buffer, this.orderAt, d);
    new Int32Array(buffer, this.nBinsAt, d).set(data.binner.nBins);
    this.out = new Int32Array(buffer, this.outAt, 3);
    this.searchLeft = new Float64Array(buffer, this.leftAt, K);
    this.bestLeft = new Float64Array(K);
  }

  /**
   * Grow one tree on the rows with positive `rowWeight` (indexed by training row; a bootstrap passes its
   * draw counts times the sample weights). `rng` orders the candidate features at each node.
   */
  grow(rowWeight: Float64Array, params: GrowParams, rng: Rng): TreeArrays {
    const K = this.K;
    this.rowWeight.set(rowWeight);
    const n = this.data.n;
    const m = this.k.collect(this.rwAt, this.yAt, n, this.idxAt, this.wvAt, this.yvAt, K, this.clsAt);
    this.reserve(nodeBound(m, params.maxDepth));
    const importance = new Float64Array(this.d);
    for (let k = 0; k < K; k++) this.value[k] = this.cls[k]!;
    this.initNode(0, m, this.cls[K]!, params.criterion);
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

  /** The node arrays, for the next builder once this one is done (see `TreeWork`). */
  get work(): TreeWork {
    const { feature, threshold, left, value, samples, weight, impurity } = this;
    return { nodes: { feature, threshold, left, value, samples, weight, impurity } };
  }

  private reserve(size: number): void {
    if (size <= this.cap && size * this.K <= this.value.length) return;
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
    const { n, binner } = this.data;
    const { K, d, k: kernels, order, cum, touched, parent } = this;
    const { idxAt, yvAt, wvAt, hcAt, hwAt, touchedAt, cumAt, parentAt, bestAt } = this;
    for (let k = 0; k < K; k++) parent[k] = this.value[node * K + k]!;
    const W = this.weight[node]!;
    const count = end - start;
    const minLeaf = params.minSamplesLeaf;
    const gini = params.criterion === 'gini';
    this.best[0] = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < d; j++) order[j] = j;
    this.splitFeature = -1;
    if (gini && params.maxFeatures >= d) return this.searchAll(start, end, W, minLeaf, rng);
    let visited = 0;
    let bestFeature = -1;
    for (let t = 0; t < d && visited < params.maxFeatures; t++) {
      const pick = rng.int(t, d - 1);
      const f = order[pick]!;
      order[pick] = order[t]!;
      order[t] = f;
      const nb = binner.nBins[f]!;
      const col = this.binsAt + f * n;
      // Sparse mode (fewer rows than bins): remember the touched bins and scan only those, in order.
      const occupied =
        count < nb
          ? kernels.sparse(col, idxAt, yvAt, wvAt, start, end, K, hcAt, hwAt, touchedAt)
          : this.denseHistogram(col, start, end, nb);
      if (occupied > 1) {
        visited++;
        const s = gini
          ? kernels.scanGini(touchedAt, occupied, hcAt, hwAt, K, parentAt, W, count, minLeaf, cumAt, bestAt)
          : scanEntropy(touched, occupied, this.hc, this.hw, K, parent, W, count, minLeaf, cum, this.best);
        if (s >= 0) {
          bestFeature = f;
          this.splitFeature = f;
          this.splitBin = touched[s]!;
          this.splitThreshold = binner.threshold(f, touched[s]!, touched[s + 1]!);
          // A plain loop: a subarray is an object per improving split (about 600,000 per forest fit).
          for (let k = 0; k < K; k++) this.bestLeft[k] = cum[K + k]!;
        }
      }
      kernels.clear(touchedAt, occupied, K, hcAt, hwAt);
    }
    return bestFeature;
  }

  /**
   * `bestSplit` when every feature is examined with the Gini criterion: the features' order drawn as the
   * loop of `bestSplit` draws it (all d draws: no feature is left unexamined), then the whole search in
   * one call into WebAssembly (`searchFeatures`: the same histograms, scans and clears in the same
   * order; when every histogram is dense and they fit in memory together, the node's rows are first
   * added to all of them in one pass, `addRowsAll`: the same sums, each row read once). One call per node instead of
   * three per feature: in a fresh process V8 calls WebAssembly through its slow generic wrapper until it
   * has compiled a specific one, and the JavaScript loop around the calls ran unoptimised.
   */
  private searchAll(start: number, end: number, W: number, minLeaf: number, rng: Rng): number {
    const { n, binner } = this.data;
    const { d, K, order } = this;
    for (let t = 0; t < d; t++) {
      const pick = rng.int(t, d - 1);
      const f = order[pick]!;
      order[pick] = order[t]!;
      order[t] = f;
    }
    const all = this.allHistograms && end - start >= this.maxBins;
    const best = this.k.searchFeatures(
      this.orderAt,
      d,
      this.nBinsAt,
      this.binsAt,
      n,
      this.idxAt,
      this.yvAt,
      this.wvAt,
      start,
      end,
      K,
      all ? 1 : 0,
      this.hcAllAt,
      this.hwAllAt,
      this.maxBins * 4,
      this.maxBins * K * 8,
      this.hcAt,
      this.hwAt,
      this.touchedAt,
      this.parentAt,
      W,
      minLeaf,
      this.cumAt,
      this.bestAt,
      this.outAt,
      this.leftAt,
    );
    if (best < 0) return -1;
    const { out } = this;
    this.splitFeature = best;
    this.splitBin = out[1]!;
    this.splitThreshold = binner.threshold(best, out[1]!, out[2]!);
    this.bestLeft.set(this.searchLeft);
    return best;
  }

  /** The histogram of rows start..end-1 over every bin of the column at `col`; returns the occupied bins. */
  private denseHistogram(col: number, start: number, end: number, nb: number): number {
    this.k.addRows(col, this.idxAt, this.yvAt, this.wvAt, start, end, this.K, this.hcAt, this.hwAt);
    return this.k.occupied(this.hcAt, nb, this.touchedAt);
  }

  /** Move rows with bin <= `bin` on feature f to the front of [start, end); returns the boundary. */
  private partition(start: number, end: number, f: number, bin: number): number {
    const col = this.binsAt + f * this.data.n;
    return this.k.partition(col, this.idxAt, this.wvAt, this.yvAt, start, end, bin);
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
 * Scan the entropy splits between consecutive occupied bins of one feature's histogram (score, larger is
 * better: minus the weighted entropy of the two sides, in nats), as the module's `scanGini` scans Gini
 * ones. A split better than best[0] updates best[0] and copies its left class weights to cum[K..2K);
 * returns the position in touched of the last bin going left of the best such split, or -1 when none
 * beat best[0]. JavaScript, for its logarithms (WebAssembly has none).
 */
function scanEntropy(
  touched: Int32Array,
  occupied: number,
  hc: Int32Array,
  hw: Float64Array,
  K: number,
  parent: Float64Array,
  W: number,
  count: number,
  minLeaf: number,
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
    for (let k = 0; k < K; k++) {
      const a = cum[k]!;
      const c = parent[k]! - a;
      if (a > 0) score += a * Math.log(a);
      if (c > 0) score += c * Math.log(c);
    }
    score -= wl * Math.log(wl) + wr * Math.log(wr);
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
