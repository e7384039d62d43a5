import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import {
  type AttributeKind,
  attributeIndex,
  createDataset,
  DataError,
  type Dataset,
  defineSchema,
  type Schema,
  SchemaError,
} from '@fb/core';
import { binAttribute, type CsvSchema, loadCsv, parseDelimited } from '@fb/datasets';
import { UsageError } from './errors.js';
import { compileWhere } from './where.js';

/** What a schema file may declare; everything it leaves out is inferred. */
export interface SchemaFile {
  columns?: string[];
  protected?: string[];
  kinds?: Record<string, AttributeKind>;
  categories?: Record<string, string[]>;
  /** Bin edges per numeric column: bin 0 is below edges[0], the last bin at or above the last edge. */
  bins?: Record<string, number[]>;
}

export interface DataOptions {
  file: string;
  outcome: string;
  favorable: string;
  protected: string[];
  columns?: string[] | undefined;
  exclude?: string[] | undefined;
  /** A column of recorded decisions (outcome labels) or scores, taken out of the attributes. */
  recorded?: { kind: 'predictions' | 'scores'; column: string } | undefined;
  schemaFile?: SchemaFile | undefined;
  missing?: 'drop' | 'error' | 'mode';
  /** Quantile bins for continuous protected attributes (default 4). */
  protectedBins?: number;
  /** A `--where` row filter on the raw cells, applied before anything else (see `parseWhere`). */
  where?: string | undefined;
}

/** A protected numeric attribute replaced by bins, and the raw value that stands for each bin. */
export interface BinnedAttribute {
  readonly name: string;
  readonly column: number;
  readonly edges: readonly number[];
  readonly labels: readonly string[];
  /** Median raw value of each bin's rows (what a model that reads raw values is sent). */
  readonly representatives: Float64Array;
}

export interface AuditData {
  /** The data the detectors see: protected numeric attributes binned, recorded column removed. */
  readonly dataset: Dataset;
  /** The same attributes before binning (what a model reading raw values expects). */
  readonly modelSchema: Schema;
  readonly binned: readonly BinnedAttribute[];
  /** Recorded decisions (outcome codes) or scores per row, when given. */
  readonly recorded: { kind: 'predictions' | 'scores'; column: string; values: Float64Array } | null;
  /** Messages about how the file was read (printed, and shown in the report). */
  readonly notes: string[];
  /** Data rows in the file (before `--where` and before rows with missing cells are dropped). */
  readonly rowsRead: number;
  /** The `--where` filter and the rows it kept of `rowsRead`, when one was given. */
  readonly filter: { readonly where: string; readonly rowsKept: number } | null;
}

