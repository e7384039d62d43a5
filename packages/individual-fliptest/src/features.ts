import type { Dataset } from '@fb/core';

/**
 * The features FlipTest transports: every attribute except the one that splits the groups,
 * standardised (mean 0, standard deviation 1) on the union of both samples, as the reference code
 * does. A constant column keeps scale 1.
 */
export class StandardFeatures {
  /** Attribute positions used, in schema order. */
  readonly columns: Int32Array;
  readonly mean: Float64Array;
  readonly scale: Float64Array;

  constructor(dataset: Dataset, excluded: number, rows: readonly Int32Array[]) {
    const { d, x } = dataset;
    this.columns = Int32Array.from({ length: d }, (_, j) => j).filter((j) => j !== excluded);
    const p = this.columns.length;
    this.mean = new Float64Array(p);
    this.scale = new Float64Array(p);
    let count = 0;
    for (const group of rows) {
      for (const i of group) for (let k = 0; k < p; k++) this.mean[k]! += x[i * d + this.columns[k]!]!;
      count += group.length;
    }
    for (let k = 0; k < p; k++) this.mean[k]! /= count;
    for (const group of rows)
      for (const i of group)
        for (let k = 0; k < p; k++) this.scale[k]! += (x[i * d + this.columns[k]!]! - this.mean[k]!) ** 2;
    for (let k = 0; k < p; k++) {
      const sd = Math.sqrt(this.scale[k]! / count);
      this.scale[k] = sd > 0 ? sd : 1;
    }
  }

  /** Standardised features of dataset rows `rows`, rows.length x p, row-major. */
  of(dataset: Dataset, rows: Int32Array): Float64Array {
    const p = this.columns.length;
    const out = new Float64Array(rows.length * p);
    for (let r = 0; r < rows.length; r++) this.standardize(dataset.x, rows[r]! * dataset.d, out, r * p);
    return out;
  }

  /** Standardise the full-width row at `x[off..]` into `out[outOff..]`. */
  standardize(x: Float64Array, off: number, out: Float64Array, outOff: number): void {
    for (let k = 0; k < this.columns.length; k++)
      out[outOff + k] = (x[off + this.columns[k]!]! - this.mean[k]!) / this.scale[k]!;
  }
}

/** FlipTest's cost: the squared L1 distance between standardised rows. */
export function squaredL1(a: Float64Array, aOff: number, b: Float64Array, bOff: number, p: number): number {
  let s = 0;
  for (let k = 0; k < p; k++) s += Math.abs(a[aOff + k]! - b[bOff + k]!);
  return s * s;
}

/** The n x m cost matrix between standardised row sets `a` (n x p) and `b` (m x p). */
export function costMatrix(a: Float64Array, n: number, b: Float64Array, m: number, p: number): Float64Array {
  const cost = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) cost[i * m + j] = squaredL1(a, i * p, b, j * p, p);
  return cost;
}
