import { type Attribute, createDataset, DataError, resolveOptions, type Schema } from '@fb/core';
import { pick } from './adult.js';
import { categoryCoder, type LoadedDataset, numberCell, withMetadata } from './columns.js';
import { SOURCE_OPTIONS } from './options.js';
import { type ResolvedSource, resolveSource, type SourceOptions } from './source-file.js';
import { SOURCES } from './sources.js';

export const GERMAN_CITATION =
  'Hofmann, H. (1994). Statlog (German Credit Data) [Dataset]. UCI Machine Learning Repository. https://doi.org/10.24432/C5NC77';

/** The 21 space-separated fields of german.data, with their line numbers. */
export async function readGermanRecords(
  options: SourceOptions,
): Promise<{ records: string[][]; lines: number[]; resolved: ResolvedSource }> {
  const resolved = await resolveSource(SOURCES.german, options);
  const records: string[][] = [];
  const lines: number[] = [];
  const text = resolved.text.split('\n');
  for (let i = 0; i < text.length; i++) {
    const line = text[i]!.trim();
    if (line === '') continue;
    const cells = line.split(/\s+/);
    if (cells.length !== 21) {
      throw new DataError(
        'DATA_SHAPE',
        `${resolved.path} line ${i + 1}: ${cells.length} fields, german.data has 21`,
        {
          row: i + 1,
        },
      );
    }
    records.push(cells);
    lines.push(i + 1);
  }
  return { records, lines, resolved };
}

/** `A11`..`A14`-style codes of one attribute, in order. */
export function germanCodes(attr: number, count: number, first = 0): string[] {
  return Array.from({ length: count }, (_, i) => `A${attr}${first + i}`);
}

/** A9 codes of women (A95 never occurs in the file). */
export const GERMAN_FEMALE = new Set(['A92', 'A95']);

/**
 * Statlog German credit (german.data, 1,000 rows). Protected: `sex` derived from A9 personal status
 * (A92/A95 female, A91/A93/A94 male; A9 itself is dropped because it also encodes marital status),
 * `age` in years (19..75) and `foreign_worker`. Outcome `credit`: bad = 0, good = 1 (favourable).
 */
export async function loadGerman(given: SourceOptions = {}): Promise<LoadedDataset> {
  const options = resolveOptions<SourceOptions>(SOURCE_OPTIONS, given);
  const { records, lines, resolved } = await readGermanRecords(options);
  const cat = (name: string, categories: string[], isProtected = false): Attribute => ({
    name,
    kind: 'categorical',
    protected: isProtected,
    categories,
  });
  const ord = (name: string, min: number, max: number, isProtected = false): Attribute => ({
    name,
    kind: 'ordinal',
    protected: isProtected,
    min,
    max,
  });
  // Attribute j is field j of german.data; `sex` (j = 8) is derived from A9.
  const attributes: Attribute[] = [
    cat('checking_status', germanCodes(1, 4, 1)),
    ord('duration', 4, 72),
    cat('credit_history', germanCodes(3, 5)),
    cat('purpose', [...germanCodes(4, 10), 'A410']),
    { name: 'credit_amount', kind: 'continuous', protected: false, min: 250, max: 18_424 },
    cat('savings_status', germanCodes(6, 5, 1)),
    cat('employment', germanCodes(7, 5, 1)),
    ord('installment_rate', 1, 4),
    cat('sex', ['female', 'male'], true),
    cat('other_debtors', germanCodes(10, 3, 1)),
    ord('residence_since', 1, 4),
    cat('property', germanCodes(12, 4, 1)),
    ord('age', 19, 75, true),
    cat('other_installment_plans', germanCodes(14, 3, 1)),
    cat('housing', germanCodes(15, 3, 1)),
    ord('existing_credits', 1, 4),
    cat('job', germanCodes(17, 4, 1)),
    ord('num_dependents', 1, 2),
    cat('telephone', germanCodes(19, 2, 1)),
    cat('foreign_worker', ['A201', 'A202'], true),
  ];
  const schema: Schema = { attributes, outcome: { name: 'credit', labels: ['bad', 'good'], favorable: 1 } };
  const d = attributes.length;
  const coders = attributes.map((a, j) =>
    a.categories && j !== 8 ? categoryCoder(a.name, a.categories) : null,
  );
  const personal = categoryCoder('personal_status', germanCodes(9, 5, 1));
  const x = new Float64Array(records.length * d);
  const y = new Int32Array(records.length);
  for (let r = 0; r < records.length; r++) {
    const cells = records[r]!;
    const line = lines[r]!;
    for (let j = 0; j < d; j++) {
      const cell = cells[j]!;
      if (j === 8) {
        personal(cell, line);
        x[r * d + j] = GERMAN_FEMALE.has(cell) ? 0 : 1;
      } else {
        const coder = coders[j];
        x[r * d + j] = coder ? coder(cell, line) : numberCell(attributes[j]!.name, cell, line);
      }
    }
    const label = cells[20];
    if (label !== '1' && label !== '2') {
      throw new DataError(
        'DATA_UNKNOWN_CATEGORY',
        `line ${line}: class "${label}" is neither 1 (good) nor 2 (bad)`,
        {
          attribute: 'credit',
          row: line,
        },
      );
    }
    y[r] = label === '1' ? 1 : 0;
  }
  const ds = createDataset({ schema, x, y, name: 'german-credit' });
  return withMetadata(ds, {
    source: [{ file: SOURCES.german.file, ...pick(resolved) }],
    citation: GERMAN_CITATION,
    rowsRead: records.length,
    rowsDropped: {},
    protected: ['sex', 'age', 'foreign_worker'],
    encoding: [
      'categorical attributes keep their A-codes (see german.doc)',
      'sex derived from A9: A92, A95 female (0); A91, A93, A94 male (1); A9 dropped',
      'credit: class 2 (bad) = 0, class 1 (good) = 1 (favourable)',
    ],
  });
}
