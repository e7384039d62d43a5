import {
  argmaxRows,
  type Classifier,
  DataError,
  type Dataset,
  defineSchema,
  type OptionsSchema,
  Rng,
  resolveOptions,
  type Schema,
} from '@fb/core';
import { batchRows, batchShape, notFiniteError } from './batch.js';
import { assertFinite, decodeFloat64, decodeInt32, encodeArray, readStored, storedError } from './codec.js';
import { type TreeArrays, TreeBuilder, type TreeWork } from './tree-builder.js';
import {
  describeOptions,
  growParams,
  prepareTreeData,
  type TreeOptions,
  treeProperties,
} from './tree-options.js';

export type DecisionTreeOptions = TreeOptions;

export const decisionTreeOptionsSchema = {
  type: 'object',
  properties: treeProperties('all'),
  additionalProperties: false,
} satisfies OptionsSchema;

const FORMAT = 'fairbench/decision-tree';
const VERSION = 1;

/** A tree's arrays as stored in JSON (typed arrays as base64, see `toJSON`). */
export interface TreeNodesJSON {
  readonly nodeCount: number;
  readonly maxDepth: number;
  readonly feature: string;
  readonly threshold: string;
  readonly left: string;
  readonly value: string;
  readonly nodeSamples: string;
  readonly nodeWeight: string;
  readonly impurity: string;
  readonly featureImportances: string;
}

export interface DecisionTreeJSON {
  readonly format: typeof FORMAT;
  readonly version: typeof VERSION;
  readonly schema: Schema;
  readonly options: DecisionTreeOptions;
  readonly tree: TreeNodesJSON;
}

/**
 * A fitted CART classification tree held in flat typed arrays (node 0 is the root). Its structure is
 * public and read-only by contract: go left at node t iff x[feature[t]] <= threshold[t]; leaves have
 * left = right = -1 and feature = -1; `value` holds every node's training class distribution.
 */
export class DecisionTree implements Classifier {
  readonly nFeatures: number;
  readonly nClasses: number;
  readonly description: string;
  readonly schema: Schema;
  readonly options: Readonly<DecisionTreeOptions>;
  readonly nodeCount: number;
  readonly feature: Int32Array;
  readonly threshold: Float64Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  /** Class distribution of the training weight at each node (nodeCount x nClasses, rows sum to 1). */
  readonly value: Float64Array;
  readonly nodeSamples: Int32Array;
  readonly nodeWeight: Float64Array;
  readonly impurity: Float64Array;
  /** Normalised weighted impurity decrease per feature (mean decrease in impurity). */
  readonly featureImportances: Float64Array;
  /** Depth of the deepest leaf (root = 0). */
  readonly depth: number;
  readonly leafCount: number;
  private leafLabels: Int32Array | undefined;
  /** The nodes in the form the batch walk steps through (see `StepNodes`), made on the first batch. */
  private steps: StepNodes | undefined;

  /** @internal Use `fitDecisionTree` or `DecisionTree.fromJSON`. */
  constructor(schema: Schema, options: DecisionTreeOptions, tree: TreeArrays, description?: string) {
    this.schema = schema;
    this.options = Object.freeze({ ...options });
    this.nFeatures = schema.attributes.length;
    this.nClasses = schema.outcome.labels.length;
    this.nodeCount = tree.nodeCount;
    this.feature = tree.feature;
    this.threshold = tree.threshold;
    this.left = tree.left;
    this.right = tree.right;
    this.value = tree.value;
    this.nodeSamples = tree.nodeSamples;
    this.nodeWeight = tree.nodeWeight;
    this.impurity = tree.impurity;
    this.featureImportances = tree.featureImportances;
    this.depth = tree.maxDepth;
    let leaves = 0;
    for (let t = 0; t < tree.nodeCount; t++) if (tree.left[t]! < 0) leaves++;
    this.leafCount = leaves;
    this.description =
      description ?? describeOptions('decision-tree', options, decisionTreeOptionsSchema.properties);
  }

  /** Leaf reached by the row starting at x[base]. No allocation, no checks. */
  leafAt(x: Float64Array, base: number): number {
    const { feature, threshold, left } = this;
    let node = 0;
    let l = left[0]!;
    while (l >= 0) {
      node = x[base + feature[node]!]! <= threshold[node]! ? l : l + 1;
      l = left[node]!;
    }
    return node;
  }

  /** Leaf id of each row. */
  apply(x: Float64Array): Int32Array {
    return this.leaves(x, batchShape(this.schema, x));
  }

