import { type Condition, type Dataset, isDiscrete } from '@fb/core';

/** How one attribute's values became codes 0..arity-1, and the condition each code stands for. */
export interface AttributeCodes {
  readonly attribute: string;
  /** Whether codes are quantile bins (reported as intervals) rather than single values. */
  readonly binned: boolean;
  readonly arity: number;
  /** The condition satisfied by exactly the dataset rows that got `code`. */
  condition(code: number): Condition;
}

/** The dataset recoded as SliceLine's input X: n x m integer codes, row-major. */
export interface RecodedTable {
  readonly n: number;
  readonly m: number;
  readonly codes: Int32Array;
  readonly attributes: AttributeCodes[];
}

export interface RecodeOptions {
  /** Discrete attributes with at most this many distinct values keep one code per value. */
  maxValues: number;
  /** Quantile bins for the other attributes. */
  bins: number;
}

/**
 * Recode every attribute: a discrete attribute with at most `maxValues` distinct observed values gets
 * one code per value; any other attribute gets equal-height bins over its distinct values (a value goes
 * to bin ⌊rank of its first row · bins / n⌋, so ties never straddle bins; empty bins are dropped).
 * Bins are reported as closed intervals whose bounds are observed values.
 */
export function recodeDataset(ds: Dataset, options: RecodeOptions): RecodedTable {
  const { n, d } = ds;
  const codes = new Int32Array(n * d);
  const col = new Float64Array(n);
  const attributes = ds.schema.attributes.map((a, j): AttributeCodes => {
    for (let i = 0; i < n; i++) col[i] = ds.x[i * d + j]!;
    const sorted = col.slice().sort();
    const values: number[] = [];
    const firstRank: number[] = [];
    for (let r = 0; r < n; r++) {
      if (r === 0 || sorted[r] !== sorted[r - 1]) {
        values.push(sorted[r]!);
        firstRank.push(r);
      }
    }
    const byValue = isDiscrete(a) && values.length <= options.maxValues;
    const codeOfValue = new Int32Array(values.length);
    let arity = values.length;
    if (byValue) {
      for (let t = 0; t < values.length; t++) codeOfValue[t] = t;
    } else {
      let code = -1;
      let lastRaw = -1;
      for (let t = 0; t < values.length; t++) {
        const raw = Math.min(options.bins - 1, Math.floor((firstRank[t]! * options.bins) / n));
        if (raw !== lastRaw) {
          code++;
          lastRaw = raw;
        }
        codeOfValue[t] = code;
      }
      arity = code + 1;
    }
    for (let i = 0; i < n; i++) codes[i * d + j] = codeOfValue[indexOf(values, col[i]!)]!;
    const lo = new Float64Array(arity).fill(Number.POSITIVE_INFINITY);
    const hi = new Float64Array(arity).fill(Number.NEGATIVE_INFINITY);
    values.forEach((v, u) => {
      const c = codeOfValue[u]!;
      lo[c] = Math.min(lo[c]!, v);
      hi[c] = Math.max(hi[c]!, v);
    });
    return {
      attribute: a.name,
      binned: !byValue,
      arity,
      condition: byValue
        ? (code) => ({ attribute: a.name, values: [lo[code]!] })
        : (code) => ({ attribute: a.name, min: lo[code]!, max: hi[code]!, maxInclusive: true }),
    };
  });
  return { n, m: d, codes, attributes };
}

/** Index of `v` in the ascending array `values`, which contains it. */
function indexOf(values: number[], v: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
