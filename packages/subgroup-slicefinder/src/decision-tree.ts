import type { RunController } from '@fb/core';
import { AlphaInvesting } from './alpha-investing.js';
import type { SliceColumn } from './columns.js';
import { describeSlice, type EvaluatedSlice, moments, testInOrder } from './slice-stats.js';

export interface TreeParams {
  k: number;
  maxDepth: number;
  minSize: number;
  minEffectSize: number;
  alpha: number;
  /** Initial α-investing wealth (α when absent). */
  wealth?: number;
}

/** A node of the tree: its statistics (on the test rows), and the codes each attribute is restricted to (null = any). */
export interface TreeSlice extends EvaluatedSlice {
  depth: number;
  allowed: (Int32Array | null)[];
  /** Rows of the whole data set in the node (`size` counts the test rows its statistics come from). */
  rowsInData: number;
}

export interface TreeResult {
  slices: TreeSlice[];
  nodes: number;
  tests: number;
  wealth: number;
  complete: boolean;
}

interface Node {
  /** Rows the tree is grown on. */
  rows: Int32Array;
  /** Rows the node is tested on (the same array when the tree is not grown on a held-out half). */
  testRows: Int32Array;
  depth: number;
  allowed: (Int32Array | null)[];
}

type Control = Pick<RunController, 'checkpoint'>;

function entropy(pos: number, total: number): number {
  if (total === 0 || pos === 0 || pos === total) return 0;
  const p = pos / total;
  return -p * Math.log2(p) - (1 - p) * Math.log2(1 - p);
}

/** The codes an attribute can still take in a node. */
function codesOf(col: SliceColumn, allowed: Int32Array | null): Int32Array {
  return allowed ?? Int32Array.from({ length: col.arity }, (_, c) => c);
}

interface Split {
  attribute: number;
  left: Int32Array;
  right: Int32Array;
}

/**
 * The split of a node with the largest information gain on the error indicator: `code < t` against
 * `code >= t` for ordered attributes, `code = v` against the rest for categorical ones. Null when no
 * split gains information.
 */
function bestSplit(columns: SliceColumn[], errors: Uint8Array, node: Node): Split | null {
  const { rows } = node;
  const total = rows.length;
  let errTotal = 0;
  for (let r = 0; r < total; r++) errTotal += errors[rows[r]!]!;
  const h = entropy(errTotal, total);
  let best: Split | null = null;
  let bestGain = 0;
  columns.forEach((col, j) => {
    const cnt = new Int32Array(col.arity);
    const err = new Int32Array(col.arity);
    for (let r = 0; r < total; r++) {
      const i = rows[r]!;
      cnt[col.codes[i]!]!++;
      err[col.codes[i]!]! += errors[i]!;
    }
    const codes = codesOf(col, node.allowed[j]!);
    const present = codes.filter((c) => cnt[c]! > 0);
    if (present.length < 2) return;
    const gainOf = (nl: number, el: number) =>
      h - (nl / total) * entropy(el, nl) - ((total - nl) / total) * entropy(errTotal - el, total - nl);
    if (col.ordered) {
      let nl = 0;
      let el = 0;
      for (let t = 1; t < present.length; t++) {
        nl += cnt[present[t - 1]!]!;
        el += err[present[t - 1]!]!;
        const gain = gainOf(nl, el);
        if (gain > bestGain) {
          bestGain = gain;
          const cut = present[t]!;
          best = { attribute: j, left: codes.filter((c) => c < cut), right: codes.filter((c) => c >= cut) };
        }
      }
    } else {
      for (const v of present) {
        const gain = gainOf(cnt[v]!, err[v]!);
        if (gain > bestGain) {
          bestGain = gain;
          best = { attribute: j, left: Int32Array.of(v), right: codes.filter((c) => c !== v) };
        }
      }
    }
  });
  return best;
}

function child(columns: SliceColumn[], node: Node, attribute: number, codes: Int32Array): Node {
  const member = new Uint8Array(columns[attribute]!.arity);
  for (const c of codes) member[c] = 1;
  const col = columns[attribute]!.codes;
  const rows = node.rows.filter((i) => member[col[i]!] === 1);
  const testRows = node.testRows === node.rows ? rows : node.testRows.filter((i) => member[col[i]!] === 1);
  const allowed = node.allowed.slice();
  allowed[attribute] = codes;
  return { rows, testRows, depth: node.depth + 1, allowed };
}

/**
 * SliceFinder's decision-tree search: a CART tree of depth at most `maxDepth` splits the grow rows by
 * information gain on the model's errors (a child is kept when it has at least `minSize` rows), and
 * its nodes are visited breadth first — shallower, more interpretable slices first. Every node is
 * tested under α-investing on the test rows: Welch's test of its loss against the other test rows.
 * It is recommended when the test rejects and its effect size reaches `minEffectSize`; the search
 * stops after k recommendations. `split` holds the grow rows and the test rows: disjoint halves, so
 * that the splits, chosen on the errors, do not select the losses they are tested on; or the same
 * rows (the paper's search, whose p-values are then not valid).
 */
export async function treeSearch(
  columns: SliceColumn[],
  loss: Float64Array,
  errors: Uint8Array,
  split: { grow: Int32Array; test: Int32Array },
  params: TreeParams,
  ctl: Control,
): Promise<TreeResult> {
  const all = moments(loss, split.test);
  const root: Node = {
    rows: split.grow,
    testRows: split.test,
    depth: 0,
    allowed: columns.map(() => null),
  };
  const investing = new AlphaInvesting(params.alpha, params.wealth ?? params.alpha);
  const slices: TreeSlice[] = [];
  const queue: Node[] = [root];
  let nodes = 0;
  let complete = true;
  // Breadth first: each node is split when dequeued, and its children are tested in turn.
  for (let head = 0; head < queue.length && slices.length < params.k; head++) {
    if (await ctl.checkpoint({ phase: 'decision-tree', done: head, total: queue.length })) {
      complete = false;
      break;
    }
    const node = queue[head]!;
    nodes++;
    if (node !== root) {
      const s: TreeSlice = {
        ...describeSlice(all, moments(loss, node.testRows)),
        depth: node.depth,
        allowed: node.allowed,
        rowsInData: node.rows === node.testRows ? node.rows.length : node.rows.length + node.testRows.length,
      };
      testInOrder([s], params.minEffectSize, 2, investing);
      if (s.problematic) slices.push(s);
    }
    if (node.depth >= params.maxDepth) continue;
    const split = bestSplit(columns, errors, node);
    if (split === null) continue;
    for (const codes of [split.left, split.right]) {
      const c = child(columns, node, split.attribute, codes);
      if (c.rows.length >= params.minSize) queue.push(c);
    }
  }
  return { slices, nodes, tests: investing.tests, wealth: investing.wealth, complete };
}