  /** Node ids from the root to the leaf for the row starting at x[offset]. */
  decisionPath(x: Float64Array, offset = 0): Int32Array {
    const d = this.nFeatures;
    if (!Number.isInteger(offset) || offset < 0 || offset + d > x.length) {
      throw new DataError(
        'DATA_SHAPE',
        `no row of width ${d} starts at offset ${offset} of ${x.length} values`,
      );
    }
    batchRows(this.schema, x.subarray(offset, offset + d));
    const path = [0];
    let node = 0;
    while (this.left[node]! >= 0) {
      node = x[offset + this.feature[node]!]! <= this.threshold[node]! ? this.left[node]! : this.right[node]!;
      path.push(node);
    }
    return Int32Array.from(path);
  }

  // One tree walks the rows over their raw values (about depth comparisons per row): encoding a row for
  // the coded walk of forests costs a search per feature, more than this whole walk.
  predictProba(x: Float64Array): Float64Array {
    const n = batchShape(this.schema, x);
    const { nClasses: K, value } = this;
    const leaves = this.leaves(x, n);
    const out = new Float64Array(n * K);
    for (let i = 0; i < n; i++) {
      const leaf = leaves[i]! * K;
      for (let k = 0; k < K; k++) out[i * K + k] = value[leaf + k]!;
    }
    return out;
  }

  predict(x: Float64Array): Int32Array {
    const n = batchShape(this.schema, x);
    const label = (this.leafLabels ??= argmaxRows(this.value, this.nClasses));
    return this.walk(x, n, label);
  }

  /** Leaf of each of n rows. */
  private leaves(x: Float64Array, n: number): Int32Array {
    return this.walk(x, n, null);
  }

  /** Leaf of each of n rows, or its entry of `perLeaf`; throws when a value is not finite. */
  private walk(x: Float64Array, n: number, perLeaf: Int32Array | null): Int32Array {
    const out = new Int32Array(n);
    const steps = (this.steps ??= stepNodes(this.feature, this.threshold, this.left));
    const check = walkRows(steps, x, n, this.nFeatures, perLeaf, out);
    if (check !== 0) throw notFiniteError(this.schema, x);
    return out;
  }

  /** The node arrays in the stored form shared with the forest. */
  nodesJSON(): TreeNodesJSON {
    return {
      nodeCount: this.nodeCount,
      maxDepth: this.depth,
      feature: encodeArray(this.feature),
      threshold: encodeArray(this.threshold),
      left: encodeArray(this.left),
      value: encodeArray(this.value),
      nodeSamples: encodeArray(this.nodeSamples),
      nodeWeight: encodeArray(this.nodeWeight),
      impurity: encodeArray(this.impurity),
      featureImportances: encodeArray(this.featureImportances),
    };
  }

  toJSON(): DecisionTreeJSON {
    return {
      format: FORMAT,
      version: VERSION,
      schema: this.schema,
      options: { ...this.options },
      tree: this.nodesJSON(),
    };
  }

  static fromJSON(json: unknown): DecisionTree {
    const j = readStored<DecisionTreeJSON>(json, FORMAT, VERSION, 'decision tree');
    const schema = defineSchema(j.schema as Schema);
    const options = resolveOptions<DecisionTreeOptions>(decisionTreeOptionsSchema, j.options);
    const tree = new DecisionTree(schema, options, treeFromJSON(j.tree, schema));
    if (!walkPrepared) prepareWalk();
    return tree;
  }
}

/**
 * A tree's nodes for a walk without a branch per step: from node q a row goes to
 * `child[q] + (x[feature[q]] > threshold[q])`, the left child or the one after it (the right child).
 * A leaf is its own child with threshold +Infinity, so a row on a leaf stays there whatever its values
 * (NaN included); a NaN threshold, which sends every row right, becomes -Infinity.
 */
interface StepNodes {
  readonly feature: Int32Array;
  readonly threshold: Float64Array;
  readonly child: Int32Array;
}

function stepNodes(feature: Int32Array, threshold: Float64Array, left: Int32Array): StepNodes {
  const m = left.length;
  const steps = { feature: new Int32Array(m), threshold: new Float64Array(m), child: new Int32Array(m) };
  for (let q = 0; q < m; q++) {
    const leaf = left[q]! < 0;
    const v = threshold[q]!;
    steps.feature[q] = leaf ? 0 : feature[q]!;
    steps.threshold[q] = leaf ? Number.POSITIVE_INFINITY : Number.isNaN(v) ? Number.NEGATIVE_INFINITY : v;
    steps.child[q] = leaf ? q : left[q]!;
  }
  return steps;
}

let walkPrepared = false;

/**
 * Once per process, when the first tree is fitted or loaded: walk a stump over 130 rows 64 times, the
 * group-of-four and the one-by-one paths, with and without a label per leaf. That is enough for V8 to
 * optimise the walk, on a background thread while the fit or load goes on, so that the first `predict`
 * does not run it unoptimised for its first few milliseconds (a first `predict` of 100,000 Adult rows
 * took two to three times a later one without this). Costs under a millisecond. The walk takes the node
 * arrays as arguments, not in an object: V8 threw away the code optimised on the stump's object when the
 * first real tree's object reached it.
 */
