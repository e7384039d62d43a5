/**
 * The tree walks behind `CodedTrees`, self-contained (no imports, no module state): prediction threads
 * run their source text.
 */

/** Bit fields of a node word (see `walkPacked` and `walkWide`). */
export interface Layout {
  readonly packed: boolean;
  readonly featureBits: number;
  readonly featureMask: number;
  readonly rankMask: number;
  readonly childShift: number;
  /** A leaf's rank field (all ones) in place: `(w & leafWord) === leafWord` iff w is a leaf. */
  readonly leafWord: number;
}

/** A batch to walk: the compiled trees, the rows, the output, and the chunk counters when shared. */
export interface TreeJob {
  nodes: readonly Int32Array[];
  values: readonly Float64Array[];
  cuts: readonly Float64Array[];
  layout: Layout;
  d: number;
  K: number;
  x: Float64Array;
  n: number;
  out: Float64Array;
  /** Shared counters [next chunk, chunks done, failed] when several threads share the job. */
  control: Int32Array | null;
  chunkRows: number;
}

/**
 * Encode and walk the job's chunks of rows; with a control array, claim chunks until none is left (every
 * thread of a shared job runs this). Self-contained: prediction threads run its source text.
 */
export function runChunks(job: TreeJob): void {
  const { nodes, values, cuts, layout, d, K, x, n, out, control, chunkRows } = job;
  const walk = layout.packed ? walkPacked : walkWide;
  const codes = new Int32Array(Math.min(chunkRows, n) * d);
  const chunks = Math.ceil(n / chunkRows);
  for (let c = control ? Atomics.add(control, 0, 1) : 0; c < chunks; ) {
    const lo = c * chunkRows;
    const rows = Math.min(chunkRows, n - lo);
    for (let j = 0; j < d; j++) {
      const cut = cuts[j]!;
      for (let i = 0; i < rows; i++) codes[i * d + j] = lowerBound(cut, x[(lo + i) * d + j]!);
    }
    for (let t = 0; t < nodes.length; t++)
      walk(nodes[t]!, values[t]!, K, layout, codes, d, rows, out, lo * K);
    if (control) {
      Atomics.add(control, 1, 1);
      Atomics.notify(control, 1);
      c = Atomics.add(control, 0, 1);
    } else c++;
  }
}

/** Number of values of the ascending array a that are < v. */
export function lowerBound(a: Float64Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Add the class distributions of the leaves l0..l7 reached by eight consecutive rows to out from o. */
export function addLeaves8(
  out: Float64Array,
  o: number,
  K: number,
  value: Float64Array,
  l0: number,
  l1: number,
  l2: number,
  l3: number,
  l4: number,
  l5: number,
  l6: number,
  l7: number,
): void {
  for (let k = 0; k < K; k++) {
    out[o + k]! += value[l0 * K + k]!;
    out[o + K + k]! += value[l1 * K + k]!;
    out[o + 2 * K + k]! += value[l2 * K + k]!;
    out[o + 3 * K + k]! += value[l3 * K + k]!;
    out[o + 4 * K + k]! += value[l4 * K + k]!;
    out[o + 5 * K + k]! += value[l5 * K + k]!;
    out[o + 6 * K + k]! += value[l6 * K + k]!;
    out[o + 7 * K + k]! += value[l7 * K + k]!;
  }
}

/**
 * Packed layout: a node is one int32, (child << shift) | (rank << featureBits) | feature, where child is
 * the left child (the right one is child + 1) and rank the threshold's rank + 1 (0 for a NaN threshold,
 * so every row goes right). A leaf has rank LEAF (all ones, above every code) and child = itself: the
 * step `child + (code >= rank)` leaves it where it is. The eight rows walked together so need no
 * branch per row; the loop ends when all eight sit on leaves.
 */
export function walkPacked(
  nd: Int32Array,
  value: Float64Array,
  K: number,
  layout: Layout,
  codes: Int32Array,
  d: number,
  rows: number,
  out: Float64Array,
  at: number,
): void {
  const { featureMask: fm, featureBits: fb, rankMask: rm, childShift: cs, leafWord } = layout;
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
    const root = nd[0]!;
    let w0 = root,
      w1 = root,
      w2 = root,
      w3 = root,
      w4 = root,
      w5 = root,
      w6 = root,
      w7 = root;
    while ((w0 & w1 & w2 & w3 & w4 & w5 & w6 & w7 & leafWord) !== leafWord) {
      w0 = nd[(w0 >>> cs) + +(codes[b0 + (w0 & fm)]! >= ((w0 >>> fb) & rm))]!;
      w1 = nd[(w1 >>> cs) + +(codes[b1 + (w1 & fm)]! >= ((w1 >>> fb) & rm))]!;
      w2 = nd[(w2 >>> cs) + +(codes[b2 + (w2 & fm)]! >= ((w2 >>> fb) & rm))]!;
      w3 = nd[(w3 >>> cs) + +(codes[b3 + (w3 & fm)]! >= ((w3 >>> fb) & rm))]!;
      w4 = nd[(w4 >>> cs) + +(codes[b4 + (w4 & fm)]! >= ((w4 >>> fb) & rm))]!;
      w5 = nd[(w5 >>> cs) + +(codes[b5 + (w5 & fm)]! >= ((w5 >>> fb) & rm))]!;
      w6 = nd[(w6 >>> cs) + +(codes[b6 + (w6 & fm)]! >= ((w6 >>> fb) & rm))]!;
      w7 = nd[(w7 >>> cs) + +(codes[b7 + (w7 & fm)]! >= ((w7 >>> fb) & rm))]!;
    }
    addLeaves8(
      out,
      at + i * K,
      K,
      value,
      w0 >>> cs,
      w1 >>> cs,
      w2 >>> cs,
      w3 >>> cs,
      w4 >>> cs,
      w5 >>> cs,
      w6 >>> cs,
      w7 >>> cs,
    );
  }
  for (; i < rows; i++) {
    const b = i * d;
    let w = nd[0]!;
    while ((w & leafWord) !== leafWord) w = nd[(w >>> cs) + +(codes[b + (w & fm)]! >= ((w >>> fb) & rm))]!;
    const o = at + i * K;
    const v = (w >>> cs) * K;
    for (let k = 0; k < K; k++) out[o + k]! += value[v + k]!;
  }
}

