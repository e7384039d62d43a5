import { type Dataset, type DiscreteAttribute, discretiseAttribute } from '@fb/core';

/**
 * How one attribute's values were turned into scan codes (`binned`: quantile bins reported as
 * intervals; `ordered`: contiguity applies), and how to turn a set of codes back into a condition.
 */
export type AttributeEncoding = DiscreteAttribute;

export interface EncodingOptions {
  /** Discrete attributes with at most this many distinct values are scanned value by value. */
  maxValues: number;
  /** Number of quantile bins for the other attributes. */
  bins: number;
}

/**
 * Code attributes of a dataset for the scan (every attribute, or the listed column indices) with core's
 * `discretiseAttribute`: discrete attributes with at most `maxValues` distinct values in the data get
 * one code per value; continuous attributes and discrete ones with more values get `bins` quantile bins
 * (ties never straddle two bins), reported as intervals whose bounds are observed values, so that the
 * rows satisfying a reported condition are exactly the rows scanned in those bins.
 */
export function encodeAttributes(
  ds: Dataset,
  options: EncodingOptions,
  columns: readonly number[] = ds.schema.attributes.map((_, j) => j),
): { codes: Int32Array[]; arity: number[]; encodings: AttributeEncoding[] } {
  const encodings = columns.map((j) =>
    discretiseAttribute(ds, j, { maxLevels: options.maxValues, bins: options.bins }),
  );
  return { codes: encodings.map((e) => e.codes), arity: encodings.map((e) => e.arity), encodings };
}