function prepareWalk(): void {
  walkPrepared = true;
  const steps = stepNodes(Int32Array.of(0, -1, -1), Float64Array.of(0.5, 0, 0), Int32Array.of(1, -1, -1));
  const rows = 130;
  const x = new Float64Array(rows);
  for (let i = 0; i < rows; i++) x[i] = i & 1;
  const out = new Int32Array(rows);
  const labels = Int32Array.of(0, 0, 1);
  for (let r = 0; r < 64; r++) walkRows(steps, x, rows, 1, r & 1 ? labels : null, out);
}

/**
 * The leaf reached by each of n rows of width d, or its entry of perLeaf, into out. Returns 0 when every
 * value of the rows is finite, else NaN (the sum of v * 0): the values are checked in the same pass as the
 * walk, which reads each row once instead of twice. Non-finite values send rows along valid nodes to
 * some leaf; the caller then throws. Rows walk four at a time (`walkFours`), the last n mod 4 one by one
 * (`walkEach`): two functions, because code after a long loop that has not yet run when V8 optimises
 * the loop throws the optimised code away when first reached (in the first batch, and again in the
 * next).
 */
function walkRows(
  steps: StepNodes,
  x: Float64Array,
  n: number,
  d: number,
  perLeaf: Int32Array | null,
  out: Int32Array,
): number {
  const full = n - (n & 3);
  const { feature: f, threshold: t, child: c } = steps;
  return walkFours(f, t, c, x, full, d, perLeaf, out) + walkEach(f, t, c, x, full, n, d, perLeaf, out);
}

/**
 * Rows 0..full-1 (full a multiple of 4), four together, one step each per turn of the loop, until all
 * four sit on leaves: one row's walk is a chain of dependent loads, and four chains keep the processor
 * busy while each waits (half the time of one row at a time on a depth-10 tree of Adult, two thirds on
 * a grown-out one). One loop with the walk in it, not a call per row: a process's first batch runs until
 * V8 has optimised that loop, and calls cost most in code not yet optimised.
 */
function walkFours(
  f: Int32Array,
  t: Float64Array,
  c: Int32Array,
  x: Float64Array,
  full: number,
  d: number,
  perLeaf: Int32Array | null,
  out: Int32Array,
): number {
  let check = 0;
  for (let i = 0; i < full; i += 4) {
    const b0 = i * d;
    const b1 = b0 + d;
    const b2 = b1 + d;
    const b3 = b2 + d;
    // The four rows' own sum first: the additions then do not wait for the walk.
    let rows = 0;
    for (let j = 0; j < 4 * d; j++) rows += x[b0 + j]! * 0;
    check += rows;
    let q0 = 0;
    let q1 = 0;
    let q2 = 0;
    let q3 = 0;
    while (c[q0] !== q0 || c[q1] !== q1 || c[q2] !== q2 || c[q3] !== q3) {
      q0 = c[q0]! + +(x[b0 + f[q0]!]! > t[q0]!);
      q1 = c[q1]! + +(x[b1 + f[q1]!]! > t[q1]!);
      q2 = c[q2]! + +(x[b2 + f[q2]!]! > t[q2]!);
      q3 = c[q3]! + +(x[b3 + f[q3]!]! > t[q3]!);
    }
    if (perLeaf === null) {
      out[i] = q0;
      out[i + 1] = q1;
      out[i + 2] = q2;
      out[i + 3] = q3;
    } else {
      out[i] = perLeaf[q0]!;
      out[i + 1] = perLeaf[q1]!;
      out[i + 2] = perLeaf[q2]!;
      out[i + 3] = perLeaf[q3]!;
    }
  }
  return check;
}

/** Rows from..n-1, one at a time (see `walkRows`). */
function walkEach(
  f: Int32Array,
  t: Float64Array,
  c: Int32Array,
  x: Float64Array,
  from: number,
  n: number,
  d: number,
  perLeaf: Int32Array | null,
  out: Int32Array,
): number {
  let check = 0;
  for (let i = from; i < n; i++) {
    const b = i * d;
    let row = 0;
    for (let j = 0; j < d; j++) row += x[b + j]! * 0;
    check += row;
    let q = 0;
    while (c[q] !== q) q = c[q]! + +(x[b + f[q]!]! > t[q]!);
    out[i] = perLeaf === null ? q : perLeaf[q]!;
  }
  return check;
}

