import { type Condition, type Dataset, isDiscrete } from '@fb/core';

/** One attribute as a discrete variable of the naive Bayes model. */
export interface Variable {
  attribute: string;
  sensitive: boolean;
  /** The condition each level stands for: one value, or a range of a binned attribute. */
  levels: Condition[];
}

export interface Discretised {
  variables: Variable[];
  /** n × v level codes, row-major. */
  codes: Int32Array;
}

/**
 * Turn every attribute into a discrete variable: a discrete attribute with at most `maxLevels`
 * distinct values keeps one level per value present in the data; any other attribute is cut at
 * quantiles into at most `bins` levels (bins = 2 is the median split of the paper's data).
 */
export function discretise(dataset: Dataset, maxLevels: number, bins: number): Discretised {
  const { n, d, x, schema } = dataset;
  const codes = new Int32Array(n * d);
  const variables = schema.attributes.map((a, j): Variable => {
    const column = new Float64Array(n);
    for (let i = 0; i < n; i++) column[i] = x[i * d + j]!;
    const distinct = [...new Set(column)].sort((p, q) => p - q);
    let levels: Condition[];
    let cuts: number[];
    if (isDiscrete(a) && distinct.length <= maxLevels) {
      levels = distinct.map((v) => ({ attribute: a.name, values: [v] }));
      cuts = distinct.slice(1);
    } else {
      cuts = quantileCuts(column, bins);
      const edges = [distinct[0]!, ...cuts, distinct[distinct.length - 1]!];
      levels = edges.slice(0, -1).map((lo, k) => {
        const last = k === edges.length - 2;
        return { attribute: a.name, min: lo, max: edges[k + 1]!, maxInclusive: last };
      });
    }
    // Level of a value: the number of cuts at or below it.
    for (let i = 0; i < n; i++) {
      let k = 0;
      while (k < cuts.length && column[i]! >= cuts[k]!) k++;
      codes[i * d + j] = k;
    }
    return { attribute: a.name, sensitive: a.protected, levels };
  });
  return { variables, codes };
}

/** Distinct cut points splitting `column` into at most `bins` groups of about equal size. */
function quantileCuts(column: Float64Array, bins: number): number[] {
  const sorted = Float64Array.from(column).sort();
  const cuts: number[] = [];
  for (let b = 1; b < bins; b++) {
    const c = sorted[Math.floor((b * sorted.length) / bins)]!;
    // A cut must leave rows on both sides and differ from the previous one.
    if (c > sorted[0]! && (cuts.length === 0 || c > cuts[cuts.length - 1]!)) cuts.push(c);
  }
  return cuts;
}
