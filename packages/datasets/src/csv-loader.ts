import { existsSync } from 'node:fs';
import {
  type Attribute,
  type AttributeKind,
  createDataset,
  DataError,
  InteropError,
  OptionsError,
  parseDecimal,
  resolveOptions,
  SchemaError,
} from '@fb/core';
import { type LoadedDataset, withMetadata } from './columns.js';
import { parseDelimited } from './delimited.js';
import { CSV_OPTIONS, CSV_SCHEMA } from './options.js';
import { gunzipIfGzip, readFileBytes, sha256 } from './source-file.js';

/** What the caller declares about a CSV; everything else is inferred. */
export interface CsvSchema {
  /** The outcome column. */
  outcome: string;
  /** Label (cell text) of the favourable outcome. */
  favorable: string;
  /** Protected columns (at least one). */
  protected: readonly string[];
  /** Attribute columns, in order. Default: every column except the outcome. */
  columns?: readonly string[];
  /** Kind per column; inferred when absent. */
  kinds?: Readonly<Record<string, AttributeKind>>;
  /** Category order per column (required order of an ordinal text column). Default: sorted values. */
  categories?: Readonly<Record<string, readonly string[]>>;
}

export interface CsvOptions {
  /** Rows with a missing cell: `error` (default), `drop` them, or `mode`: fill with the column's most frequent value. A missing outcome is never imputed: with `mode` such rows are dropped. */
  missing?: 'drop' | 'error' | 'mode';
  /** Cell delimiter. Default: detected from the header line (`,`, `;` or tab). */
  delimiter?: string;
  /** Cell texts read as missing. Default `''`, `?`, `NA`, `N/A`, `NaN`, `null`. */
  missingTokens?: readonly string[];
  /** Integer columns with at most this many distinct values are inferred ordinal, others continuous. Default 50. */
  maxOrdinalLevels?: number;
  name?: string;
}

const DEFAULT_MISSING = ['', '?', 'NA', 'N/A', 'NaN', 'null'];

