import { type Condition, type Dataset, discretiseDataset } from '@fb/core';

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
 * Turn every attribute into a discrete variable with core's `discretiseDataset`: a discrete attribute
 * with at most `maxLevels` distinct values keeps one level per value present in the data; any other
 * attribute is cut at quantiles into at most `bins` levels [cut, next cut) (bins = 2 is the median split
 * of the paper's data).
 */
export function discretise(dataset: Dataset, maxLevels: number, bins: number): Discretised {
  const { attributes, codes } = discretiseDataset(dataset, { maxLevels, bins, method: 'cuts' });
  const variables = attributes.map(
    (a): Variable => ({
      attribute: a.attribute,
      sensitive: dataset.schema.attributes[a.column]!.protected,
      levels: [...a.levels],
    }),
  );
  return { variables, codes };
}
