import {
  attributeIndex,
  DataError,
  type Dataset,
  domainValues,
  OptionsError,
  protectedIndices,
  type Rng,
} from '@fb/core';
import type { FliptestOptions } from './options.js';

export interface Groups {
  /** Position of the protected attribute that splits the groups. */
  attribute: number;
  sourceValue: number;
  targetValue: number;
  /** Dataset rows of each group. */
  sourceRows: Int32Array;
  targetRows: Int32Array;
}

/**
 * The groups of every protected attribute asked for (`attribute`: one name, a list, or null for every
 * protected attribute of the schema), in that order. Group values apply to a single attribute only.
 */
export function resolveAllGroups(dataset: Dataset, options: FliptestOptions): Groups[] {
  const { schema } = dataset;
  const asked = options.attribute;
  const attributes =
    asked === null
      ? protectedIndices(schema)
      : (typeof asked === 'string' ? [asked] : asked).map((name) => attributeIndex(schema, name));
  if (new Set(attributes).size !== attributes.length) {
    throw new OptionsError('OPTIONS_INVALID', 'option attribute names an attribute twice', {
      option: '/attribute',
    });
  }
  if (attributes.length > 1) {
    for (const option of ['sourceValue', 'targetValue'] as const) {
      if (options[option] !== null) {
        const names = attributes.map((j) => schema.attributes[j]!.name).join(', ');
        throw new OptionsError(
          'OPTIONS_INVALID',
          `option ${option} needs a single attribute, but ${names} are mapped; name one in option attribute`,
          { option: `/${option}` },
        );
      }
    }
  }
  return attributes.map((j) => resolveGroups(dataset, options, j));
}

/** Resolve the two group values of protected attribute `attribute` from the options and the data. */
export function resolveGroups(dataset: Dataset, options: FliptestOptions, attribute: number): Groups {
  const { schema, n, d, x } = dataset;
  const attr = schema.attributes[attribute]!;
  if (!attr.protected) {
    throw new OptionsError('OPTIONS_INVALID', `attribute "${attr.name}" is not protected`, {
      option: '/attribute',
    });
  }
  const domain = domainValues(attr);
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) counts.set(x[i * d + attribute]!, (counts.get(x[i * d + attribute]!) ?? 0) + 1);
  const present = Array.from(domain).filter((v) => counts.has(v));
  const check = (value: number, option: string) => {
    if (!counts.has(value)) {
      throw new DataError(
        'DATA_EMPTY_GROUP',
        `no row has ${attr.name} = ${value} (option ${option}); values present: ${present.join(', ')}`,
        { attribute: attr.name },
      );
    }
    return value;
  };
  const sourceValue = check(options.sourceValue ?? present[0]!, 'sourceValue');
  let targetValue = options.targetValue;
  if (targetValue === null) {
    let best = -1;
    for (const v of present) {
      if (v !== sourceValue && counts.get(v)! > best) {
        best = counts.get(v)!;
        targetValue = v;
      }
    }
    if (targetValue === null) {
      throw new DataError(
        'DATA_EMPTY_GROUP',
        `every row has ${attr.name} = ${sourceValue}: there is no second group to map to`,
        { attribute: attr.name },
      );
    }
  }
  check(targetValue, 'targetValue');
  if (targetValue === sourceValue) {
    throw new OptionsError('OPTIONS_INVALID', `sourceValue and targetValue are both ${sourceValue}`, {
      option: '/targetValue',
    });
  }
  const rowsOf = (value: number) => {
    const out = new Int32Array(counts.get(value)!);
    let k = 0;
    for (let i = 0; i < n; i++) if (x[i * d + attribute] === value) out[k++] = i;
    return out;
  };
  return {
    attribute,
    sourceValue,
    targetValue,
    sourceRows: rowsOf(sourceValue),
    targetRows: rowsOf(targetValue),
  };
}

/** `k` rows of `rows` drawn without replacement, in random order. */
export function sampleRows(rows: Int32Array, k: number, rng: Rng): Int32Array {
  return Int32Array.from(rng.sampleIndices(rows.length, k), (i) => rows[i]!);
}
