import {
  attributeIndex,
  DataError,
  type Dataset,
  OptionsError,
  protectedIndices,
  valueLabel,
} from '@fb/core';

/**
 * Rows partitioned into subgroups: every observed combination of the chosen attributes' values
 * (intersectional). Combinations with no row do not appear.
 */
export interface Subgroups {
  /** Attribute names that define the groups. */
  readonly attributes: readonly string[];
  /** One key per group, e.g. `sex=Female|race=Black`. */
  readonly keys: readonly string[];
  /** Attribute values (codes) of each group, in `attributes` order. */
  readonly values: readonly (readonly number[])[];
  /** Group id of each row. */
  readonly codes: Int32Array;
  /** Rows per group. */
  readonly sizes: Int32Array;
}

/**
 * Subgroups of a dataset over `attributes` (default: all its protected attributes). Every value
 * combination present in the data is a group; `sex=Female|race=Black` style keys use value labels.
 */
export function subgroupsOf(ds: Dataset, attributes?: readonly string[]): Subgroups {
  const cols = attributes ? attributes.map((a) => attributeIndex(ds.schema, a)) : protectedIndices(ds.schema);
  if (cols.length === 0)
    throw new OptionsError('OPTIONS_INVALID', 'at least one attribute is needed to form subgroups', {
      option: '/protectedAttributes',
    });
  const names = cols.map((j) => ds.schema.attributes[j]!.name);
  const columns = cols.map((j) => Float64Array.from({ length: ds.n }, (_, i) => ds.x[i * ds.d + j]!));
  return fromColumns(names, columns, (k, v) => valueLabel(ds.schema.attributes[cols[k]!]!, v));
}

/** Subgroups from raw columns (one array of values per attribute, all of the same length). */
export function subgroupsFromColumns(columns: Readonly<Record<string, ArrayLike<number>>>): Subgroups {
  const names = Object.keys(columns);
  if (names.length === 0)
    throw new OptionsError('OPTIONS_INVALID', 'at least one column is needed to form subgroups');
  const n = columns[names[0]!]!.length;
  for (const name of names) {
    if (columns[name]!.length !== n) {
      throw new DataError(
        'DATA_SHAPE',
        `column "${name}" has ${columns[name]!.length} values, expected ${n}`,
        { attribute: name },
      );
    }
  }
  return fromColumns(
    names,
    names.map((c) => columns[c]!),
    (_, v) => String(v),
  );
}

function fromColumns(
  names: readonly string[],
  columns: readonly ArrayLike<number>[],
  label: (k: number, v: number) => string,
): Subgroups {
  const n = columns[0]!.length;
  const ids = new Map<string, number>();
  const keys: string[] = [];
  const values: number[][] = [];
  const codes = new Int32Array(n);
  const sizes: number[] = [];
  for (let i = 0; i < n; i++) {
    let raw = '';
    for (let k = 0; k < columns.length; k++) raw += `${columns[k]![i]}\u0000`;
    let id = ids.get(raw);
    if (id === undefined) {
      id = keys.length;
      ids.set(raw, id);
      const v = columns.map((c) => c[i]!);
      values.push(v);
      keys.push(names.map((nm, k) => `${nm}=${label(k, v[k]!)}`).join('|'));
      sizes.push(0);
    }
    codes[i] = id;
    sizes[id]!++;
  }
  // Stable order: by attribute values, so keys do not depend on row order.
  const order = keys
    .map((_, g) => g)
    .sort((a, b) => {
      for (let k = 0; k < names.length; k++)
        if (values[a]![k] !== values[b]![k]) return values[a]![k]! - values[b]![k]!;
      return 0;
    });
  const rank = new Int32Array(keys.length);
  order.forEach((g, r) => {
    rank[g] = r;
  });
  for (let i = 0; i < n; i++) codes[i] = rank[codes[i]!]!;
  return Object.freeze({
    attributes: Object.freeze([...names]),
    keys: Object.freeze(order.map((g) => keys[g]!)),
    values: Object.freeze(order.map((g) => Object.freeze(values[g]!))),
    codes,
    sizes: Int32Array.from(order, (g) => sizes[g]!),
  });
}
