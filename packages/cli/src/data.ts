import {
  type Attribute,
  type AttributeKind,
  attributeIndex,
  createDataset,
  DataError,
  type Dataset,
  defineSchema,
  parseDecimal,
  type Schema,
  SchemaError,
} from '@fb/core';
import { binAttribute } from '@fb/datasets';
import { UsageError } from './errors.js';
import { DelimitedFile } from './records.js';
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
  /**
   * Rows already read (a named dataset, decoded): used instead of reading `file`, which then only
   * names them in messages.
   */
  table?: { readonly header: readonly string[]; readonly rows: readonly (readonly string[])[] } | undefined;
}

/** Columns missing in more than this share of the rows are left out unless named (`--columns`). */
export const MAX_MISSING_SHARE = 0.1;

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
  /** The audited rows in `modelSchema`'s coding: the real values of binned attributes. */
  readonly rawX: Float64Array;
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

function detectDelimiter(first: string): string {
  const counts = [',', ';', '\t'].map((c) => [c, first.split(c).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]![1] > 0 ? counts[0]![0] : ',';
}

/**
 * Every row must have as many cells as the header: a short row (or a header split on `,` over rows split
 * on `;`) is named, with the delimiter that would fit when there is one. `index` counts records (the
 * header is 0), as the line numbers of the messages do.
 */
function checkRowLength(
  header: string[],
  row: string[],
  index: number,
  delimiter: string,
  file: string,
): void {
  if (row.length === header.length) return;
  const raw = row.join(delimiter);
  const other = [',', ';', '\t'].find(
    (c) => c !== delimiter && raw.split(c).length === header.length && header.length > 1,
  );
  const shown = (c: string) => (c === '\t' ? 'a tab' : `"${c}"`);
  throw new DataError(
    'DATA_SHAPE',
    `${file}, line ${index + 1}: ${row.length} ${row.length === 1 ? 'cell' : 'cells'}, the header has ${header.length} (${header.join(', ')})${
      other
        ? `; the header is split on ${shown(delimiter)} but this line on ${shown(other)}: use one delimiter throughout`
        : ''
    }`,
    { row: index + 1 },
  );
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

type EachRow = (f: (row: string[], index: number) => void) => { read: number; kept: number };

interface Declared {
  name: string;
  outcome: string;
  favorable: string;
  protected: readonly string[];
  columns: readonly string[];
  kinds: Readonly<Record<string, AttributeKind>>;
  categories: Readonly<Record<string, readonly string[]>>;
  missing: 'drop' | 'error' | 'mode';
}

/** Integer columns with at most this many distinct values are inferred ordinal, others continuous. */
const MAX_ORDINAL_LEVELS = 50;
/** Distinct texts a numeric column keeps before it is taken for a number column (see `encodeRows`). */
const MAX_NUMERIC_TEXTS = 1 << 16;

/** What the inference pass learns of one column. */
class ColumnStats {
  numeric = true;
  integer = true;
  lo = Number.POSITIVE_INFINITY;
  hi = Number.NEGATIVE_INFINITY;
  /** Distinct numbers, counted up to one past the ordinal limit. */
  readonly numbers = new Set<number>();
  /** Distinct trimmed texts and their counts; null once a numeric column had too many to keep. */
  texts: Map<string, number> | null = new Map();

  add(cell: string): void {
    const v = parseDecimal(cell);
    if (this.numeric) {
      if (Number.isFinite(v)) {
        if (v < this.lo) this.lo = v;
        if (v > this.hi) this.hi = v;
        if (this.integer && !Number.isInteger(v)) this.integer = false;
        if (this.numbers.size <= MAX_ORDINAL_LEVELS) this.numbers.add(v);
      } else this.numeric = false;
    }
    if (this.texts) {
      this.texts.set(cell, (this.texts.get(cell) ?? 0) + 1);
      if (this.numeric && this.texts.size > MAX_NUMERIC_TEXTS) this.texts = null;
    }
  }
}

/**
 * The rows of `eachRow` as a dataset, as `loadCsv` of @fb/datasets reads the same rows (kinds
 * inferred, the missing-value policy, the same typed errors), in two passes that keep no row: one
 * learns each column's kind and domain, the other writes the codes straight into the dataset's arrays.
 */
function encodeRows(
  eachRow: EachRow,
  header: readonly string[],
  counts: (rowsRead: number, rowsKept: number) => void,
  declared: Declared,
): {
  dataset: Dataset;
  rowsRead: number;
  rowsKept: number;
  dropped: number;
  droppedWhy: string;
  /** Per used column, the rows dropped (or imputed) because that column missed a value. */
  missingBy: Map<string, number>;
} {
  const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
    Object.hasOwn(table, key) ? table[key] : undefined;
  const outcomeAt = header.indexOf(declared.outcome);
  const names = declared.columns;
  const at = names.map((c) => header.indexOf(c));
  const used = [outcomeAt, ...at];
  const policy = declared.missing;
  const isMissing = (cell: string) => MISSING.has(cell.trim());
  const stats = names.map(() => new ColumnStats());
  const labelSet = new Set<string>();
  let dropped = 0;
  const missingBy = new Map<string, number>();
  const { read, kept: passed } = eachRow((row, index) => {
    const gapAt = used.find((i) => isMissing(row[i]!));
    if (gapAt !== undefined) {
      for (const i of used) {
        if (isMissing(row[i]!)) missingBy.set(header[i]!, (missingBy.get(header[i]!) ?? 0) + 1);
      }
      if (policy === 'error') {
        throw new DataError(
          'DATA_NOT_FINITE',
          `CSV line ${index + 1}, column "${header[gapAt]}": missing value "${row[gapAt]}" (set missing to drop or mode)`,
          { attribute: header[gapAt]!, row: index + 1 },
        );
      }
      if (policy === 'drop' || gapAt === outcomeAt) {
        dropped++;
        return;
      }
    }
    labelSet.add(row[outcomeAt]!.trim());
    for (let c = 0; c < at.length; c++) {
      const cell = row[at[c]!]!;
      if (!isMissing(cell)) stats[c]!.add(cell.trim());
    }
  });
  counts(read, passed);
  const n = passed - dropped;
  if (n === 0) {
    if (passed === 0) throw new DataError('DATA_EMPTY', `${declared.name} has no data rows`);
    const worst = [...missingBy].sort((a, b) => b[1] - a[1]);
    const shown = worst.map(([c, k]) => `"${c}" on ${k}`).join(', ');
    const optional = worst
      .map(([c]) => c)
      .filter((c) => c !== declared.outcome && !declared.protected.includes(c));
    throw new DataError(
      'DATA_EMPTY',
      `every one of the ${passed} rows misses a value in a column the audit uses (${shown} of ${passed} rows)${
        optional.length > 0
          ? `: leave ${optional.length > 1 ? 'those columns' : 'it'} out with --exclude ${optional.join(',')}, name the columns to use with --columns${policy === 'drop' ? ', or fill attribute values with --missing mode' : ''}`
          : ': the outcome or a protected attribute has no value on any row'
      }`,
      { columns: worst.map(([c]) => c), missing: Object.fromEntries(worst) },
    );
  }
  // The mode of each column (most frequent, ties to the first in text order), for `mode`.
  const modes: (string | null)[] = stats.map((st, c) => {
    if (policy !== 'mode') return null;
    if (st.texts === null) return modeOfColumn(eachRow, at[c]!, outcomeAt, isMissing);
    if (st.texts.size === 0) {
      throw new DataError('DATA_EMPTY', `column "${names[c]}" has no value to impute from`, {
        attribute: names[c]!,
      });
    }
    return [...st.texts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
  });
  const attributes: Attribute[] = names.map((name, c) => {
    const st = stats[c]!;
    const numeric = st.numeric;
    const isProtected = declared.protected.includes(name);
    const declaredKind = own(declared.kinds, name);
    const order = own(declared.categories, name);
    let kind: AttributeKind = declaredKind ?? 'categorical';
    if (!declaredKind && numeric) {
      kind = st.integer && st.numbers.size <= MAX_ORDINAL_LEVELS ? 'ordinal' : 'continuous';
    }
    if (kind !== 'categorical' && !numeric && !order) {
      throw new SchemaError(
        'SCHEMA_BAD_DOMAIN',
        `column "${name}" is declared ${kind} but holds text (give its category order in categories)`,
        { attribute: name },
      );
    }
    if (kind === 'categorical' || order || !numeric) {
      const texts = st.texts ? [...st.texts.keys()] : distinctTexts(eachRow, at[c]!, used, policy, isMissing);
      const categories = order
        ? [...order]
        : texts.sort(numeric ? (a, b) => parseDecimal(a) - parseDecimal(b) : undefined);
      return { name, kind, protected: isProtected, categories };
    }
    if (kind === 'ordinal' && !st.integer) {
      throw new SchemaError(
        'SCHEMA_BAD_DOMAIN',
        `column "${name}" is declared ordinal but holds non-integer numbers`,
        { attribute: name },
      );
    }
    return { name, kind, protected: isProtected, min: st.lo, max: st.hi };
  });
  const labels = [...labelSet].sort();
  const favorable = labels.indexOf(declared.favorable);
  // The outcome must hold the favourable label and another.
  const outcomeProblem =
    favorable < 0
      ? new SchemaError(
          'SCHEMA_INVALID',
          `favourable label "${declared.favorable}" does not occur in outcome "${declared.outcome}" (labels: ${labels.join(', ')})`,
          { attribute: declared.outcome },
        )
      : labels.length < 2
        ? new DataError(
            'DATA_SINGLE_CLASS',
            `outcome "${declared.outcome}" has the single label "${labels[0]}"`,
            {
              attribute: declared.outcome,
            },
          )
        : null;
  if (outcomeProblem) throw outcomeProblem;
  // Second pass: the codes, straight into the arrays.
  const d = attributes.length;
  const x = new Float64Array(n * d);
  const y = new Int32Array(n);
  const codeMaps = attributes.map((a) => (a.categories ? new Map(a.categories.map((v, k) => [v, k])) : null));
  const labelCode = new Map(labels.map((l, k) => [l, k]));
  let r = 0;
  eachRow((row) => {
    const gapAt = used.find((i) => isMissing(row[i]!));
    if (gapAt !== undefined && (policy !== 'mode' || gapAt === outcomeAt)) return;
    for (let c = 0; c < d; c++) {
      const raw = row[at[c]!]!;
      const cell = isMissing(raw) ? modes[c]! : raw.trim();
      const codes = codeMaps[c];
      if (codes === null) {
        x[r * d + c] = parseDecimal(cell);
        continue;
      }
      const code = codes.get(cell);
      // A declared category order that lacks a value of the file.
      if (code === undefined) throw unknownCategory(names[c]!, cell);
      x[r * d + c] = code;
    }
    y[r] = labelCode.get(row[outcomeAt]!.trim())!;
    r++;
  });
  if (r !== n)
    throw new DataError('DATA_SHAPE', `${declared.name} changed while it was read (${r} rows, then ${n})`);
  const dataset = createDataset({
    schema: { attributes, outcome: { name: declared.outcome, labels, favorable } },
    x,
    y,
    name: declared.name,
  });
  return {
    dataset,
    rowsRead: read,
    rowsKept: passed,
    dropped,
    droppedWhy: policy === 'mode' ? 'missing outcome' : 'missing value',
    missingBy,
  };
}

const unknownCategory = (column: string, cell: string) =>
  new DataError(
    'DATA_UNKNOWN_CATEGORY',
    `column "${column}": value "${cell}" is not in its declared categories`,
    {
      attribute: column,
    },
  );

/** The distinct texts of column `j` over the rows the policy keeps (for a column with very many). */
function distinctTexts(
  eachRow: EachRow,
  j: number,
  used: readonly number[],
  policy: Declared['missing'],
  isMissing: (cell: string) => boolean,
): string[] {
  const texts = new Set<string>();
  eachRow((row) => {
    if (policy !== 'mode' && used.some((i) => isMissing(row[i]!))) return;
    if (!isMissing(row[j]!)) texts.add(row[j]!.trim());
  });
  return [...texts];
}

/** The mode of column `j` among rows with an outcome (for a column with very many distinct values). */
function modeOfColumn(
  eachRow: EachRow,
  j: number,
  outcomeAt: number,
  isMissing: (cell: string) => boolean,
): string {
  const counts = new Map<string, number>();
  eachRow((row) => {
    if (isMissing(row[outcomeAt]!) || isMissing(row[j]!)) return;
    const cell = row[j]!.trim();
    counts.set(cell, (counts.get(cell) ?? 0) + 1);
  });
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
}

/** Rows already in memory, as `DelimitedFile` gives them: the header is record 0. */
function tableSource(table: NonNullable<DataOptions['table']>): Pick<DelimitedFile, 'forEach'> & {
  firstLine(): string;
} {
  return {
    firstLine: () => table.header.join(','),
    forEach(_delimiter: string, f: (record: string[], index: number) => boolean | undefined) {
      if (f(table.header as string[], 0) === false) return;
      for (let i = 0; i < table.rows.length; i++) if (f(table.rows[i] as string[], i + 1) === false) return;
    },
  };
}

/** Protected numeric columns with more distinct values than this are binned. */
const MAX_PROTECTED_LEVELS = 12;

const MISSING = new Set(['', '?', 'NA', 'N/A', 'NaN', 'null']);

/**
 * The distinct trimmed texts of one column and whether all of them are numbers, seen row by row.
 * Up to `EXACT` values are kept as texts; past that, as 53-bit hashes in a typed table (two
 * independent 32-bit hashes of the text), so an identifier column of a million rows costs megabytes,
 * not a million strings. Two texts of a million sharing both hashes is a chance below 10^-4.
 */
class DistinctCount {
  private static readonly EXACT = 1 << 16;
  private texts: Set<string> | null = new Set();
  private table = new Float64Array(0);
  private count = 0;
  numeric = true;

  add(cell: string): void {
    if (this.numeric && !Number.isFinite(Number(cell))) this.numeric = false;
    if (this.texts) {
      this.texts.add(cell);
      if (this.texts.size > DistinctCount.EXACT) {
        const texts = this.texts;
        this.texts = null;
        this.table = new Float64Array(DistinctCount.EXACT * 4);
        for (const t of texts) this.insert(t);
      }
    } else this.insert(cell);
  }

  get size(): number {
    return this.texts ? this.texts.size : this.count;
  }

  private insert(text: string): void {
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    // 1 + a 53-bit key: 0 marks an empty slot.
    const hi = a >>> 0;
    const lo = b & 0x1fffff;
    const key = 1 + hi * 2 ** 21 + lo;
    const mask = this.table.length - 1;
    let slot = slotOf(hi, lo, mask);
    for (;;) {
      const held = this.table[slot]!;
      if (held === key) return;
      if (held === 0) break;
      slot = (slot + 1) & mask;
    }
    this.table[slot] = key;
    this.count++;
    if (this.count * 2 > this.table.length) {
      const old = this.table;
      this.table = new Float64Array(old.length * 2);
      this.count = 0;
      const m = this.table.length - 1;
      for (const k of old) {
        if (k === 0) continue;
        // Re-derive the slot from the key's parts.
        const hi = Math.floor((k - 1) / 2 ** 21);
        const lo = (k - 1) % 2 ** 21;
        let s = slotOf(hi, lo, m);
        while (this.table[s] !== 0) s = (s + 1) & m;
        this.table[s] = k;
        this.count++;
      }
    }
  }
}

/** Where a hashed text of `DistinctCount` is first looked for. */
const slotOf = (hi: number, lo: number, mask: number): number => (hi ^ Math.imul(lo, 0x9e3779b1)) & mask;

/**
 * Columns left out by default: later copies of a repeated header name, and text columns with a
 * distinct value on most rows (names, identifiers, dates), which no audit can group by. `census[j]`
 * holds column j's distinct non-missing values (null for columns kept anyway); `rows` is their count.
 */
function defaultColumns(
  header: string[],
  census: readonly (DistinctCount | null)[],
  rows: number,
  keep: Set<string>,
  notes: string[],
): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  header.forEach((h, j) => {
    if (seen.has(h)) {
      notes.push(`column "${h}" appears twice: the later copy is left out`);
      return;
    }
    seen.add(h);
    const values = census[j];
    if (keep.has(h) || !values) {
      out.push(h);
      return;
    }
    if (!values.numeric && values.size > Math.max(50, rows / 2)) {
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
  const source = options.table ? tableSource(options.table) : new DelimitedFile(options.file);
  const delimiter = options.table ? ',' : detectDelimiter(source.firstLine());
  let rawHeader: string[] | null = null;
  source.forEach(delimiter, (record) => {
    rawHeader = record;
    return false;
  });
  if (rawHeader === null) throw new UsageError(`${options.file} has no data rows`);
  const header = (rawHeader as string[]).map((h) => h.trim());
  const test = options.where === undefined ? null : compileWhere(options.where, rawHeader);
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

  /** Every data row (checked, blank lines skipped) that passes --where, with its record index. */
  const eachRow = (f: (row: string[], index: number) => void) => {
    let read = 0;
    let kept = 0;
    source.forEach(delimiter, (row, index) => {
      if (index === 0) return true;
      // A line of blanks parses as one blank cell: it is no row.
      if (row.length === 1 && header.length > 1 && row[0]!.trim() === '') return true;
      checkRowLength(header, row, index, delimiter, options.file);
      read++;
      if (test && !test(row)) return true;
      kept++;
      f(row, index);
      return true;
    });
    return { read, kept };
  };

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
    // First pass: how many distinct values each column holds (identifiers are left out).
    const first = new Map<string, number>();
    header.forEach((h, j) => {
      if (!first.has(h)) first.set(h, j);
    });
    const census = header.map((h, j) => (keep.has(h) || first.get(h) !== j ? null : new DistinctCount()));
    const counted = census.flatMap((c, j) => (c ? [[j, c] as const] : []));
    const gaps = new Float64Array(header.length);
    const { kept } = eachRow((row) => {
      for (const [j, c] of counted) {
        const cell = row[j]!.trim();
        if (!MISSING.has(cell)) c.add(cell);
        else gaps[j]!++;
      }
    });
    columns = defaultColumns(header, census, kept, keep, notes).filter((c) => {
      if (special.has(c) || exclude.has(c)) return false;
      // A column that misses values on many rows would cost the audit those rows: left out, named.
      const j = header.indexOf(c);
      if (keep.has(c) || gaps[j]! <= MAX_MISSING_SHARE * kept) return true;
      notes.push(
        `column "${c}" is left out: ${gaps[j]} of ${kept} rows have no value in it, and each would be dropped; list it in --columns to keep it (with --missing mode to fill its gaps instead)`,
      );
      return false;
    });
  }
  const recordedColumn = options.recorded?.column;
  const kinds: Record<string, AttributeKind> = { ...(file.kinds ?? {}) };
  if (options.recorded?.kind === 'predictions') kinds[recordedColumn!] = 'categorical';
  if (options.recorded?.kind === 'scores') kinds[recordedColumn!] = 'continuous';
  for (const p of protectedNames) {
    if (!columns.includes(p)) {
      throw new SchemaError('SCHEMA_INVALID', `protected column "${p}" is not among the attribute columns`, {
        attribute: p,
      });
    }
  }
  const counts = (rowsRead: number, rowsKept: number) => {
    if (rowsRead === 0) throw new UsageError(`${options.file} has no data rows`);
    if (options.where !== undefined && rowsKept === 0) {
      throw new UsageError(
        `--where ${JSON.stringify(options.where)} keeps no row of the ${rowsRead} rows of ${options.file}`,
        { option: '--where', expression: options.where, rowsRead },
      );
    }
  };
  const loaded = encodeRows(eachRow, header, counts, {
    name: options.file.split(/[\\/]/).pop()!,
    outcome: options.outcome,
    favorable: options.favorable,
    protected: protectedNames,
    columns: recordedColumn ? [...columns, recordedColumn] : columns,
    kinds,
    categories: file.categories ?? {},
    missing: options.missing ?? 'drop',
  });
  const { rowsRead } = loaded;
  let filter: AuditData['filter'] = null;
  if (options.where !== undefined) {
    filter = { where: options.where, rowsKept: loaded.rowsKept };
    notes.push(`--where ${options.where}: ${loaded.rowsKept} of ${rowsRead} rows kept`);
  }
  if (loaded.dropped > 0 || loaded.missingBy.size > 0) {
    const by = [...loaded.missingBy]
      .sort((a, b) => b[1] - a[1])
      .map(([c, k]) => `"${c}" ${k}`)
      .join(', ');
    notes.push(
      (options.missing ?? 'drop') === 'mode'
        ? `missing values counted in the columns the audit uses only (${by}): attribute values filled with the column's most frequent value${loaded.dropped > 0 ? `, ${loaded.dropped} rows without an outcome dropped` : ''}`
        : `${loaded.dropped} rows dropped for a missing value in a column the audit uses (rows missing each: ${by}); columns it does not use are not looked at`,
    );
  }

  // Set the recorded column aside.
  let ds: Dataset = loaded.dataset;
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
  const rawX = ds.x;

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
  return { dataset: ds, modelSchema, rawX, binned, recorded, notes, rowsRead, filter };
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
