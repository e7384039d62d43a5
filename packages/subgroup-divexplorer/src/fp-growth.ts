import { GrowableArray, type RunController } from '@fb/core';

/**
 * Frequent itemsets with, for each, its support (rows) and the sums of per-row statistics over its rows
 * (S values per pattern), in flat typed arrays. Items of a pattern are ascending item ids.
 */
export interface FrequentPatterns {
  count: number;
  /** Start of each pattern's items in `items`; count + 1 entries. */
  offsets: Int32Array;
  items: Int32Array;
  support: Float64Array;
  /** count x S sums of the row statistics. */
  stats: Float64Array;
  S: number;
}

type Control = Pick<RunController, 'checkpoint' | 'shouldStop'>;

/** Rows (or nodes) inserted into a tree between two polls of the budget (a few milliseconds of work). */
const INSERTS_PER_POLL = 256;

/** An FP-tree whose nodes carry a count and S summed statistics; items are frequency ranks. */
class FPTree {
  readonly S: number;
  size = 1; // node 0 is the root
  private readonly itemA = new GrowableArray((k) => new Int32Array(k), 256);
  private readonly parentA = new GrowableArray((k) => new Int32Array(k), 256);
  private readonly nextA = new GrowableArray((k) => new Int32Array(k), 256);
  private readonly countA = new GrowableArray((k) => new Float64Array(k), 256);
  private readonly statsA: GrowableArray<Float64Array>;
  /** Children as linked lists: first child of a node, next sibling of a node (-1: none). */
  private readonly firstChildA = new GrowableArray((k) => new Int32Array(k), 256);
  private readonly siblingA = new GrowableArray((k) => new Int32Array(k), 256);
  /** First node of each rank (linked through `next`), -1 when absent. */
  readonly head: Int32Array;

  constructor(ranks: number, S: number) {
    this.S = S;
    this.statsA = new GrowableArray((k) => new Float64Array(k), 256 * Math.max(1, S));
    this.head = new Int32Array(ranks).fill(-1);
    this.itemA.array[0] = -1;
    this.parentA.array[0] = -1;
    this.firstChildA.array[0] = -1;
  }

  get item() {
    return this.itemA.array;
  }
  get parent() {
    return this.parentA.array;
  }
  get next() {
    return this.nextA.array;
  }
  get count() {
    return this.countA.array;
  }
  get stats() {
    return this.statsA.array;
  }

  /** Add a path of ascending ranks with a weight and statistics (`stats[off..off+S)`). */
  insert(path: ArrayLike<number>, len: number, weight: number, stats: Float64Array, off: number): void {
    const { S } = this;
    let node = 0;
    for (let p = 0; p < len; p++) {
      const r = path[p]!;
      const item = this.itemA.array;
      const sibling = this.siblingA.array;
      let childNode = this.firstChildA.array[node]!;
      while (childNode >= 0 && item[childNode] !== r) childNode = sibling[childNode]!;
      if (childNode < 0) {
        childNode = this.size++;
        this.itemA.ensure(this.size)[childNode] = r;
        this.parentA.ensure(this.size)[childNode] = node;
        this.nextA.ensure(this.size)[childNode] = this.head[r]!;
        this.countA.ensure(this.size)[childNode] = 0;
        this.statsA.ensure(this.size * S).fill(0, childNode * S, childNode * S + S);
        this.firstChildA.ensure(this.size)[childNode] = -1;
        const first = this.firstChildA.array;
        this.siblingA.ensure(this.size)[childNode] = first[node]!;
        first[node] = childNode;
        this.head[r] = childNode;
      }
      this.count[childNode]! += weight;
      const st = this.stats;
      for (let s = 0; s < S; s++) st[childNode * S + s]! += stats[off + s]!;
      node = childNode;
    }
  }
}

/**
 * FP-growth (Han, Pei & Yin 2000) over transactions holding one item per attribute, each row carrying
 * S statistics that are summed over every pattern's rows (DivExplorer's outcome counts). Returns every
 * itemset with support count >= `minCount` and at most `maxLength` items, or null when stopped.
 */
