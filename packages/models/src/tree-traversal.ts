import { ModelError } from '@fb/core';
import { buildCutIndex, lowerBound } from './cut-index.js';
import { type CutIndex, type Layout, type TreeJob, type VotePlan, walkSource } from './tree-kernels.js';
import {
  forgetWorkingMemory,
  PARALLEL_WORK,
  predictionThreads,
  prepareHelpers,
  runHere,
  runInThreads,
  shared,
} from './tree-threads.js';

/** The node arrays a coded walk needs (see `TreeArrays`). */
export interface SplitNodes {
  readonly feature: Int32Array;
  readonly threshold: Float64Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  /** Class distribution per node, nodeCount x K. */
  readonly value: Float64Array;
}

// Codes per block (8 MB): every tree walks the whole block, and each block fetches every tree's nodes
// and leaf values into cache again (on Adult's forest, blocks of 12,500 rows took 20% longer than blocks
// of 75,000), so the larger the block, the better, within a memory bound.
const BLOCK_CODES = 1 << 21;

// Trees walked between two checks of which rows a vote has decided (see `walkChunk`). On Adult's forest of
// 100 trees, rows walk 62.4 trees on average with a check after every tree, 62.9 with one every 2 and
// 64.4 every 8; a row's check costs about a fifth of its walk through one tree.
const VOTE_EVERY = 2;

/** Rows per chunk of a preparation, and its runs (see `CodedTrees.prepare`). */
const PREPARE_ROWS = 260;
const PREPARE_RUNS = 64;
const PREPARE_TREES = 16;
/** Walk sources prepared in this process, each with the prediction threads it was prepared for. */
const prepared = new Set<string>();

/**
 * How a batch runs: 'auto' decides by its size and the prediction threads; 'here' on the calling thread
 * alone; 'shared' through the helpers' path, on the calling thread alone (preparation only).
 */
type Path = 'auto' | 'here' | 'shared';

const bitsFor = (values: number) => Math.max(1, Math.ceil(Math.log2(values)));

/**
 * Trees compiled for batch prediction. Each split threshold of feature j is replaced by its rank among the
 * distinct thresholds of j over all the trees, and each row is encoded once per block as, per feature, the
 * count of those thresholds below its value: then x <= threshold iff code < rank + 1, exactly. Nodes are
 * renumbered breadth first so that a split's children are adjacent; leaves loop on themselves, so rows
 * walk without a branch per step (see `walkSource`).
 */
export class CodedTrees {
  private readonly d: number;
  private readonly K: number;
  readonly layout: Layout;
  /** Distinct thresholds per feature, ascending. */
  private readonly cuts: Float64Array[];
  /** The same thresholds with the bucket tables that encoding searches them by. */
  private readonly cutIndex: CutIndex[];
  /** The source of the walk for this layout and width (see `walkSource`). */
  private readonly walkSource: string;
  private readonly nodes: Int32Array[];
  /** Per tree: class distribution of each node (read at leaves), in the renumbered order. */
  private readonly values: Float64Array[];
  /** bound[t]: the most trees t, t+1, ... can add to one class (infinite when a leaf value is negative). */
  private readonly bound: Float64Array;

  /** `wide` forces the two-int layout (it is chosen anyway when the packed one does not fit). */
  constructor(trees: readonly SplitNodes[], d: number, K: number, wide = false) {
    this.d = d;
    this.K = K;
    // Every split's threshold, grouped by feature (counted first: no growing arrays), then sorted and
    // made distinct in place.
    const count = new Int32Array(d + 1);
    for (const t of trees) {
      for (let i = 0; i < t.left.length; i++)
        if (t.left[i]! >= 0 && !Number.isNaN(t.threshold[i]!)) count[t.feature[i]! + 1]!++;
    }
    for (let j = 0; j < d; j++) count[j + 1]! += count[j]!;
    const all = new Float64Array(count[d]!);
    const fill = count.slice(0, d);
    for (const t of trees) {
      for (let i = 0; i < t.left.length; i++) {
        const v = t.threshold[i]!;
        if (t.left[i]! >= 0 && !Number.isNaN(v)) all[fill[t.feature[i]!]!++] = v;
      }
    }
    this.cuts = Array.from({ length: d }, (_, j) => {
      const sorted = all.subarray(count[j]!, count[j + 1]!).sort();
      let m = 0;
      for (let i = 0; i < sorted.length; i++)
        if (m === 0 || sorted[i] !== sorted[m - 1]) sorted[m++] = sorted[i]!;
      return sorted.slice(0, m);
    });
    this.cutIndex = this.cuts.map(buildCutIndex);
    const maxCuts = this.cuts.reduce((a, c) => Math.max(a, c.length), 0);
    const maxNodes = trees.reduce((a, t) => Math.max(a, t.left.length), 0);
    // Feature indices 0..d-1 and the all-ones leaf mark; codes 0..maxCuts.
    const featureBits = bitsFor(d + 1);
    const rankBits = bitsFor(maxCuts + 1);
    const childShift = featureBits + rankBits;
    // A threshold field may reach 2^rankBits (a NaN threshold: every row goes right), one bit above.
    if (childShift + 1 > 31) {
      throw new ModelError(
        'MODEL_MISMATCH',
        `${maxCuts} distinct thresholds on one feature of ${d}: too many to encode a tree's nodes`,
      );
    }
    this.layout = {
      packed: !wide && childShift + bitsFor(maxNodes) <= 31,
      featureBits,
      featureMask: 2 ** featureBits - 1,
      rankBits,
      childShift,
    };
    this.walkSource = walkSource(this.layout, d);
    this.nodes = [];
    this.values = [];
    // One shared buffer for all trees' nodes and one for their values (a buffer per tree cost more to
    // allocate than the compilation itself); each tree gets views on them.
    let nodeWords = 0;
    let valueLength = 0;
    for (const t of trees) {
      nodeWords += this.layout.packed ? t.left.length : 2 * t.left.length;
      valueLength += t.left.length * K;
    }
    const allNodes = shared(Int32Array, nodeWords);
    const allValues = shared(Float64Array, valueLength);
    let nodeAt = 0;
    let valueAt = 0;
    const leafMax = trees.map((t) => {
      const size = t.left.length;
      const words = this.layout.packed ? size : 2 * size;
      const nd = allNodes.subarray(nodeAt, nodeAt + words);
      const value = allValues.subarray(valueAt, valueAt + size * K);
      const max = compileTree(t, this.cuts, this.layout, K, nd, value);
      this.nodes.push(nd);
      this.values.push(value);
      nodeAt += words;
      valueAt += size * K;
      return max;
    });
    this.bound = new Float64Array(trees.length + 1);
    for (let t = trees.length - 1; t >= 0; t--) this.bound[t] = this.bound[t + 1]! + leafMax[t]!;
  }

