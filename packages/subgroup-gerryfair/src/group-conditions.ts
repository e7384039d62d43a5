import { type BoundingConditions, boundingConditions, type Dataset, isDiscrete } from '@fb/core';

export interface GroupConditions extends BoundingConditions {
  /**
   * When every group attribute is discrete, the group exactly: the distinct value combinations of its
   * members (in `attributes` order), listed when there are at most MAX_LISTED_CELLS; otherwise null.
   */
  cells: number[][] | null;
}

/** Largest number of member value combinations listed in `cells`. */
export const MAX_LISTED_CELLS = 100;

/**
 * The most specific conjunction of conditions on the group attributes that contains a linear threshold
 * group (the box spanned by its members' values; the group itself when `exact`), with its member cells.
 */
export function groupConditions(
  dataset: Dataset,
  attributes: number[],
  members: Uint8Array,
): GroupConditions {
  return {
    ...boundingConditions(dataset, members, attributes),
    cells: memberCells(dataset, attributes, members),
  };
}

function memberCells(dataset: Dataset, attributes: number[], members: Uint8Array): number[][] | null {
  const { n, d, x, schema } = dataset;
  if (!attributes.every((j) => isDiscrete(schema.attributes[j]!))) return null;
  const cells = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    if (!members[i]) continue;
    const cell = attributes.map((j) => x[i * d + j]!);
    const key = cell.join('|');
    if (cells.has(key)) continue;
    if (cells.size === MAX_LISTED_CELLS) return null;
    cells.set(key, cell);
  }
  return [...cells.values()].sort((u, v) => {
    for (let k = 0; k < u.length; k++) if (u[k] !== v[k]) return u[k]! - v[k]!;
    return 0;
  });
}