export async function fpGrowth(
  transactions: Int32Array,
  m: number,
  nItems: number,
  rowStats: Float64Array,
  S: number,
  minCount: number,
  maxLength: number,
  ctl: Control,
): Promise<FrequentPatterns | null> {
  const n = transactions.length / m;
  const itemCount = new Float64Array(nItems);
  for (let k = 0; k < transactions.length; k++) itemCount[transactions[k]!]!++;
  const frequent: number[] = [];
  for (let it = 0; it < nItems; it++) if (itemCount[it]! >= minCount) frequent.push(it);
  frequent.sort((a, b) => itemCount[b]! - itemCount[a]! || a - b);
  const R = frequent.length;
  const rankOf = new Int32Array(nItems).fill(-1);
  frequent.forEach((it, r) => {
    rankOf[it] = r;
  });

  const tree = new FPTree(R, S);
  const path = new Int32Array(m);
  for (let i = 0; i < n; i++) {
    if (i % INSERTS_PER_POLL === 0 && ctl.shouldStop()) return null;
    // Insertion sort of the row's frequent ranks (a handful), ascending: no allocation per row.
    let len = 0;
    for (let j = 0; j < m; j++) {
      const r = rankOf[transactions[i * m + j]!]!;
      if (r < 0) continue;
      let at = len++;
      while (at > 0 && path[at - 1]! > r) {
        path[at] = path[at - 1]!;
        at--;
      }
      path[at] = r;
    }
    tree.insert(path, len, 1, rowStats, i * S);
  }

  const out = {
    count: 0,
    offsets: new GrowableArray((k) => new Int32Array(k)),
    items: new GrowableArray((k) => new Int32Array(k)),
    support: new GrowableArray((k) => new Float64Array(k)),
    stats: new GrowableArray((k) => new Float64Array(k), 1024 * Math.max(1, S)),
    itemsLength: 0,
  };
  out.offsets.array[0] = 0;
  const suffix: number[] = [];
  const sums = new Float64Array(S);
  const condCount = new Float64Array(R);
  const scratch = new Int32Array(R);

  const emit = (support: number) => {
    const k = out.count++;
    const items = suffix.map((r) => frequent[r]!).sort((a, b) => a - b);
    const start = out.itemsLength;
    out.items.ensure(start + items.length).set(items, start);
    out.itemsLength += items.length;
    out.offsets.ensure(out.count + 1)[out.count] = out.itemsLength;
    out.support.ensure(out.count)[k] = support;
    out.stats.ensure(out.count * S).set(sums, k * S);
  };

  let stopped = false;
  const mine = async (t: FPTree): Promise<void> => {
    for (let r = R - 1; r >= 0 && !stopped; r--) {
      // Polled per rank as well as between conditional trees: on wide data one rank's prefix paths
      // and conditional tree are long work.
      if (ctl.shouldStop()) {
        stopped = true;
        break;
      }
      let node = t.head[r]!;
      if (node < 0) continue;
      let support = 0;
      sums.fill(0);
      for (let v = node; v >= 0; v = t.next[v]!) {
        support += t.count[v]!;
        for (let s = 0; s < S; s++) sums[s]! += t.stats[v * S + s]!;
      }
      if (support < minCount) continue;
      suffix.push(r);
      emit(support);
      if (suffix.length < maxLength) {
        // Conditional pattern base: the prefix path of every node of rank r, weighted by its count.
        const touched: number[] = [];
        for (let v = node; v >= 0; v = t.next[v]!) {
          for (let u = t.parent[v]!; u > 0; u = t.parent[u]!) {
            const q = t.item[u]!;
            if (condCount[q] === 0) touched.push(q);
            condCount[q]! += t.count[v]!;
          }
        }
        let any = false;
        for (const q of touched) if (condCount[q]! >= minCount) any = true;
        if (any) {
          const cond = new FPTree(R, S);
          let inserted = 0;
          for (node = t.head[r]!; node >= 0 && !stopped; node = t.next[node]!) {
            if (++inserted % INSERTS_PER_POLL === 0 && ctl.shouldStop()) stopped = true;
            let len = 0;
            for (let u = t.parent[node]!; u > 0; u = t.parent[u]!) {
              const q = t.item[u]!;
              if (condCount[q]! >= minCount) scratch[len++] = q;
            }
            if (len === 0) continue;
            scratch.subarray(0, len).reverse();
            cond.insert(scratch, len, t.count[node]!, t.stats, node * S);
          }
          for (const q of touched) condCount[q] = 0;
          if (stopped) break;
          if (await ctl.checkpoint({ phase: 'fp-growth', done: out.count, total: out.count })) stopped = true;
          else await mine(cond);
        } else {
          for (const q of touched) condCount[q] = 0;
        }
      }
      suffix.pop();
    }
  };
  await mine(tree);
  if (stopped) return null;
  return {
    count: out.count,
    offsets: out.offsets.array.slice(0, out.count + 1),
    items: out.items.array.slice(0, out.itemsLength),
    support: out.support.array.slice(0, out.count),
    stats: out.stats.array.slice(0, out.count * S),
    S,
  };
}
