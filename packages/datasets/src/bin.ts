import { type Attribute, attributeIndex, createDataset, type Dataset, OptionsError } from '@fb/core';

/** Standard bands used in the literature: age < 25 / 25..44 / 45..64 / >= 65 (EIDIG's cut points). */
export const AGE_BANDS = [25, 45, 65] as const;

/**
 * Replace a numeric attribute by ordered bins: bin 0 is values below `edges[0]`, bin i is
 * [edges[i-1], edges[i]), the last bin is values >= the last edge. Labels default to `<25`, `25-45`, `>=65`.
 * The protected flag is kept.
 */
export function binAttribute(
  ds: Dataset,
  name: string,
  edges: readonly number[],
  labels?: readonly string[],
): Dataset {
  const j = attributeIndex(ds.schema, name);
  const a = ds.schema.attributes[j]!;
  if (a.categories) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `attribute "${name}" is categorical: only numeric attributes can be binned`,
      {
        attribute: name,
      },
    );
  }
  if (edges.length === 0 || edges.some((e, i) => !Number.isFinite(e) || (i > 0 && e <= edges[i - 1]!))) {
    throw new OptionsError('OPTIONS_INVALID', `edges for "${name}" must be finite and strictly increasing`, {
      attribute: name,
      option: '/edges',
    });
  }
  const names = labels ?? [
    `<${edges[0]}`,
    ...edges.slice(1).map((e, i) => `${edges[i]}-${e}`),
    `>=${edges[edges.length - 1]}`,
  ];
  if (names.length !== edges.length + 1) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `${edges.length} edges make ${edges.length + 1} bins, got ${names.length} labels`,
      {
        attribute: name,
        option: '/labels',
      },
    );
  }
  const binned: Attribute = { name, kind: 'ordinal', protected: a.protected, categories: [...names] };
  const attributes = ds.schema.attributes.map((b, k) => (k === j ? binned : b));
  const x = ds.x.slice();
  for (let i = 0; i < ds.n; i++) {
    const v = x[i * ds.d + j]!;
    let b = 0;
    while (b < edges.length && v >= edges[b]!) b++;
    x[i * ds.d + j] = b;
  }
  return createDataset({
    schema: { ...ds.schema, attributes },
    x,
    y: ds.y,
    ...(ds.name ? { name: ds.name } : {}),
  });
}