function detectDelimiter(text: string): string {
  const first = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((c) => [c, first.split(c).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]![1] > 0 ? counts[0]![0] : ',';
}

/** CSV text, or a path to a (possibly gzipped) CSV file: a string holding a line break is text. */
function readSource(source: string): { text: string; origin: string } {
  if (/[\r\n]/.test(source)) return { text: source, origin: 'text' };
  if (!existsSync(source)) {
    throw new InteropError(
      'INTEROP_PARSE',
      `no CSV file at ${source} (a CSV given as text must hold a line break)`,
      {
        reason: 'not-found',
        file: source,
      },
    );
  }
  const bytes = gunzipIfGzip(readFileBytes(source), source);
  return { text: bytes.toString('utf8').replace(/^\uFEFF/, ''), origin: source };
}

/**
 * Load any CSV as a `Dataset`: the declared outcome, favourable label and protected columns, kinds
 * inferred per column (text -> categorical; integers with few levels -> ordinal; other numbers ->
 * continuous with the observed range), a missing-value policy, and errors naming the column and line.
 */
export function loadCsv(source: string, schema: CsvSchema, given: CsvOptions = {}): LoadedDataset {
  if (typeof source !== 'string') {
    throw new OptionsError('OPTIONS_INVALID', 'the CSV source must be a path or CSV text', {
      option: '/source',
    });
  }
  const declared = resolveOptions<CsvSchema>(CSV_SCHEMA, schema);
  const options = resolveOptions<CsvOptions>(CSV_OPTIONS, given);
  const policy = options.missing ?? 'error';
  // Own entries only: a column named `constructor` must not find Object.prototype's.
  const own = <T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined =>
    table && Object.hasOwn(table, key) ? table[key] : undefined;
  const { text, origin } = readSource(source);
  const records = parseDelimited(text, options.delimiter ?? detectDelimiter(text));
  if (records.length === 0) throw new InteropError('INTEROP_PARSE', 'the CSV has no header line');
  const [header, ...rows] = records as [string[], ...string[][]];
  const trimmedHeader = header.map((h) => h.trim());
  const position = (name: string, what: string): number => {
    const i = trimmedHeader.indexOf(name);
    if (i < 0) {
      throw new SchemaError(
        'SCHEMA_INVALID',
        `${what} "${name}" is not a column of the CSV (columns: ${trimmedHeader.join(', ')})`,
        {
          attribute: name,
        },
      );
    }
    return i;
  };
  const outcomeAt = position(declared.outcome, 'outcome');
  const columns = declared.columns ?? trimmedHeader.filter((h) => h !== declared.outcome);
  const at = columns.map((c) => position(c, 'column'));
  for (const p of declared.protected) {
    position(p, 'protected column');
    if (!columns.includes(p)) {
      throw new SchemaError('SCHEMA_INVALID', `protected column "${p}" is not among the attribute columns`, {
        attribute: p,
      });
    }
  }
  for (const k of Object.keys(declared.kinds ?? {})) position(k, 'kinds entry');
  const missing = new Set(options.missingTokens ?? DEFAULT_MISSING);
  const isMissing = (cell: string) => missing.has(cell.trim());
  rows.forEach((row, r) => {
    if (row.length !== header.length) {
      throw new DataError(
        'DATA_SHAPE',
        `CSV line ${r + 2} has ${row.length} cells, the header has ${header.length}`,
        { row: r + 2 },
      );
    }
  });

  // Missing-value policy, row by row (the outcome is never imputed).
  const kept: string[][] = [];
  let droppedMissing = 0;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const gapAt = [outcomeAt, ...at].find((i) => isMissing(row[i]!));
    if (gapAt === undefined) kept.push(row);
    else if (policy === 'error') {
      throw new DataError(
        'DATA_NOT_FINITE',
        `CSV line ${r + 2}, column "${trimmedHeader[gapAt]}": missing value "${row[gapAt]}" (set missing to drop or mode)`,
        {
          attribute: trimmedHeader[gapAt]!,
          row: r + 2,
        },
      );
    } else if (policy === 'drop' || isMissing(row[outcomeAt]!)) droppedMissing++;
    else kept.push(row);
  }
  if (kept.length === 0)
    throw new DataError('DATA_EMPTY', 'no CSV row is left after the missing-value policy');
  let imputed = 0;
  if (policy === 'mode') {
    for (const i of at) {
      const counts = new Map<string, number>();
      for (const row of kept)
        if (!isMissing(row[i]!)) counts.set(row[i]!.trim(), (counts.get(row[i]!.trim()) ?? 0) + 1);
      if (counts.size === 0) {
        throw new DataError('DATA_EMPTY', `column "${trimmedHeader[i]}" has no value to impute from`, {
          attribute: trimmedHeader[i]!,
        });
      }
      const mode = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
      for (const row of kept)
        if (isMissing(row[i]!)) {
          row[i] = mode;
          imputed++;
        }
    }
  }

  const maxLevels = options.maxOrdinalLevels ?? 50;
  const encodings: string[] = [];
  const attributes: Attribute[] = columns.map((name, c) => {
    const i = at[c]!;
    const cells = kept.map((row) => row[i]!.trim());
    const numbers = cells.map(parseDecimal);
    const numeric = numbers.every(Number.isFinite);
    const isProtected = declared.protected.includes(name);
    const declaredKind = own(declared.kinds, name);
    const order = own(declared.categories, name);
    let kind: AttributeKind = declaredKind ?? 'categorical';
    if (!declaredKind && numeric) {
      const levels = new Set(numbers).size;
      kind = numbers.every(Number.isInteger) && levels <= maxLevels ? 'ordinal' : 'continuous';
    }
    if (kind !== 'categorical' && !numeric && !order) {
      throw new SchemaError(
        'SCHEMA_BAD_DOMAIN',
        `column "${name}" is declared ${kind} but holds text (give its category order in categories)`,
        {
          attribute: name,
        },
      );
    }
    if (kind === 'categorical' || order || !numeric) {
      const categories = order
        ? [...order]
        : [...new Set(cells)].sort(numeric ? (a, b) => parseDecimal(a) - parseDecimal(b) : undefined);
      encodings.push(`${name}: ${kind} [${categories.join(', ')}]`);
      return { name, kind, protected: isProtected, categories };
    }
    let lo = Infinity;
    let hi = -Infinity;
    for (const v of numbers) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (kind === 'ordinal' && !numbers.every(Number.isInteger)) {
      throw new SchemaError(
        'SCHEMA_BAD_DOMAIN',
        `column "${name}" is declared ordinal but holds non-integer numbers`,
        { attribute: name },
      );
    }
    encodings.push(`${name}: ${kind} [${lo}, ${hi}]`);
    return { name, kind, protected: isProtected, min: lo, max: hi };
  });

  const labels = [...new Set(kept.map((row) => row[outcomeAt]!.trim()))].sort();
  const favorable = labels.indexOf(declared.favorable);
  if (favorable < 0) {
    throw new SchemaError(
      'SCHEMA_INVALID',
      `favourable label "${declared.favorable}" does not occur in outcome "${declared.outcome}" (labels: ${labels.join(', ')})`,
      {
        attribute: declared.outcome,
      },
    );
  }
  if (labels.length < 2) {
    throw new DataError(
      'DATA_SINGLE_CLASS',
      `outcome "${declared.outcome}" has the single label "${labels[0]}"`,
      {
        attribute: declared.outcome,
      },
    );
  }
  const d = attributes.length;
  const x = new Float64Array(kept.length * d);
  const y = new Int32Array(kept.length);
  const codeMaps = attributes.map((a) => (a.categories ? new Map(a.categories.map((v, k) => [v, k])) : null));
  const labelCode = new Map(labels.map((l, k) => [l, k]));
  for (let r = 0; r < kept.length; r++) {
    const row = kept[r]!;
    for (let c = 0; c < d; c++) {
      const cell = row[at[c]!]!.trim();
      const codes = codeMaps[c];
      if (codes) {
        const code = codes.get(cell);
        if (code === undefined) {
          throw new DataError(
            'DATA_UNKNOWN_CATEGORY',
            `column "${columns[c]}": value "${cell}" is not in its declared categories`,
            {
              attribute: columns[c]!,
            },
          );
        }
        x[r * d + c] = code;
      } else x[r * d + c] = parseDecimal(cell);
    }
    y[r] = labelCode.get(row[outcomeAt]!.trim())!;
  }
  const ds = createDataset({
    schema: { attributes, outcome: { name: declared.outcome, labels, favorable } },
    x,
    y,
    ...(options.name !== undefined ? { name: options.name } : {}),
  });
  return withMetadata(ds, {
    source: [
      {
        file: origin,
        path: origin,
        sha256: sha256(Buffer.from(text)),
        origin: origin === 'text' ? 'text' : 'file',
      },
    ],
    citation: '',
    rowsRead: rows.length,
    rowsDropped:
      policy === 'mode' ? { 'missing outcome': droppedMissing } : { 'missing value': droppedMissing },
    protected: [...declared.protected],
    encoding: [
      ...encodings,
      `outcome ${declared.outcome}: labels [${labels.join(', ')}], favourable "${declared.favorable}"`,
      ...(imputed > 0 ? [`${imputed} missing cells imputed with the column mode`] : []),
    ],
  });
}
