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
  /** Attributes left out because they take a single level in the data. */
  dropped: string[];
}

/**
 * Turn every attribute into a discrete variable with core's `discretiseDataset`: a categorical attribute
 * keeps one level per value present in the data, however many; another discrete attribute with at most
 * `maxLevels` distinct values also keeps one level per value; any other (ordered) attribute is cut at
 * quantiles into at most `bins` levels [cut, next cut) (bins = 2 is the median split of the paper's
 * data). A variable left with a single level says nothing about the decision and is dropped (listed in
 * `dropped`).
 */
export function discretise(dataset: Dataset, maxLevels: number, bins: number): Discretised;
/** The same, polling `shouldStop` before each attribute: null as soon as it says stop. */
export function discretise(
  dataset: Dataset,
  maxLevels: number,
  bins: number,
  shouldStop: () => boolean,
): Discretised | null;
export function discretise(
  dataset: Dataset,
  maxLevels: number,
  bins: number,
  shouldStop: () => boolean = () => false,
): Discretised | null {
  const options = { maxLevels, bins, method: 'cuts', binCategorical: false } as const;
  const discrete = discretiseDataset(dataset, options, undefined, shouldStop);
  if (!discrete) return null;
  const { attributes, codes } = discrete;
  const kept = attributes.flatMap((a, j) => (a.levels.length >= 2 ? [j] : []));
  const variables = kept.map((j): Variable => {
    const a = attributes[j]!;
    return {
      attribute: a.attribute,
      sensitive: dataset.schema.attributes[a.column]!.protected,
      levels: [...a.levels],
    };
  });
  const n = dataset.n;
  const w = attributes.length;
  const v = kept.length;
  const keptCodes = new Int32Array(n * v);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < v; k++) keptCodes[i * v + k] = codes[i * w + kept[k]!]!;
  }
  const dropped = attributes.filter((a) => a.levels.length < 2).map((a) => a.attribute);
  return { variables, codes: keptCodes, dropped };
}
