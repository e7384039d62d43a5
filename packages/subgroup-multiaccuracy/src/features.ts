import { attributeColumns, type Dataset, namedAttributeIndices } from '@fb/core';
import { FeatureEncoder } from '@fb/models';

/** Indices of the auditor's attributes: the named ones, or every attribute when `names` is null. */
export function auditAttributeIndices(dataset: Dataset, names: string[] | null): number[] {
  if (names === null) return dataset.schema.attributes.map((_, j) => j);
  return namedAttributeIndices(dataset.schema, names, 'auditAttributes');
}

/** The auditor's features for every row: categorical attributes one-hot, the others standardised. */
export function auditFeatures(dataset: Dataset, names: string[] | null): { design: Float64Array; p: number } {
  const { n } = dataset;
  const columns = attributeColumns(dataset, auditAttributeIndices(dataset, names));
  const encoder = FeatureEncoder.fit(columns.schema, columns.x, n);
  return { design: encoder.encode(columns.x, n), p: encoder.encodedWidth };
}