function readText(file: string): string {
  let raw: Buffer;
  try {
    raw = readFileSync(file);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  const bytes = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

function detectDelimiter(text: string): string {
  const first = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((c) => [c, first.split(c).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]![1] > 0 ? counts[0]![0] : ',';
}

/**
 * Every row must have as many cells as the header: a short row (or a header split on `,` over rows split
 * on `;`) is named, with the delimiter that would fit when there is one.
 */
function checkRowLengths(header: string[], rows: string[][], delimiter: string, file: string): void {
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    // A blank line parses as one empty cell: it holds no row.
    if (row.length === 1 && row[0]!.trim() === '') continue;
    if (row.length === header.length) continue;
    const raw = row.join(delimiter);
    const other = [',', ';', '\t'].find(
      (c) => c !== delimiter && raw.split(c).length === header.length && header.length > 1,
    );
    const shown = (c: string) => (c === '\t' ? 'a tab' : `"${c}"`);
    throw new DataError(
      'DATA_SHAPE',
      `${file}, line ${r + 2}: ${row.length} ${row.length === 1 ? 'cell' : 'cells'}, the header has ${header.length} (${header.join(', ')})${
        other
          ? `; the header is split on ${shown(delimiter)} but this line on ${shown(other)}: use one delimiter throughout`
          : ''
      }`,
      { row: r + 2 },
    );
  }
}

const KINDS: readonly AttributeKind[] = ['categorical', 'ordinal', 'continuous'];

/** A schema file as JSON may hold anything: each field is checked and named (`--schema bins.age[1]`). */
export function checkSchemaFile(file: unknown): SchemaFile {
  const bad = (field: string, what: string): never => {
    throw new SchemaError('SCHEMA_INVALID', `--schema ${field}: ${what}`, { option: field });
  };
  const show = (v: unknown) => (typeof v === 'string' ? `"${v}"` : (JSON.stringify(v) ?? String(v)));
  if (typeof file !== 'object' || file === null || Array.isArray(file)) {
    return bad('(file)', 'must be a JSON object');
  }
  const f = file as Record<string, unknown>;
  const known = ['columns', 'protected', 'kinds', 'categories', 'bins'];
  for (const k of Object.keys(f)) {
    if (!known.includes(k)) bad(k, `unknown field (known: ${known.join(', ')})`);
  }
  const names = (field: string, v: unknown) => {
    if (!Array.isArray(v)) return bad(field, 'must be a list of column names');
    v.forEach((c, i) => {
      if (typeof c !== 'string' || c.trim() === '') bad(`${field}[${i}]`, `${show(c)} is not a column name`);
    });
  };
  const record = (field: string, v: unknown): [string, unknown][] => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      return bad(field, 'must be an object keyed by column name');
    }
    return Object.entries(v);
  };
  if (f['columns'] !== undefined) names('columns', f['columns']);
  if (f['protected'] !== undefined) names('protected', f['protected']);
  if (f['kinds'] !== undefined) {
    for (const [c, k] of record('kinds', f['kinds'])) {
      if (!KINDS.includes(k as AttributeKind))
        bad(`kinds.${c}`, `${show(k)} is not a kind (${KINDS.join(', ')})`);
    }
  }
  if (f['categories'] !== undefined) {
    for (const [c, labels] of record('categories', f['categories'])) {
      if (!Array.isArray(labels) || labels.length === 0)
        bad(`categories.${c}`, 'must be a non-empty list of labels');
      (labels as unknown[]).forEach((l, i) => {
        if (typeof l !== 'string')
          bad(`categories.${c}[${i}]`, `${show(l)} is not a label (write labels as strings)`);
      });
    }
  }
  if (f['bins'] !== undefined) {
    for (const [c, edges] of record('bins', f['bins'])) {
      if (!Array.isArray(edges) || edges.length === 0)
        bad(`bins.${c}`, 'must be a non-empty list of numbers');
      (edges as unknown[]).forEach((e, i) => {
        if (typeof e !== 'number' || !Number.isFinite(e))
          bad(`bins.${c}[${i}]`, `${show(e)} is not a finite number`);
        if (i > 0 && (e as number) <= ((edges as number[])[i - 1] as number)) {
          bad(`bins.${c}[${i}]`, `${e} does not exceed the edge before it: edges must increase`);
        }
      });
    }
  }
  return f as SchemaFile;
}

/** Protected numeric columns with more distinct values than this are binned. */
const MAX_PROTECTED_LEVELS = 12;

const MISSING = new Set(['', '?', 'NA', 'N/A', 'NaN', 'null']);

/**
 * Columns left out by default: later copies of a repeated header name, and text columns with a
 * distinct value on most rows (names, identifiers, dates), which no audit can group by.
 */
function defaultColumns(header: string[], rows: string[][], keep: Set<string>, notes: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  header.forEach((h, j) => {
    if (seen.has(h)) {
      notes.push(`column "${h}" appears twice: the later copy is left out`);
      return;
    }
    seen.add(h);
    if (keep.has(h)) {
      out.push(h);
      return;
    }
    const values = new Set<string>();
    let numeric = true;
    for (const r of rows) {
      const c = r[j]!.trim();
      if (MISSING.has(c)) continue;
      values.add(c);
      if (numeric && !Number.isFinite(Number(c))) numeric = false;
    }
    if (!numeric && values.size > Math.max(50, rows.length / 2)) {
      notes.push(
        `column "${h}" is left out: ${values.size} distinct text values (an identifier, name or date?); list it in --columns to keep it`,
      );
      return;
    }
    if (values.size <= 1) {
      notes.push(`column "${h}" is left out: it holds a single value`);
      return;
    }
    out.push(h);
  });
  return out;
}

/** Quantile edges cutting `values` into at most `bins` bins of near-equal size (distinct, increasing). */
export function quantileEdges(values: Float64Array, bins: number): number[] {
  // Missing values (NaN) have no place among the quantiles: they would sort last and shift every edge.
  const sorted = Float64Array.from(values.filter((v) => Number.isFinite(v))).sort();
  if (sorted.length === 0) return [];
  const edges: number[] = [];
  for (let b = 1; b < bins; b++) {
    const v = sorted[Math.floor((b * sorted.length) / bins)]!;
    if (v > sorted[0]! && (edges.length === 0 || v > edges[edges.length - 1]!)) edges.push(v);
  }
  return edges;
}

function num(v: number): string {
  return String(Number(v.toPrecision(6)));
}

function binLabels(edges: readonly number[], integer: boolean): string[] {
  // Integer columns read as closed ranges (`25-44`), real ones as half-open intervals.
  if (integer) {
    return [
      `<${num(edges[0]!)}`,
      ...edges.slice(1).map((e, i) => `${num(edges[i]!)}-${num(e - 1)}`),
      `>=${num(edges[edges.length - 1]!)}`,
    ];
  }
  return [
    `<${num(edges[0]!)}`,
    ...edges.slice(1).map((e, i) => `[${num(edges[i]!)}, ${num(e)})`),
    `>=${num(edges[edges.length - 1]!)}`,
  ];
}

