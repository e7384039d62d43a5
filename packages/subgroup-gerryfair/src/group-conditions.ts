import { type Condition, type Dataset, isDiscrete, memberMask } from '@fb/core';

export interface GroupConditions {
  /**
   * Per group attribute, the values (discrete) or the closed range (continuous) its members take; an
   * attribute whose members take every value seen in the data is left unconstrained.
   */
  conditions: Condition[];
  /** Rows satisfying the conditions (a superset of the members). */
  size: number;
  /** Whether the conditions select exactly the members. */
  exact: boolean;
  /**
   * When every group attribute is discrete, the group exactly: the distinct value combinations of its
   * members (in `attributes` order), listed when there are at most MAX_LISTED_CELLS; otherwise null.
   */
  cells: number[][] | null;
}

/** Largest number of member value combinations listed in `cells`. */
export const MAX_LISTED_CELLS = 100;

/**
 * The most specific conjunction of attribute conditions that contains a linear threshold group: the
 * box spanned by its members' values. It is the group itself exactly when every row in the box is a
 * member (`exact`); otherwise the box is the smallest conjunction containing it.
 */
export function groupConditions(
  dataset: Dataset,
  attributes: number[],
  members: Uint8Array,
  memberCount: number,
): GroupConditions {
  const { n, d, x, schema } = dataset;
  const conditions: Condition[] = [];
  for (const j of attributes) {
    const a = schema.attributes[j]!;
    const seen = new Set<number>();
    const taken = new Set<number>();
    for (let i = 0; i < n; i++) {
      const v = x[i * d + j]!;
      seen.add(v);
      if (members[i]) taken.add(v);
    }
    const values = [...taken].sort((u, v) => u - v);
    if (isDiscrete(a)) {
      if (taken.size < seen.size) conditions.push({ attribute: a.name, values });
      continue;
    }
    const [min, max] = [values[0]!, values[values.length - 1]!];
    const range = [...seen].filter((v) => v >= min && v <= max).length;
    if (range < seen.size) conditions.push({ attribute: a.name, min, max, maxInclusive: true });
  }
  let size = 0;
  const box = memberMask(dataset, conditions);
  for (let i = 0; i < n; i++) size += box[i]!;
  return { conditions, size, exact: size === memberCount, cells: memberCells(dataset, attributes, members) };
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