/**
 * Wide layout, for forests whose node index, rank and feature do not fit one int32 together: node q is
 * two int32s, (rank << featureBits | feature) at 2q and its left child at 2q + 1, with the same
 * self-looping leaves as the packed layout.
 */
export function walkWide(
  nd: Int32Array,
  value: Float64Array,
  K: number,
  layout: Layout,
  codes: Int32Array,
  d: number,
  rows: number,
  out: Float64Array,
  at: number,
): void {
  const { featureMask: fm, featureBits: fb, leafWord } = layout;
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
    const root = nd[0]!;
    let n0 = 0,
      n1 = 0,
      n2 = 0,
      n3 = 0,
      n4 = 0,
      n5 = 0,
      n6 = 0,
      n7 = 0;
    let w0 = root,
      w1 = root,
      w2 = root,
      w3 = root,
      w4 = root,
      w5 = root,
      w6 = root,
      w7 = root;
    while ((w0 & w1 & w2 & w3 & w4 & w5 & w6 & w7 & leafWord) !== leafWord) {
      n0 = nd[2 * n0 + 1]! + +(codes[b0 + (w0 & fm)]! >= w0 >>> fb);
      w0 = nd[2 * n0]!;
      n1 = nd[2 * n1 + 1]! + +(codes[b1 + (w1 & fm)]! >= w1 >>> fb);
      w1 = nd[2 * n1]!;
      n2 = nd[2 * n2 + 1]! + +(codes[b2 + (w2 & fm)]! >= w2 >>> fb);
      w2 = nd[2 * n2]!;
      n3 = nd[2 * n3 + 1]! + +(codes[b3 + (w3 & fm)]! >= w3 >>> fb);
      w3 = nd[2 * n3]!;
      n4 = nd[2 * n4 + 1]! + +(codes[b4 + (w4 & fm)]! >= w4 >>> fb);
      w4 = nd[2 * n4]!;
      n5 = nd[2 * n5 + 1]! + +(codes[b5 + (w5 & fm)]! >= w5 >>> fb);
      w5 = nd[2 * n5]!;
      n6 = nd[2 * n6 + 1]! + +(codes[b6 + (w6 & fm)]! >= w6 >>> fb);
      w6 = nd[2 * n6]!;
      n7 = nd[2 * n7 + 1]! + +(codes[b7 + (w7 & fm)]! >= w7 >>> fb);
      w7 = nd[2 * n7]!;
    }
    addLeaves8(out, at + i * K, K, value, n0, n1, n2, n3, n4, n5, n6, n7);
  }
  for (; i < rows; i++) {
    const b = i * d;
    let n = 0;
    let w = nd[0]!;
    while ((w & leafWord) !== leafWord) {
      n = nd[2 * n + 1]! + +(codes[b + (w & fm)]! >= w >>> fb);
      w = nd[2 * n]!;
    }
    const o = at + i * K;
    for (let k = 0; k < K; k++) out[o + k]! += value[n * K + k]!;
  }
}
