import { type DiscoveryResult, individualTable, type Schema, subgroupTable } from '@fb/core';

/** A number as a spreadsheet reads one: `-0.5`, `+3`, `1e-7` (not `-1+2`, `-Infinity`). */
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** Characters that make a spreadsheet read a cell as a formula. */
const FORMULA = /^[=+\-@\t\r]/;

/**
 * One CSV cell, quoted where RFC 4180 needs it. A text cell a spreadsheet would run as a formula (it
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return and is not a number) is written as text:
 * prefixed with `'` inside a quoted field. Numbers, `-0.5` included, stay numbers.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const formula = FORMULA.test(value) && !NUMERIC.test(value);
  const text = formula ? `'${value}` : value;
  return formula || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV text (LF line ends) with every cell, header included, through `csvCell`. */
export function safeCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
): string {
  const lines = [header.map(csvCell).join(',')];
  for (const row of rows) lines.push(row.map(csvCell).join(','));
  return `${lines.join('\n')}\n`;
}

const tableOf = (result: DiscoveryResult, schema: Schema) =>
  result.findings.kind === 'individual'
    ? individualTable(result, schema, { labels: true })
    : subgroupTable(result, schema, { labels: true });

/**
 * The columns the findings tables add after the attributes, in either layout (`size`, `score`, `rank`,
 * `outcome`, `case_id`, `TSN`, ...): read from the tables themselves, so they cannot drift apart.
 */
export function tableColumns(schema: Schema): Set<string> {
  const placeholders = {
    ...schema,
    attributes: schema.attributes.map((a, j) => ({ ...a, name: `\u0000${j}` })),
  } as Schema;
  const run = { metrics: { tsn: 0, dsn: 0, sur: 0, dss: null } } as unknown as DiscoveryResult;
  const headers = [
    ...subgroupTable(
      { ...run, findings: { kind: 'subgroup', subgroups: [] } } as DiscoveryResult,
      placeholders,
      {
        labels: true,
      },
    ).header,
    ...individualTable(
      { ...run, findings: { kind: 'individual', pairs: [], byAttributeValue: [] } } as DiscoveryResult,
      placeholders,
      { labels: true },
    ).header,
  ];
  return new Set(headers.filter((h) => !h.startsWith('\u0000')));
}

/**
 * The result's table (`resultToCsv`'s layout, with labels) as safe CSV. An attribute named like one of
 * the table's own columns (`score`, `rank`, `outcome`, ...) is written as `attr_<name>`; the renames are
 * returned so that the report can say so.
 */
export function findingsCsv(
  result: DiscoveryResult,
  schema: Schema,
): { csv: string; renamed: [string, string][] } {
  const fixed = tableColumns(schema);
  const names = new Set(schema.attributes.map((a) => a.name));
  const renamed: [string, string][] = [];
  const rename = new Map<string, string>();
  for (const a of schema.attributes) {
    if (!fixed.has(a.name)) continue;
    let n = `attr_${a.name}`;
    while (fixed.has(n) || names.has(n)) n = `attr_${n}`;
    names.add(n);
    rename.set(a.name, n);
    renamed.push([a.name, n]);
  }
  let s = schema;
  let r = result;
  if (rename.size > 0) {
    const to = (name: string) => rename.get(name) ?? name;
    s = { ...schema, attributes: schema.attributes.map((a) => ({ ...a, name: to(a.name) })) } as Schema;
    const f = result.findings;
    if (f.kind === 'subgroup') {
      r = {
        ...result,
        findings: {
          ...f,
          subgroups: f.subgroups.map((g) => ({
            ...g,
            conditions: g.conditions.map((c) => ({ ...c, attribute: to(c.attribute) })),
          })),
        },
      } as DiscoveryResult;
    }
  }
  const t = tableOf(r, s);
  return { csv: safeCsv(t.header, t.rows), renamed };
}
