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

/** Resolve the attribute and the two group values from the options and the data. */
export function resolveGroups(dataset: Dataset, options: FliptestOptions): Groups {
  const { schema, n, d, x } = dataset;
  const attribute =
    options.attribute === null ? protectedIndices(schema)[0]! : attributeIndex(schema, options.attribute);
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
