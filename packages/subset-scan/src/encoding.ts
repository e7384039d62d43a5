import { type Condition, type Dataset, isDiscrete } from '@fb/core';

/** How one attribute's values were turned into scan codes, and how to turn codes back into a condition. */
export interface AttributeEncoding {
  readonly attribute: string;
  /** Whether the codes are quantile bins (reported as intervals) rather than the attribute's own values. */
  readonly binned: boolean;
  /** Whether the codes are ordered (ordinal attributes and quantile bins), so that contiguity applies. */
  readonly ordered: boolean;
  /** Number of codes. */
  readonly arity: number;
  /** The condition satisfied by exactly the dataset rows whose code is in `codes` (ascending). */
  condition(codes: Int32Array): Condition;
}

export interface EncodingOptions {
  /** Discrete attributes with at most this many distinct values are scanned value by value. */
  maxValues: number;
  /** Number of quantile bins for the other attributes. */
  bins: number;
}

/** Sorted distinct values of column j and how many rows hold each. */
function distinctValues(ds: Dataset, j: number): { values: Float64Array; counts: Int32Array } {
  const col = new Float64Array(ds.n);
  for (let i = 0; i < ds.n; i++) col[i] = ds.x[i * ds.d + j]!;
  col.sort();
  const values: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < col.length; i++) {
    if (i > 0 && col[i] === col[i - 1]) counts[counts.length - 1]!++;
    else {
      values.push(col[i]!);
      counts.push(1);
    }
  }
  return { values: Float64Array.from(values), counts: Int32Array.from(counts) };
}

/** Index of `v` in the sorted array `values` (which contains it). */
function indexOf(values: Float64Array, v: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Quantile bins over distinct values: a value whose first row has rank r (0-based, of n) goes to bin
 * ⌊r·bins/n⌋, so tied rows never straddle two bins; empty bins are dropped. Returns the bin of each
 * distinct value.
 */
function quantileBins(counts: Int32Array, n: number, bins: number): { binOf: Int32Array; arity: number } {
  const binOf = new Int32Array(counts.length);
  let rank = 0;
  let code = -1;
  let lastRaw = -1;
  for (let t = 0; t < counts.length; t++) {
    const raw = Math.min(bins - 1, Math.floor((rank * bins) / n));
    if (raw !== lastRaw) {
      code++;
      lastRaw = raw;
    }
    binOf[t] = code;
    rank += counts[t]!;
  }
  return { binOf, arity: code + 1 };
}

function valueEncoding(attribute: string, values: Float64Array, ordered: boolean): AttributeEncoding {
  return {
    attribute,
    binned: false,
    ordered,
    arity: values.length,
    condition: (codes) => ({ attribute, values: Array.from(codes, (c) => values[c]!) }),
  };
}

function binEncoding(
  attribute: string,
  values: Float64Array,
  binOf: Int32Array,
  arity: number,
): AttributeEncoding {
  const first = new Int32Array(arity).fill(-1);
  const last = new Int32Array(arity);
  binOf.forEach((b, t) => {
    if (first[b] === -1) first[b] = t;
    last[b] = t;
  });
  return {
    attribute,
    binned: true,
    ordered: true,
    arity,
    condition(codes) {
      const lo = codes[0]!;
      const hi = codes[codes.length - 1]!;
      if (hi - lo + 1 === codes.length) {
        return { attribute, min: values[first[lo]!]!, max: values[last[hi]!]!, maxInclusive: true };
      }
      // A union of bins with gaps is no single interval: list the data values it covers.
      const covered: number[] = [];
      for (const b of codes) for (let t = first[b]!; t <= last[b]!; t++) covered.push(values[t]!);
      return { attribute, values: covered };
    },
  };
}

/**
 * Code attributes of a dataset for the scan (every attribute, or the listed column indices). Discrete attributes with at most `maxValues` distinct values in
 * the data get one code per value; continuous attributes and discrete ones with more values get
 * `bins` quantile bins, reported as intervals whose bounds are observed values, so that the rows
 * satisfying a reported condition are exactly the rows scanned in those bins.
 */
export function encodeAttributes(
  ds: Dataset,
  options: EncodingOptions,
  columns: readonly number[] = ds.schema.attributes.map((_, j) => j),
): { codes: Int32Array[]; arity: number[]; encodings: AttributeEncoding[] } {
  const codes: Int32Array[] = [];
  const encodings: AttributeEncoding[] = [];
  for (const j of columns) {
    const a = ds.schema.attributes[j]!;
    const { values, counts } = distinctValues(ds, j);
    const byValue = isDiscrete(a) && values.length <= options.maxValues;
    let codeOf: Int32Array;
    if (byValue) {
      codeOf = Int32Array.from(values, (_, t) => t);
      encodings.push(valueEncoding(a.name, values, a.kind !== 'categorical'));
    } else {
      const { binOf, arity } = quantileBins(counts, ds.n, options.bins);
      codeOf = binOf;
      encodings.push(binEncoding(a.name, values, binOf, arity));
    }
    const col = new Int32Array(ds.n);
    for (let i = 0; i < ds.n; i++) col[i] = codeOf[indexOf(values, ds.x[i * ds.d + j]!)]!;
    codes.push(col);
  }
  return { codes, arity: encodings.map((e) => e.arity), encodings };
}
