import { type Attribute, clampToDomain, type Dataset } from '@fb/core';

/** Counterparts under an exact map: the target row assigned to each source row (real individuals). */
export function assignedCounterparts(
  dataset: Dataset,
  targetRows: Int32Array,
  rowToCol: Int32Array,
): Float64Array {
  const { d, x } = dataset;
  const out = new Float64Array(rowToCol.length * d);
  rowToCol.forEach((j, i) => {
    const t = targetRows[j]!;
    out.set(x.subarray(t * d, (t + 1) * d), i * d);
  });
  return out;
}

/**
 * Counterparts under an entropic plan P_ij = u_i K_ij v_j: the barycentric map, the plan-weighted
 * mean of the target rows, snapped onto each attribute's domain. A categorical attribute has no mean,
 * so it takes the category with the most plan weight (the same projection for a nominal scale).
 */
export function barycentricCounterparts(
  dataset: Dataset,
  targetRows: Int32Array,
  n: number,
  kernel: Float32Array,
  v: Float64Array,
): Float64Array {
  const { d, x, schema } = dataset;
  const attrs: readonly Attribute[] = schema.attributes;
  const m = targetRows.length;
  const categorical = attrs.map((a) => (a.categories ? a.categories.length : 0));
  const voteOffset = new Int32Array(d);
  let votes = 0;
  categorical.forEach((k, j) => {
    voteOffset[j] = votes;
    votes += k;
  });
  const tally = new Float64Array(votes);
  const sums = new Float64Array(d);
  const out = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    sums.fill(0);
    tally.fill(0);
    let total = 0;
    for (let jj = 0; jj < m; jj++) {
      const w = kernel[i * m + jj]! * v[jj]!;
      if (w === 0) continue;
      total += w;
      const off = targetRows[jj]! * d;
      for (let j = 0; j < d; j++) {
        if (categorical[j]! > 0) tally[voteOffset[j]! + x[off + j]!]! += w;
        else sums[j]! += w * x[off + j]!;
      }
    }
    for (let j = 0; j < d; j++) {
      if (categorical[j]! > 0) {
        let best = 0;
        for (let c = 1; c < categorical[j]!; c++)
          if (tally[voteOffset[j]! + c]! > tally[voteOffset[j]! + best]!) best = c;
        out[i * d + j] = best;
      } else out[i * d + j] = clampToDomain(attrs[j]!, sums[j]! / total);
    }
  }
  return out;
}