/** Read the CSV, infer (or take) the schema, bin numeric protected attributes, set the recorded column aside. */
export function loadAuditData(options: DataOptions): AuditData {
  const notes: string[] = [];
  const text = readText(options.file);
  const delimiter = detectDelimiter(text);
  const records = parseDelimited(text, delimiter);
  if (records.length < 2) throw new UsageError(`${options.file} has no data rows`);
  const header = records[0]!.map((h) => h.trim());
  let rows = records.slice(1);
  checkRowLengths(header, rows, delimiter, options.file);
  // A blank line parses as one empty cell: it is no row.
  rows = rows.filter((row) => !(row.length === 1 && header.length > 1 && row[0]!.trim() === ''));
  const rowsRead = rows.length;
  let filter: AuditData['filter'] = null;
  let csvText = text;
  if (options.where !== undefined) {
    const test = compileWhere(options.where, header);
    rows = rows.filter(test);
    if (rows.length === 0) {
      throw new UsageError(
        `--where ${JSON.stringify(options.where)} keeps no row of the ${rowsRead} rows of ${options.file}`,
        { option: '--where', expression: options.where, rowsRead },
      );
    }
    filter = { where: options.where, rowsKept: rows.length };
    notes.push(`--where ${options.where}: ${rows.length} of ${rowsRead} rows kept`);
    csvText = toDelimited([records[0]!, ...rows], delimiter);
  }
  const file = options.schemaFile === undefined ? {} : checkSchemaFile(options.schemaFile);
  for (const field of ['kinds', 'categories', 'bins'] as const) {
    for (const c of Object.keys(file[field] ?? {})) {
      if (!header.includes(c)) {
        throw new SchemaError(
          'SCHEMA_INVALID',
          `--schema ${field}.${c}: "${c}" is not a column of ${options.file}`,
          {
            option: `${field}.${c}`,
          },
        );
      }
    }
  }
  const protectedNames = options.protected.length > 0 ? options.protected : (file.protected ?? []);
  if (protectedNames.length === 0) {
    throw new UsageError(
      'name the protected attributes: --protected sex,race (or "protected" in the schema file)',
    );
  }
  for (const name of [
    options.outcome,
    ...protectedNames,
    ...(options.recorded ? [options.recorded.column] : []),
  ]) {
    if (!header.includes(name)) {
      throw new UsageError(`"${name}" is not a column of ${options.file} (columns: ${header.join(', ')})`);
    }
  }
  const exclude = new Set(options.exclude ?? []);
  const special = new Set([options.outcome, ...(options.recorded ? [options.recorded.column] : [])]);
  let columns: string[];
  const declared = options.columns ?? file.columns;
  if (declared) {
    for (const c of declared) {
      if (!header.includes(c)) throw new UsageError(`--columns: "${c}" is not a column of ${options.file}`);
    }
    columns = [...new Set([...protectedNames, ...declared])].filter((c) => !special.has(c));
  } else {
    const keep = new Set([
      ...protectedNames,
      ...Object.keys(file.kinds ?? {}),
      ...Object.keys(file.categories ?? {}),
    ]);
    columns = defaultColumns(header, rows, keep, notes).filter((c) => !special.has(c) && !exclude.has(c));
  }
  const recordedColumn = options.recorded?.column;
  const kinds: Record<string, AttributeKind> = { ...(file.kinds ?? {}) };
  if (options.recorded?.kind === 'predictions') kinds[recordedColumn!] = 'categorical';
  if (options.recorded?.kind === 'scores') kinds[recordedColumn!] = 'continuous';
  const declaredSchema: CsvSchema = {
    outcome: options.outcome,
    favorable: options.favorable,
    protected: protectedNames,
    columns: recordedColumn ? [...columns, recordedColumn] : columns,
    kinds,
    ...(file.categories ? { categories: file.categories } : {}),
  };
  const loaded = loadCsv(csvText, declaredSchema, {
    missing: options.missing ?? 'drop',
    delimiter,
    name: options.file.split(/[\\/]/).pop()!,
  });
  const dropped = Object.entries(loaded.metadata.rowsDropped).filter(([, n]) => n > 0);
  for (const [why, n] of dropped) notes.push(`${n} rows dropped (${why})`);

  // Set the recorded column aside.
  let ds: Dataset = loaded;
  let recorded: AuditData['recorded'] = null;
  if (options.recorded) {
    const j = attributeIndex(ds.schema, options.recorded.column);
    const a = ds.schema.attributes[j]!;
    const values = new Float64Array(ds.n);
    for (let i = 0; i < ds.n; i++) values[i] = ds.x[i * ds.d + j]!;
    if (options.recorded.kind === 'predictions') {
      const labels = ds.schema.outcome.labels;
      const codes = a.categories!.map((c) => labels.indexOf(c));
      const unknown = a.categories!.filter((_, k) => codes[k]! < 0);
      if (unknown.length > 0) {
        throw new UsageError(
          `--predictions ${a.name}: ${unknown.map((u) => `"${u}"`).join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not a label of outcome "${options.outcome}" (${labels.join(', ')})`,
        );
      }
      for (let i = 0; i < ds.n; i++) values[i] = codes[values[i]!]!;
    }
    recorded = { kind: options.recorded.kind, column: a.name, values };
    ds = dropColumn(ds, j);
  }
  const modelSchema = ds.schema;

  // Bin numeric protected attributes (and any column the schema file bins).
  const binned: BinnedAttribute[] = [];
  const bins = options.protectedBins ?? 4;
  for (let j = 0; j < ds.schema.attributes.length; j++) {
    const a = ds.schema.attributes[j]!;
    const explicit = file.bins?.[a.name];
    if (!explicit && !(a.protected && !a.categories)) continue;
    if (a.categories) throw new UsageError(`bins for "${a.name}": only numeric columns can be binned`);
    const raw = new Float64Array(ds.n);
    for (let i = 0; i < ds.n; i++) raw[i] = ds.x[i * ds.d + j]!;
    // A protected numeric column with few values (a 0/1 code) is compared value by value.
    if (!explicit && new Set(raw).size <= MAX_PROTECTED_LEVELS) continue;
    const edges = explicit ?? quantileEdges(raw, bins);
    if (edges.length === 0) continue;
    const integer = raw.every(Number.isInteger);
    const labels = binLabels(edges, integer);
    const representatives = binMedians(raw, edges);
    ds = binAttribute(ds, a.name, edges, labels);
    binned.push({ name: a.name, column: j, edges, labels, representatives });
    notes.push(
      `${a.protected ? 'protected ' : ''}attribute "${a.name}" is numeric: binned into ${labels.join(', ')}${explicit ? '' : ' (quantiles)'}`,
    );
  }
  return { dataset: ds, modelSchema, binned, recorded, notes, rowsRead, filter };
}

