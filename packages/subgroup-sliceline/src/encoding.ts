import { type Condition, type Dataset, discretiseDataset } from '@fb/core';

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
 * Recode every attribute with core's `discretiseDataset`: a discrete attribute with at most `maxValues`
 * distinct observed values gets one code per value; any other attribute gets equal-height bins over its
 * distinct values (ties never straddle bins; empty bins are dropped), reported as closed intervals whose
 * bounds are observed values.
 */
export function recodeDataset(ds: Dataset, options: RecodeOptions): RecodedTable {
  const { attributes, codes } = discretiseDataset(ds, { maxLevels: options.maxValues, bins: options.bins });
  return {
    n: ds.n,
    m: ds.d,
    codes,
    attributes: attributes.map((a) => ({
      attribute: a.attribute,
      binned: a.binned,
      arity: a.arity,
      condition: (code) => a.condition([code]),
    })),
  };
}
