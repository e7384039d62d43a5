import type { Dataset } from './dataset.js';
import { OptionsError } from './errors.js';
import { type Attribute, defineSchema, type Schema } from './schema.js';

/**
 * Indices of the attributes an option names, in its order. An unknown name is an `OptionsError` that
 * names the option (`option` is its name, e.g. `groupAttributes`).
 */
export function namedAttributeIndices(schema: Schema, names: readonly string[], option: string): number[] {
  return names.map((name) => {
    const j = schema.attributes.findIndex((a) => a.name === name);
    if (j < 0) {
      throw new OptionsError('OPTIONS_INVALID', `${option}: "${name}" is not an attribute of the schema`, {
        option: `/${option}`,
        attribute: name,
      });
    }
    return j;
  });
}

/**
 * The columns `attributes` (indices, in that order) of every row, n x attributes.length row-major, and a
 * schema for them in which every kept attribute is marked protected, so that any selection is a valid
 * schema (for instance to fit a feature encoder on them).
 */
export function attributeColumns(
  dataset: Dataset,
  attributes: readonly number[],
): { schema: Schema; x: Float64Array } {
  const { n, d, x, schema } = dataset;
  const k = attributes.length;
  const columns = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let m = 0; m < k; m++) columns[i * k + m] = x[i * d + attributes[m]!]!;
  const kept: Attribute[] = attributes.map((j) => ({ ...schema.attributes[j]!, protected: true }));
  return { schema: defineSchema({ attributes: kept, outcome: schema.outcome }), x: columns };
}
