/** Interleave (split feature, left child) per node so that one step reads one cache line. */
export function packNodes(feature: Int32Array, left: Int32Array): Int32Array {
  const m = feature.length;
  const packed = new Int32Array(2 * m);
  for (let t = 0; t < m; t++) {
    packed[2 * t] = feature[t]!;
    packed[2 * t + 1] = left[t]!;
  }
  return packed;
}

/**
 * Add the leaf class distribution of rows lo..hi-1 of x (width d) to out (n x K). Four rows walk the tree
 * together so that their independent loads overlap; the step `left + (x > threshold)` has no branch
 * (the right child is always left + 1).
 */
export function addLeafValues(
  packed: Int32Array,
  threshold: Float64Array,
  value: Float64Array,
  K: number,
  x: Float64Array,
  d: number,
  lo: number,
  hi: number,
  out: Float64Array,
): void {
  const rootLeft = packed[1]!;
  let i = lo;
  for (; i + 3 < hi; i += 4) {
    const b0 = i * d;
    const b1 = b0 + d;
    const b2 = b1 + d;
    const b3 = b2 + d;
    let n0 = 0;
    let n1 = 0;
    let n2 = 0;
    let n3 = 0;
    let l0 = rootLeft;
    let l1 = rootLeft;
    let l2 = rootLeft;
    let l3 = rootLeft;
    // Leaves have left = -1: the loop runs while any of the four rows is still at an internal node.
    while ((l0 & l1 & l2 & l3) >= 0) {
      if (l0 >= 0) {
        n0 = l0 + +(x[b0 + packed[2 * n0]!]! > threshold[n0]!);
        l0 = packed[2 * n0 + 1]!;
      }
      if (l1 >= 0) {
        n1 = l1 + +(x[b1 + packed[2 * n1]!]! > threshold[n1]!);
        l1 = packed[2 * n1 + 1]!;
      }
      if (l2 >= 0) {
        n2 = l2 + +(x[b2 + packed[2 * n2]!]! > threshold[n2]!);
        l2 = packed[2 * n2 + 1]!;
      }
      if (l3 >= 0) {
        n3 = l3 + +(x[b3 + packed[2 * n3]!]! > threshold[n3]!);
        l3 = packed[2 * n3 + 1]!;
      }
    }
    const o = i * K;
    for (let k = 0; k < K; k++) {
      out[o + k]! += value[n0 * K + k]!;
      out[o + K + k]! += value[n1 * K + k]!;
      out[o + 2 * K + k]! += value[n2 * K + k]!;
      out[o + 3 * K + k]! += value[n3 * K + k]!;
    }
  }
  for (; i < hi; i++) {
    const base = i * d;
    let node = 0;
    let l = rootLeft;
    while (l >= 0) {
      node = l + +(x[base + packed[2 * node]!]! > threshold[node]!);
      l = packed[2 * node + 1]!;
    }
    for (let k = 0; k < K; k++) out[i * K + k]! += value[node * K + k]!;
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