  /**
   * Write the sum of every tree's leaf class distribution for the n rows of x (checked, width d) to out (n x K). Large
   * batches are shared with prediction threads (see `setPredictionThreads`); each row's sum runs in tree
   * order in one thread, so the result is the same bit for bit whatever the number of threads.
   */
  addLeafValues(x: Float64Array, n: number, out: Float64Array, path: Path = 'auto'): void {
    this.run(x, n, out, null, path);
  }

  /**
   * The argmax (first on ties) of each row's class sums times `scale`, the same labels as from
   * `addLeafValues`, but a row stops walking once the trees left cannot change its label (see
   * `walkChunk`). Also returns the row-tree walks done, at most n x trees.
   */
  vote(
    x: Float64Array,
    n: number,
    scale: number,
    path: Path = 'auto',
  ): { labels: Int32Array; walks: number } {
    const plan: VotePlan = {
      labels: new Int32Array(n),
      bound: this.bound,
      scale,
      walks: new Float64Array(0),
    };
    this.run(x, n, new Float64Array(0), plan, path);
    let walks = 0;
    for (const w of plan.walks) walks += w;
    return { labels: plan.labels, walks };
  }

  /**
   * Prepare this thread and the prediction threads for this forest's walk, once per process, walk
   * source (row width and node layout) and number of prediction threads, so that V8 has optimised the
   * kernels before the first real batch: unprepared, a first `predict` of 100,000 Adult rows ran them unoptimised for its first tens
   * of milliseconds on both threads at once, and took about twice a later one. Made-up batches of 260
   * rows (each row a threshold of every feature, or above the largest) through the first 16 trees run 64
   * times in all, in turn through each path a batch can take (sums or a vote; here alone or through the
   * helpers' path), on this thread, and in the background on each helper, whose first real job waits for its
   * preparation to end. The scratch of the first two runs is made anew: code V8 optimised before the
   * object literal that makes the scratch had run twice was thrown away when it ran the second time, at
   * the first real batch (`--trace-deopt`: "code dependencies", on the kernels of both threads); the
   * literals of jobs and votes run on every batch, so twice early on. Costs this thread 50-80 ms for a
   * process's first walk and 35-45 ms for each later one on 2 threads, 29 ms and 17-19 ms with
   * `setPredictionThreads(1)` (Adult's forest, 2 cores).
   */
  prepare(): void {
    const threads = predictionThreads();
    // Per thread count too: a walk prepared on one thread has prepared no helper.
    const key = `${threads}:${this.walkSource}`;
    if (prepared.has(key)) return;
    prepared.add(key);
    const head = this.head(Math.min(PREPARE_TREES, this.nodes.length));
    const { d, K, cuts } = this;
    // Enough rows for a chunk of PREPARE_ROWS per thread on the shared path.
    const n = PREPARE_ROWS * threads;
    const x = new Float64Array(n * d);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < d; j++) {
        const c = cuts[j]!;
        const k = (i * 7 + j * 13) % (c.length + 1);
        x[i * d + j] = c.length === 0 ? 0 : k < c.length ? c[k]! : c[c.length - 1]! + 1;
      }
    }
    const scale = 1 / head.nodes.length;
    const out = new Float64Array(n * K);
    const paths: Path[] = threads > 1 ? ['here', 'shared'] : ['here'];
    const runs = paths.flatMap((path) => {
      const rows = path === 'here' ? PREPARE_ROWS : n;
      return [() => head.addLeafValues(x, rows, out, path), () => head.vote(x, rows, scale, path)];
    });
    if (threads > 1) {
      const vote: VotePlan = {
        labels: new Int32Array(PREPARE_ROWS),
        bound: head.bound,
        scale,
        walks: new Float64Array(1),
      };
      prepareHelpers(
        [head.job(x, PREPARE_ROWS, out, null), head.job(x, PREPARE_ROWS, new Float64Array(0), vote)],
        PREPARE_RUNS,
      );
    }
    for (let r = 0; r < PREPARE_RUNS; r++) {
      if (r < 2) forgetWorkingMemory();
      runs[r % runs.length]!();
    }
  }

  /**
   * The first k trees, on the thresholds, layout and walk of all of them (for `prepare`); their bounds
   * are those of all the trees less the bound of the trees after them.
   */
  private head(k: number): CodedTrees {
    const rest = this.bound[k]!;
    const bound = this.bound.slice(0, k + 1).map((b) => (Number.isFinite(rest) ? b - rest : b));
    const fields = { nodes: this.nodes.slice(0, k), values: this.values.slice(0, k), bound };
    return Object.assign(Object.create(CodedTrees.prototype) as CodedTrees, this, fields);
  }

  /** The job of walking n rows of x, for `runChunks`: the only place jobs are made (see `prepare`). */
  private job(x: Float64Array, n: number, out: Float64Array, vote: VotePlan | null): TreeJob {
    const { d, K, nodes, values, layout, cutIndex, walkSource } = this;
    return {
      nodes,
      values,
      cutIndex,
      walkSource,
      layout,
      d,
      K,
      x,
      n,
      out,
      control: null,
      chunkRows: Math.max(8, Math.floor(BLOCK_CODES / d)),
      every: VOTE_EVERY,
      vote,
    };
  }

  private run(x: Float64Array, n: number, out: Float64Array, vote: VotePlan | null, path: Path): void {
    const threads = predictionThreads();
    const job = this.job(x, n, out, vote);
    const parallel =
      path === 'auto' ? threads > 1 && n * this.nodes.length >= PARALLEL_WORK && n >= 64 : path === 'shared';
    // One chunk per thread when a block allows: rows cost about the same wherever they sit in a batch,
    // and smaller chunks, though they even out the threads' finishing times, fetch every tree more often.
    if (parallel) job.chunkRows = Math.max(8, Math.min(job.chunkRows, Math.ceil(n / threads)));
    if (vote) vote.walks = new Float64Array(Math.ceil(n / job.chunkRows));
    if (parallel) runInThreads(job, path === 'shared' ? 1 : threads);
    else runHere(job);
  }
}

