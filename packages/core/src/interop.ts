import { parseCsv, toCsv } from './csv.js';
import { parseDecimal } from './decimal.js';
import { describeSubgroup, labelRow, outcomeLabel } from './describe.js';
import { InteropError, ResultError } from './errors.js';
import type { Condition, DiscoveryResult, SubgroupFinding } from './result-types.js';
import type { Attribute, Schema } from './schema.js';

/**
 * The seed documents' table layouts, for exchange with existing tooling:
 * - individual: two rows per discriminatory pair (sample, then counterfactual) with `indv_key`
 *   (values joined by `|`), `outcome`, `couple_key` (two indv_keys joined by `-`), `diff_outcome`,
 *   `case_id`, and the run metrics `TSN`, `DSN`, `SUR`, `DSS` repeated on every row;
 * - subgroup: one row per subgroup with one cell per attribute (`*` = unconstrained, `a;b` = a set
 *   of values, `[lo,hi)` or `[lo,hi]` = an interval), `subgroup_key` (cells joined by `|`), and the
 *   finding's size, score, effect, p-value and direction.
 *
 * With `{ labels: true }` the tables speak in the data's own labels: category labels in place of
 * codes (an interval over category codes becomes the set of labels it covers), outcome labels, and
 * for subgroups a `subgroup` column with the decoded conjunction (`describeSubgroup`). The readers
 * take the same option to read such a table back.
 */
export interface TableOptions {
  /** Write (or read) category and outcome labels instead of codes. Default false. */
  labels?: boolean;
}

const INDIVIDUAL_COLUMNS = [
  'indv_key',
  'outcome',
  'couple_key',
  'diff_outcome',
  'case_id',
  'TSN',
  'DSN',
  'SUR',
  'DSS',
];
const SUBGROUP_COLUMNS = [
  'subgroup_key',
  'size',
  'score',
  'effect',
  'p_value',
  'direction',
  'rank',
  'TSN',
  'DSN',
  'SUR',
  'DSS',
];

export type TableRow = Record<string, string | number | null>;

function checkColumns(schema: Schema, fixed: readonly string[]): string[] {
  const names = schema.attributes.map((a) => a.name);
  for (const n of names) {
    if (fixed.includes(n)) {
      throw new InteropError(
        'INTEROP_PARSE',
        `attribute "${n}" clashes with a table column of the same name`,
        {
          attribute: n,
        },
      );
    }
  }
  return names;
}

const indvKey = (values: readonly (number | string)[]): string => values.join('|');

function metricCells(result: DiscoveryResult): (number | null)[] {
  const m = result.metrics;
  return [m.tsn, m.dsn, m.sur, m.dss];
}

/** Rows of the individual layout (two per pair). */
export function individualTable(
  result: DiscoveryResult,
  schema: Schema,
  options: TableOptions = {},
): { header: string[]; rows: (string | number | null)[][] } {
  if (result.findings.kind !== 'individual')
    throw new InteropError('INTEROP_PARSE', 'not an individual result');
  const names = checkColumns(schema, INDIVIDUAL_COLUMNS);
  const cells = (values: readonly number[]): (number | string)[] => {
    if (!options.labels) return [...values];
    const labelled = labelRow(schema, values);
    return names.map((n) => labelled[n]!);
  };
  const outcome = (code: number): number | string => (options.labels ? outcomeLabel(schema, code) : code);
  const rows: (string | number | null)[][] = [];
  for (const p of result.findings.pairs) {
    const sample = cells(p.sample);
    const counterfactual = cells(p.counterfactual);
    const couple = `${indvKey(sample)}-${indvKey(counterfactual)}`;
    const diff = Math.abs(p.sampleOutcome - p.counterfactualOutcome);
    for (const [values, code] of [
      [sample, p.sampleOutcome],
      [counterfactual, p.counterfactualOutcome],
    ] as const) {
      rows.push([...values, indvKey(values), outcome(code), couple, diff, p.caseId, ...metricCells(result)]);
    }
  }
  return { header: [...names, ...INDIVIDUAL_COLUMNS], rows };
}

function conditionCell(c: Condition | undefined, a: Attribute, labels: boolean): string {
  if (!c) return '*';
  if (labels && a.categories) {
    const codes =
      'values' in c
        ? [...c.values].sort((p, q) => p - q)
        : a.categories
            .map((_, k) => k)
            .filter((k) => k >= c.min && (c.maxInclusive ? k <= c.max : k < c.max));
    return codes.map((k) => a.categories![k] ?? String(k)).join(';');
  }
  if ('values' in c) return [...c.values].sort((p, q) => p - q).join(';');
  return `[${c.min},${c.max}${c.maxInclusive ? ']' : ')'}`;
}

