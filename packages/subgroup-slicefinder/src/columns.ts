import { type Dataset, type DiscreteAttribute, discretiseAttribute } from '@fb/core';

/**
 * One attribute as slicing sees it: a code per row (one per value, or one per equal-height bin), rows
 * per code, and the condition that selects a set of codes. Codes of an `ordered` attribute follow its
 * order, so that ranges of codes are intervals.
 */
export type SliceColumn = DiscreteAttribute;

export interface ColumnOptions {
  /** Attributes with at most this many distinct values get one code per value. */
  maxValues: number;
  /** Equal-height bins for ordered attributes with more values. */
  bins: number;
}

/**
 * Code every attribute with core's `discretiseAttribute`. A categorical attribute, or an ordered one
 * with at most `maxValues` distinct values, gets one code per observed value; an ordered attribute with
 * more values gets `bins` equal-height bins (ties never split). Bins, and runs of consecutive values of
 * an ordered attribute, are reported as closed intervals between observed values.
 */
export function sliceColumns(ds: Dataset, options: ColumnOptions): SliceColumn[] {
  return ds.schema.attributes.map((_, j) =>
    discretiseAttribute(ds, j, {
      maxLevels: options.maxValues,
      bins: options.bins,
      binCategorical: false,
      valueRanges: true,
    }),
  );
}
