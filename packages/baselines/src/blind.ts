import {
  type Condition,
  type Dataset,
  type DiscreteAttribute,
  discretiseAttribute,
  type SubgroupFinding,
} from '@fb/core';

/**
 * A subgroup finding of an output that looks at neither labels nor model: no effect, no p-value, no
 * direction; `score` only orders the findings.
 */
export function blindFinding(
  rank: number,
  conditions: Condition[],
  size: number,
  score: number,
  details: SubgroupFinding['details'] = {},
): SubgroupFinding {
  return { rank, conditions, size, score, effect: null, pValue: null, direction: null, details };
}

/**
 * The levels of column j: one per observed value of a discrete attribute (in ascending order), at most
 * `bins` equal-height bins (core's `rank` method, closed intervals) of a continuous one.
 */
export function observedLevels(dataset: Dataset, j: number, bins: number): DiscreteAttribute {
  return discretiseAttribute(dataset, j, { maxLevels: Number.POSITIVE_INFINITY, bins });
}

/** The JSON Schema of the `bins` option of the floors that cut continuous attributes. */
export function binsOption(description: string, fallback: number) {
  return { type: 'integer', minimum: 1, default: fallback, description };
}