function parseConditionCell(a: Attribute, cell: string, labels: boolean): Condition | null {
  const attribute = a.name;
  if (cell === '*') return null;
  if (labels && a.categories) {
    const codes = new Map(a.categories.map((l, k) => [l, k]));
    const values = cell.split(';').map((l) => {
      const k = codes.get(l);
      if (k === undefined) {
        throw new InteropError('INTEROP_PARSE', `"${l}" is not a category of "${attribute}"`, { attribute });
      }
      return k;
    });
    return { attribute, values };
  }
  const interval = /^\[([^,]+),([^\])]+)([\])])$/.exec(cell);
  if (interval) {
    const min = parseDecimal(interval[1]!);
    const max = parseDecimal(interval[2]!);
    if (!Number.isFinite(min) || !Number.isFinite(max)) {
      throw new InteropError('INTEROP_PARSE', `bad interval "${cell}" for "${attribute}"`, { attribute });
    }
    return { attribute, min, max, maxInclusive: interval[3] === ']' };
  }
  const parts = cell.split(';');
  // parseDecimal reads '' as NaN (Number('') is 0): an empty member must not read as the value 0.
  const values = parts.map(parseDecimal);
  if (values.some((v) => !Number.isFinite(v))) {
    throw new InteropError('INTEROP_PARSE', `bad subgroup cell "${cell}" for "${attribute}"`, { attribute });
  }
  return { attribute, values };
}

/** Rows of the subgroup layout (one per subgroup). */
export function subgroupTable(
  result: DiscoveryResult,
  schema: Schema,
  options: TableOptions = {},
): { header: string[]; rows: (string | number | null)[][] } {
  if (result.findings.kind !== 'subgroup') throw new InteropError('INTEROP_PARSE', 'not a subgroup result');
  const labels = options.labels === true;
  const names = checkColumns(schema, labels ? [...SUBGROUP_COLUMNS, 'subgroup'] : SUBGROUP_COLUMNS);
  const rows = result.findings.subgroups.map((s) => {
    const byAttr = new Map(s.conditions.map((c) => [c.attribute, c]));
    const cells = schema.attributes.map((a) => conditionCell(byAttr.get(a.name), a, labels));
    return [
      ...cells,
      ...(labels ? [describeSubgroup(schema, s.conditions)] : []),
      cells.join('|'),
      s.size,
      s.score,
      s.effect,
      s.pValue,
      s.direction,
      s.rank,
      ...metricCells(result),
    ];
  });
  return { header: [...names, ...(labels ? ['subgroup'] : []), ...SUBGROUP_COLUMNS], rows };
}

function resultTable(result: DiscoveryResult, schema: Schema, options: TableOptions) {
  if (
    result === null ||
    typeof result !== 'object' ||
    result.findings === null ||
    typeof result.findings !== 'object'
  ) {
    throw new ResultError('RESULT_INVALID', 'expected a DiscoveryResult with its findings');
  }
  return result.findings.kind === 'individual'
    ? individualTable(result, schema, options)
    : subgroupTable(result, schema, options);
}

/** The result in the seed layout matching its kind, as CSV. */
export function resultToCsv(result: DiscoveryResult, schema: Schema, options: TableOptions = {}): string {
  const t = resultTable(result, schema, options);
  return toCsv(t.header, t.rows);
}

/** The result in the seed layout matching its kind, as an array of row objects (JSON-ready). */
export function resultToRecords(
  result: DiscoveryResult,
  schema: Schema,
  options: TableOptions = {},
): TableRow[] {
  const t = resultTable(result, schema, options);
  return t.rows.map((r) => Object.fromEntries(t.header.map((h, i) => [h, r[i] ?? null])));
}

export interface IndividualTableContents {
  pairs: {
    caseId: number;
    sample: number[];
    counterfactual: number[];
    sampleOutcome: number;
    counterfactualOutcome: number;
  }[];
  metrics: { tsn: number; dsn: number; sur: number; dss: number | null } | null;
}

function toNumber(cell: string | number | null | undefined, what: string): number {
  const v = typeof cell === 'number' ? cell : typeof cell === 'string' ? parseDecimal(cell) : Number.NaN;
  if (!Number.isFinite(v)) {
    throw new InteropError('INTEROP_PARSE', `${what}: "${String(cell)}" is not a number`);
  }
  return v;
}

function asRecords(input: string | readonly TableRow[]): TableRow[] {
  if (typeof input !== 'string') return [...input];
  const { header, rows } = parseCsv(input);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]!])));
}