/**
 * Compile one tree into `nd` (its node words) and `value` (its class distributions, K per node); returns
 * its largest leaf value (infinite when one is negative or not finite). A function of typed arrays and
 * numbers, every property read before the loops: as a method that read the tree's fields and stored into
 * the model in its loops, its optimised code was thrown away for every new forest (tens of ms each time).
 */
function compileTree(
  t: SplitNodes,
  cuts: readonly Float64Array[],
  layout: Layout,
  K: number,
  nd: Int32Array,
  value: Float64Array,
): number {
  const { packed, featureMask, featureBits } = layout;
  const top = 2 ** layout.rankBits;
  const childScale = 2 ** layout.childShift;
  const { left, right, feature, threshold } = t;
  const tv = t.value;
  const m = left.length;
  // Breadth-first order puts each split's two children next to each other.
  const order = new Int32Array(m);
  const renumbered = new Int32Array(m);
  let size = 1;
  for (let q = 0; q < size; q++) {
    const i = order[q]!;
    const l = left[i]!;
    if (l < 0) continue;
    const r = right[i]!;
    renumbered[l] = size;
    order[size++] = l;
    renumbered[r] = size;
    order[size++] = r;
  }
  let leafMax = 0;
  for (let q = 0; q < size; q++) {
    const i = order[q]!;
    for (let k = 0; k < K; k++) value[q * K + k] = tv[i * K + k]!;
    const leaf = left[i]! < 0;
    if (leaf) {
      for (let k = 0; k < K; k++) {
        const v = tv[i * K + k]!;
        leafMax = v >= 0 && v < Number.POSITIVE_INFINITY ? Math.max(leafMax, v) : Number.POSITIVE_INFINITY;
      }
    }
    // A leaf: the all-ones feature, threshold field 0, and itself as child.
    let word = featureMask;
    let child = q;
    if (!leaf) {
      const f = feature[i]!;
      const v = threshold[i]!;
      // x <= threshold iff code < rank; rank 0 (a NaN threshold) sends every row right.
      const rank = Number.isNaN(v) ? 0 : lowerBound(cuts[f]!, v) + 1;
      word = ((top - rank) << featureBits) + f;
      child = renumbered[left[i]!]!;
    }
    if (packed) nd[q] = child * childScale + word;
    else {
      nd[2 * q] = word;
      nd[2 * q + 1] = child;
    }
  }
  return leafMax;
}
