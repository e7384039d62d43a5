import { type Attribute, createDataset, DataError, resolveOptions, type Schema } from '@fb/core';
import { pick } from './adult.js';
import { categoryCoder, type LoadedDataset, numberCell, withMetadata } from './columns.js';
import { headerIndex, parseDelimited } from './delimited.js';
import { SOURCE_OPTIONS } from './options.js';
import { type ResolvedSource, resolveSource, type SourceOptions } from './source-file.js';
import { SOURCES } from './sources.js';

export const BANK_CITATION =
  'Moro, S., Rita, P. & Cortez, P. (2012). Bank Marketing [Dataset]. UCI Machine Learning Repository. https://doi.org/10.24432/C5K306';

/** Category lists in the order of bank-names.txt (the literature's encoding indexes into it). */
export const BANK_CATEGORIES = {
  job: [
    'admin.',
    'unknown',
    'unemployed',
    'management',
    'housemaid',
    'entrepreneur',
    'student',
    'blue-collar',
    'self-employed',
    'retired',
    'technician',
    'services',
  ],
  marital: ['married', 'divorced', 'single'],
  education: ['unknown', 'secondary', 'primary', 'tertiary'],
  default: ['no', 'yes'],
  housing: ['no', 'yes'],
  loan: ['no', 'yes'],
  contact: ['unknown', 'telephone', 'cellular'],
  month: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  poutcome: ['unknown', 'other', 'failure', 'success'],
} as const;

export const BANK_COLUMNS = [
  'age',
  'job',
  'marital',
  'education',
  'default',
  'balance',
  'housing',
  'loan',
  'contact',
  'day',
  'month',
  'duration',
  'campaign',
  'pdays',
  'previous',
  'poutcome',
] as const;

/** The records of bank-full.csv (`;`-separated, quoted strings), as cells in BANK_COLUMNS order plus `y`. */
export async function readBankRecords(
  options: SourceOptions,
): Promise<{ records: string[][]; resolved: ResolvedSource }> {
  const resolved = await resolveSource(SOURCES.bank, options);
  const [header, ...rows] = parseDelimited(resolved.text, ';');
  const index = headerIndex(header ?? []);
  const order = [...BANK_COLUMNS, 'y'].map((c) => {
    const i = index.get(c);
    if (i === undefined) {
      throw new DataError('DATA_MISSING_COLUMN', `${resolved.path}: no column "${c}"`, { attribute: c });
    }
    return i;
  });
  const records = rows.map((row, r) => {
    if (row.length !== header!.length) {
      throw new DataError(
        'DATA_SHAPE',
        `${resolved.path} line ${r + 2}: ${row.length} fields, the header has ${header!.length}`,
        {
          row: r + 2,
        },
      );
    }
    return order.map((i) => row[i]!);
  });
  return { records, resolved };
}

/**
 * Bank marketing (bank-full.csv, 45,211 rows). Protected: `age` in years (18..95) and `marital`.
 * Outcome `y`: no = 0, yes = 1 (favourable: the client subscribed a term deposit).
 */
export async function loadBank(given: SourceOptions = {}): Promise<LoadedDataset> {
  const options = resolveOptions<SourceOptions>(SOURCE_OPTIONS, given);
  const { records, resolved } = await readBankRecords(options);
  const cat = (name: keyof typeof BANK_CATEGORIES, isProtected = false): Attribute => ({
    name,
    kind: 'categorical',
    protected: isProtected,
    categories: [...BANK_CATEGORIES[name]],
  });
  const num = (name: string, min: number, max: number, isProtected = false): Attribute => ({
    name,
    kind: 'ordinal',
    protected: isProtected,
    min,
    max,
  });
  const attributes: Attribute[] = [
    num('age', 18, 95, true),
    cat('job'),
    cat('marital', true),
    cat('education'),
    cat('default'),
    { name: 'balance', kind: 'continuous', protected: false, min: -8_019, max: 102_127 },
    cat('housing'),
    cat('loan'),
    cat('contact'),
    num('day', 1, 31),
    cat('month'),
    { name: 'duration', kind: 'continuous', protected: false, min: 0, max: 4_918 },
    num('campaign', 1, 63),
    { name: 'pdays', kind: 'continuous', protected: false, min: -1, max: 871 },
    { name: 'previous', kind: 'continuous', protected: false, min: 0, max: 275 },
    cat('poutcome'),
  ];
  const schema: Schema = { attributes, outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 } };
  const d = attributes.length;
  const coders = attributes.map((a) => (a.categories ? categoryCoder(a.name, a.categories) : null));
  const label = categoryCoder('y', schema.outcome.labels);
  const x = new Float64Array(records.length * d);
  const y = new Int32Array(records.length);
  for (let r = 0; r < records.length; r++) {
    const cells = records[r]!;
    for (let j = 0; j < d; j++) {
      const coder = coders[j];
      x[r * d + j] = coder ? coder(cells[j]!, r + 2) : numberCell(BANK_COLUMNS[j]!, cells[j]!, r + 2);
    }
    y[r] = label(cells[16]!, r + 2);
  }
  const ds = createDataset({ schema, x, y, name: 'bank-marketing' });
  return withMetadata(ds, {
    source: [{ file: SOURCES.bank.file, ...pick(resolved) }],
    citation: BANK_CITATION,
    rowsRead: records.length,
    rowsDropped: {},
    protected: ['age', 'marital'],
    encoding: [
      'categories coded in the order of bank-names.txt; binary yes/no columns as no = 0, yes = 1',
      '`unknown` is a regular category; duration is kept (known only after the call: benchmark use only)',
      'y: no = 0, yes = 1 (favourable)',
    ],
  });
}