/**
 * Rebuild and check a tree's arrays: child ids in range and increasing, every node but the root the
 * child of exactly one node (a tree, not a graph sharing subtrees), depths as stored, split features
 * in range with finite thresholds, and every node's class distribution finite, non-negative and
 * summing to 1.
 */
export function treeFromJSON(json: unknown, schema: Schema): TreeArrays {
  const bad = storedError('tree');
  const t = json as Partial<TreeNodesJSON> | null;
  if (t === null || typeof t !== 'object') return bad('not an object');
  const m = t.nodeCount!;
  if (!Number.isInteger(m) || m < 1) bad('nodeCount must be a positive integer');
  if (!Number.isInteger(t.maxDepth) || t.maxDepth! < 0) bad('maxDepth must be a non-negative integer');
  const d = schema.attributes.length;
  const K = schema.outcome.labels.length;
  const feature = decodeInt32(t.feature, m, 'feature');
  const threshold = decodeFloat64(t.threshold, m, 'threshold');
  const left = decodeInt32(t.left, m, 'left');
  const right = new Int32Array(m);
  const parent = new Int32Array(m).fill(-1);
  const depth = new Int32Array(m);
  let deepest = 0;
  for (let i = 0; i < m; i++) {
    const l = left[i]!;
    if (i > 0 && parent[i]! < 0) bad(`node ${i} is not the child of any node`);
    if (l < 0) {
      right[i] = -1;
      if (l !== -1 || feature[i] !== -1) bad(`leaf ${i} must have left = feature = -1`);
      deepest = Math.max(deepest, depth[i]!);
      continue;
    }
    if (l <= i || l + 1 >= m) bad(`node ${i} has child ${l} out of range`);
    if (!(feature[i]! >= 0 && feature[i]! < d)) bad(`node ${i} splits on feature ${feature[i]}`);
    if (!Number.isFinite(threshold[i]!)) bad(`node ${i} splits at threshold ${threshold[i]}`);
    for (const c of [l, l + 1]) {
      if (parent[c]! >= 0) bad(`node ${c} is a child of both node ${parent[c]} and node ${i}`);
      parent[c] = i;
      depth[c] = depth[i]! + 1;
    }
    right[i] = l + 1;
  }
  if (deepest !== t.maxDepth) bad(`maxDepth is ${t.maxDepth} but the deepest leaf is at depth ${deepest}`);
  const value = assertFinite(decodeFloat64(t.value, m * K, 'value'), 'stored tree: value');
  for (let i = 0; i < m; i++) {
    let sum = 0;
    for (let k = 0; k < K; k++) {
      const p = value[i * K + k]!;
      if (p < 0) bad(`node ${i} has a negative class share ${p}`);
      sum += p;
    }
    if (Math.abs(sum - 1) > 1e-6) bad(`node ${i}'s class shares sum to ${sum}, not 1`);
  }
  return {
    nodeCount: m,
    feature,
    threshold,
    left,
    right,
    value,
    nodeSamples: decodeInt32(t.nodeSamples, m, 'nodeSamples'),
    nodeWeight: decodeFloat64(t.nodeWeight, m, 'nodeWeight'),
    impurity: decodeFloat64(t.impurity, m, 'impurity'),
    featureImportances: decodeFloat64(t.featureImportances, d, 'featureImportances'),
    maxDepth: t.maxDepth!,
  };
}

/**
 * The last fit's work, for the next (fits are synchronous: one at a time on a thread; see `TreeWork`).
 * Not kept past this size, so that one large fit does not hold its memory.
 */
let spareWork: TreeWork | undefined;
const SPARE_WORK_BYTES = 64 * 2 ** 20;

/**
 * Fit a CART classification tree on pre-binned features (see `FeatureBinner`). `sampleWeight` holds one
 * non-negative weight per row. Deterministic for a given `seed` (it orders the candidate features).
 */
export function fitDecisionTree(
  dataset: Dataset,
  options: Partial<DecisionTreeOptions> = {},
  sampleWeight?: Float64Array,
): DecisionTree {
  const opts = resolveOptions<DecisionTreeOptions>(decisionTreeOptionsSchema, options);
  const { ds, data, rowWeight } = prepareTreeData(dataset, opts, sampleWeight);
  const params = growParams(opts, ds.d);
  const builder = new TreeBuilder(data, spareWork, true);
  // Taken: a fit that throws leaves none to the next.
  spareWork = undefined;
  const tree = builder.grow(rowWeight, params, Rng.create(opts.seed).fork('decision-tree'));
  const work = builder.work;
  let bytes = 0;
  for (const a of Object.values(work.nodes)) bytes += a.byteLength;
  if (bytes <= SPARE_WORK_BYTES) spareWork = work;
  if (!walkPrepared) prepareWalk();
  return new DecisionTree(ds.schema, opts, tree);
}
