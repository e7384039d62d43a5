import { type Condition, type Dataset, discretiseDataset } from '@fb/core';

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
 * Discretise the dataset into items with core's `discretiseDataset`: a discrete attribute with at most
 * `maxValues` distinct observed values gives one item per value; any other attribute is cut into `bins`
 * equal-height bins over its distinct values (ties never split), each item a closed interval between
 * observed values. Item ids number the levels of attribute 0, then attribute 1, and so on.
 */
export function itemize(ds: Dataset, options: ItemOptions): ItemTable;
/** The same, polling `shouldStop` before each attribute: null as soon as it says stop. */
export function itemize(ds: Dataset, options: ItemOptions, shouldStop: () => boolean): ItemTable | null;
export function itemize(ds: Dataset, options: ItemOptions, shouldStop?: () => boolean): ItemTable | null {
  const levels = { maxLevels: options.maxValues, bins: options.bins };
  const discrete = shouldStop
    ? discretiseDataset(ds, levels, undefined, shouldStop)
    : discretiseDataset(ds, levels);
  if (!discrete) return null;
  const { attributes, codes } = discrete;
  const m = attributes.length;
  const offset = new Int32Array(m);
  for (let j = 1; j < m; j++) offset[j] = offset[j - 1]! + attributes[j - 1]!.arity;
  const transactions = new Int32Array(codes.length);
  for (let k = 0; k < codes.length; k++) transactions[k] = offset[k % m]! + codes[k]!;
  const conditions = attributes.flatMap((a) => a.levels);
  return {
    n: ds.n,
    m,
    transactions,
    nItems: conditions.length,
    attributeOf: Int32Array.from(attributes.flatMap((a) => a.levels.map(() => a.column))),
    conditions,
    binned: attributes.map((a) => a.binned),
  };
}