function requireColumns(records: TableRow[], columns: readonly string[]): void {
  const first = records[0];
  if (!first) return;
  for (const c of columns) {
    if (!Object.hasOwn(first, c)) throw new InteropError('INTEROP_PARSE', `the table has no "${c}" column`);
  }
}

function metricsOf(first: TableRow | undefined): IndividualTableContents['metrics'] {
  if (!first) return null;
  const dss = first['DSS'];
  return {
    tsn: toNumber(first['TSN'], 'TSN'),
    dsn: toNumber(first['DSN'], 'DSN'),
    sur: toNumber(first['SUR'], 'SUR'),
    dss: dss === '' || dss === null ? null : toNumber(dss, 'DSS'),
  };
}

/** Read back an individual table (CSV text or row objects) written by `resultToCsv`/`resultToRecords`. */
export function readIndividualTable(
  input: string | readonly TableRow[],
  schema: Schema,
  options: TableOptions = {},
): IndividualTableContents {
  const records = asRecords(input);
  const names = schema.attributes.map((a) => a.name);
  const value = (a: Attribute, cell: string | number | null | undefined): number => {
    if (!options.labels || !a.categories) return toNumber(cell, a.name);
    const k = a.categories.indexOf(String(cell));
    if (k < 0) {
      throw new InteropError('INTEROP_PARSE', `"${String(cell)}" is not a category of "${a.name}"`, {
        attribute: a.name,
      });
    }
    return k;
  };
  const outcome = (cell: string | number | null | undefined): number => {
    if (!options.labels) return toNumber(cell, 'outcome');
    const k = schema.outcome.labels.indexOf(String(cell));
    if (k < 0) throw new InteropError('INTEROP_PARSE', `"${String(cell)}" is not an outcome label`);
    return k;
  };
  requireColumns(records, [...names, ...INDIVIDUAL_COLUMNS]);
  if (records.length % 2 !== 0)
    throw new InteropError('INTEROP_PARSE', 'an individual table has two rows per pair');
  const pairs: IndividualTableContents['pairs'] = [];
  for (let r = 0; r < records.length; r += 2) {
    const a = records[r]!;
    const b = records[r + 1]!;
    const caseId = toNumber(a['case_id'], 'case_id');
    if (toNumber(b['case_id'], 'case_id') !== caseId) {
      throw new InteropError('INTEROP_PARSE', `rows ${r} and ${r + 1} belong to different cases`, { row: r });
    }
    pairs.push({
      caseId,
      sample: schema.attributes.map((at) => value(at, a[at.name])),
      counterfactual: schema.attributes.map((at) => value(at, b[at.name])),
      sampleOutcome: outcome(a['outcome']),
      counterfactualOutcome: outcome(b['outcome']),
    });
  }
  return { pairs, metrics: metricsOf(records[0]) };
}

export interface SubgroupTableContents {
  subgroups: Pick<
    SubgroupFinding,
    'rank' | 'conditions' | 'size' | 'score' | 'effect' | 'pValue' | 'direction'
  >[];
  metrics: IndividualTableContents['metrics'];
}

/** Read back a subgroup table (CSV text or row objects). */
export function readSubgroupTable(
  input: string | readonly TableRow[],
  schema: Schema,
  options: TableOptions = {},
): SubgroupTableContents {
  const records = asRecords(input);
  const names = schema.attributes.map((a) => a.name);
  requireColumns(records, [...names, ...SUBGROUP_COLUMNS]);
  const optional = (cell: string | number | null | undefined, what: string) =>
    cell === '' || cell === null || cell === undefined ? null : toNumber(cell, what);
  const subgroups = records.map((rec): SubgroupTableContents['subgroups'][number] => {
    const conditions: Condition[] = [];
    for (const a of schema.attributes) {
      const c = parseConditionCell(a, String(rec[a.name]), options.labels === true);
      if (c) conditions.push(c);
    }
    const dir = rec['direction'];
    if (dir !== 'higher' && dir !== 'lower' && dir !== '' && dir !== null) {
      throw new InteropError('INTEROP_PARSE', `direction "${String(dir)}" is not higher, lower or empty`);
    }
    return {
      rank: toNumber(rec['rank'], 'rank'),
      conditions,
      size: toNumber(rec['size'], 'size'),
      score: toNumber(rec['score'], 'score'),
      effect: optional(rec['effect'], 'effect'),
      pValue: optional(rec['p_value'], 'p_value'),
      direction: dir === 'higher' || dir === 'lower' ? dir : null,
    };
  });
  return { subgroups, metrics: metricsOf(records[0]) };
}