/** Records back to delimited text that `parseDelimited` reads as the same records. */
function toDelimited(records: readonly (readonly string[])[], delimiter: string): string {
  const cell = (c: string, only: boolean) =>
    c.includes(delimiter) || c.includes('"') || c.includes('\n') || c.includes('\r') || (only && c === '')
      ? `"${c.replaceAll('"', '""')}"`
      : c;
  return `${records.map((r) => r.map((c) => cell(c, r.length === 1)).join(delimiter)).join('\n')}\n`;
}

function binMedians(raw: Float64Array, edges: readonly number[]): Float64Array {
  const groups: number[][] = Array.from({ length: edges.length + 1 }, () => []);
  for (const v of raw) groups[binOf(v, edges)]!.push(v);
  return Float64Array.from(groups, (g, b) => {
    if (g.length === 0) return b === 0 ? edges[0]! : edges[b - 1]!;
    g.sort((p, q) => p - q);
    return g[Math.floor((g.length - 1) / 2)]!;
  });
}

function binOf(v: number, edges: readonly number[]): number {
  let b = 0;
  while (b < edges.length && v >= edges[b]!) b++;
  return b;
}

function dropColumn(ds: Dataset, j: number): Dataset {
  const d = ds.d;
  const x = new Float64Array(ds.n * (d - 1));
  for (let i = 0; i < ds.n; i++) {
    let o = i * (d - 1);
    for (let k = 0; k < d; k++) if (k !== j) x[o++] = ds.x[i * d + k]!;
  }
  const schema = defineSchema({
    attributes: ds.schema.attributes.filter((_, k) => k !== j),
    outcome: ds.schema.outcome,
  });
  return createDataset({ schema, x, y: ds.y, ...(ds.name ? { name: ds.name } : {}) });
}

/** The schema as printed lines: one per attribute with its kind and domain. */
export function schemaLines(schema: Schema): string[] {
  const lines = schema.attributes.map((a) => {
    const domain = a.categories
      ? a.categories.length > 8
        ? `${a.categories.length} values: ${a.categories.slice(0, 6).join(', ')}, ...`
        : a.categories.join(', ')
      : `${num(a.min!)} .. ${num(a.max!)}`;
    return `  ${a.protected ? '*' : ' '} ${a.name}  ${a.kind}  [${domain}]`;
  });
  const o = schema.outcome;
  lines.push(`    ${o.name}  outcome  [${o.labels.join(', ')}], favourable: ${o.labels[o.favorable]}`);
  return lines;
}
