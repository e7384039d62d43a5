import { attributeIndex, type Dataset, defineSchema, OptionsError } from '@fb/core';
import { FeatureEncoder } from '@fb/models';

/** Indices of the auditor's attributes: the named ones, or every attribute when `names` is null. */
export function auditAttributeIndices(dataset: Dataset, names: string[] | null): number[] {
  if (names === null) return dataset.schema.attributes.map((_, j) => j);
  return names.map((name) => {
    try {
      return attributeIndex(dataset.schema, name);
    } catch {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `auditAttributes: "${name}" is not an attribute of the schema`,
        {
          option: '/auditAttributes',
          attribute: name,
        },
      );
    }
  });
}

/** The auditor's features for every row: categorical attributes one-hot, the others standardised. */
export function auditFeatures(dataset: Dataset, names: string[] | null): { design: Float64Array; p: number } {
  const { n, d, x, schema } = dataset;
  const attributes = auditAttributeIndices(dataset, names);
  const k = attributes.length;
  const sub = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let m = 0; m < k; m++) sub[i * k + m] = x[i * d + attributes[m]!]!;
  const subSchema = defineSchema({
    attributes: attributes.map((j) => ({ ...schema.attributes[j]!, protected: true })),
    outcome: schema.outcome,
  });
  const encoder = FeatureEncoder.fit(subSchema, sub, n);
  return { design: encoder.encode(sub, n), p: encoder.encodedWidth };
}
