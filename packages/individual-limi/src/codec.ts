import { type Attribute, clampToDomain, type Dataset } from '@fb/core';

/** Position of the largest of e[start..start + k) (the first on ties), relative to start. */
export function argmaxAt(e: ArrayLike<number>, start: number, k: number): number {
  let best = 0;
  for (let c = 1; c < k; c++) if (e[start + c]! > e[start + best]!) best = c;
  return best;
}

/**
 * The numeric form the generators learn: one standardised column per ordinal or continuous attribute,
 * one 0/1 column per category of a categorical attribute. `decode` maps any vector of that width back
 * onto the attribute domains: numbers are unstandardised and snapped onto their grid, each categorical
 * block becomes its largest entry.
 */
export class TabularCodec {
  readonly d: number;
  /** Encoded width. */
  readonly width: number;
  /** Per attribute: first encoded column. */
  readonly offset: Int32Array;
  /** Per attribute: number of categories (0 for a numeric attribute). */
  readonly categories: Int32Array;
  readonly mean: Float64Array;
  readonly scale: Float64Array;
  private readonly attributes: readonly Attribute[];

  constructor(dataset: Dataset) {
    const { n, d, x, schema } = dataset;
    this.d = d;
    this.attributes = schema.attributes;
    this.offset = new Int32Array(d);
    this.categories = new Int32Array(d);
    this.mean = new Float64Array(d);
    this.scale = new Float64Array(d).fill(1);
    let width = 0;
    schema.attributes.forEach((a, j) => {
      this.offset[j] = width;
      this.categories[j] = a.categories ? a.categories.length : 0;
      width += a.categories ? a.categories.length : 1;
      if (a.categories) return;
      let m = 0;
      for (let i = 0; i < n; i++) m += x[i * d + j]!;
      m /= n;
      let v = 0;
      for (let i = 0; i < n; i++) v += (x[i * d + j]! - m) ** 2;
      this.mean[j] = m;
      this.scale[j] = Math.sqrt(v / n) || 1;
    });
    this.width = width;
  }

  /** Encode `m` rows (m x d) into m x width. */
  encode(x: Float64Array, m: number): Float64Array {
    const { d, width } = this;
    const out = new Float64Array(m * width);
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < d; j++) {
        const v = x[i * d + j]!;
        const o = i * width + this.offset[j]!;
        if (this.categories[j]! > 0) out[o + v] = 1;
        else out[o] = (v - this.mean[j]!) / this.scale[j]!;
      }
    }
    return out;
  }

  /** Decode `m` encoded vectors (m x width) into rows on the domain (m x d), written at `out[outOff..]`. */
  decode(e: ArrayLike<number>, m: number, out: Float64Array, outOff = 0): void {
    const { d, width } = this;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < d; j++) {
        const o = i * width + this.offset[j]!;
        const k = this.categories[j]!;
        out[outOff + i * d + j] =
          k > 0
            ? argmaxAt(e, o, k)
            : clampToDomain(this.attributes[j]!, this.mean[j]! + this.scale[j]! * e[o]!);
      }
    }
  }
}
