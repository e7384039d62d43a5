import { type Condition, type Dataset, isDiscrete } from '@fb/core';

/** The dataset as transactions of attribute = value items, one item per attribute per row. */
export interface ItemTable {
  readonly n: number;
  readonly m: number;
  /** n x m item ids, row-major; row i's item for attribute j is transactions[i·m + j]. */
  readonly transactions: Int32Array;
  readonly nItems: number;
  /** Attribute index of each item. */
  readonly attributeOf: Int32Array;
  /** The condition each item stands for (its rows are exactly those holding it). */
  readonly conditions: Condition[];
  /** Whether each attribute was binned. */
  readonly binned: boolean[];
}

export interface ItemOptions {
  /** Discrete attributes with at most this many distinct values give one item per value. */
  maxValues: number;
  /** Equal-height bins for the other attributes. */
  bins: number;
}

/**
 * Discretise the dataset into items. A discrete attribute with at most `maxValues` distinct observed
 * values gives one item per value; any other attribute is cut into `bins` equal-height bins over its
 * distinct values (a value's bin is ⌊rank of its first row · bins / n⌋, so ties never split), each
 * item a closed interval between observed values.
 */
export function itemize(ds: Dataset, options: ItemOptions): ItemTable {
  const { n, d } = ds;
  const transactions = new Int32Array(n * d);
  const attributeOf: number[] = [];
  const conditions: Condition[] = [];
  const binned: boolean[] = [];
  const col = new Float64Array(n);
  ds.schema.attributes.forEach((a, j) => {
    for (let i = 0; i < n; i++) col[i] = ds.x[i * d + j]!;
    const sorted = col.slice().sort();
    const values: number[] = [];
    const bin: number[] = [];
    const byValue = isDiscrete(a) && new Set(sorted).size <= options.maxValues;
    let last = -1;
    let code = -1;
    for (let r = 0; r < n; r++) {
      if (r > 0 && sorted[r] === sorted[r - 1]) continue;
      const raw = byValue ? r : Math.min(options.bins - 1, Math.floor((r * options.bins) / n));
      if (raw !== last) {
        code++;
        last = raw;
      }
      values.push(sorted[r]!);
      bin.push(code);
    }
    const first = attributeOf.length;
    for (let c = 0; c <= code; c++) {
      attributeOf.push(j);
      const lo = values[bin.indexOf(c)]!;
      const hi = values[bin.lastIndexOf(c)]!;
      conditions.push(
        byValue
          ? { attribute: a.name, values: [lo] }
          : { attribute: a.name, min: lo, max: hi, maxInclusive: true },
      );
    }
    binned.push(!byValue);
    const itemOf = new Map(values.map((v, t) => [v, first + bin[t]!] as const));
    for (let i = 0; i < n; i++) transactions[i * d + j] = itemOf.get(col[i]!)!;
  });
  return {
    n,
    m: d,
    transactions,
    nItems: attributeOf.length,
    attributeOf: Int32Array.from(attributeOf),
    conditions,
    binned,
  };
}
