import { attributeColumns, type Dataset, namedAttributeIndices } from '@fb/core';
import { FeatureEncoder } from '@fb/models';

/** The group attributes X′ encoded for the regressions: categorical one-hot, others standardised. */
export interface GroupDesign {
  /** Indices of X′ in the dataset's schema. */
  attributes: number[];
  encoder: FeatureEncoder;
  /** n x p row-major. */
  design: Float64Array;
  p: number;
}

/** Indices of the group attributes: the named ones, or the protected ones when `names` is null. */
export function groupAttributeIndices(dataset: Dataset, names: string[] | null): number[] {
  const { schema } = dataset;
  if (names === null) return schema.attributes.flatMap((a, j) => (a.protected ? [j] : []));
  return namedAttributeIndices(schema, names, 'groupAttributes');
}

export function groupDesign(dataset: Dataset, names: string[] | null): GroupDesign {
  const { n } = dataset;
  const attributes = groupAttributeIndices(dataset, names);
  const columns = attributeColumns(dataset, attributes);
  const encoder = FeatureEncoder.fit(columns.schema, columns.x, n);
  return { attributes, encoder, design: encoder.encode(columns.x, n), p: encoder.encodedWidth };
}

/**
 * The linear rule `intercept + Σ weight·column < 0` on raw attribute values: standardised columns are
 * mapped back (weight / sd, intercept − weight·mean / sd), one-hot columns keep their weights.
 */
export function rawRule(
  encoder: FeatureEncoder,
  weights: Float64Array,
  intercept: number,
): { terms: { column: string; weight: number }[]; intercept: number } {
  let b = intercept;
  const terms: { column: string; weight: number }[] = [];
  encoder.attributes.forEach((a, m) => {
    const off = encoder.offset[m]!;
    if (a.encoding === 'standard') {
      const w = weights[off]! / a.sd;
      b -= w * a.mean;
      terms.push({ column: a.name, weight: w });
    } else {
      a.categories.forEach((_, c) => {
        terms.push({ column: encoder.columnNames[off + c]!, weight: weights[off + c]! });
      });
    }
  });
  return { terms, intercept: b };
}
