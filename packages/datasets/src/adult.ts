import {
  type Attribute,
  createDataset,
  DataError,
  OptionsError,
  resolveOptions,
  type Schema,
} from '@fb/core';
import { categoryCoder, type LoadedDataset, numberCell, withMetadata } from './columns.js';
import { ADULT_OPTIONS } from './options.js';
import { type ResolvedSource, resolveSource, type SourceOptions } from './source-file.js';
import { SOURCES } from './sources.js';

export interface AdultOptions extends SourceOptions {
  /** `train` reads adult.data (32,561 rows), `test` reads adult.test (16,281 rows). Default `train`. */
  split?: 'train' | 'test';
  /** Rows with `?`: `drop` them (default) or `keep` them with `?` as a category of its own. */
  missing?: 'drop' | 'keep';
  /**
   * The protected attributes (default `['race', 'sex']`, as AIF360's Adult loader). `age` (a domain of 74
   * years, 17..90) may be added; every counterfactual test then varies it too (74 × 5 × 2 = 740 variants per
   * sample instead of 10).
   */
  protected?: readonly AdultAttribute[];
}

/** The attribute columns of Adult (every column but `income`). */
export type AdultAttribute = Exclude<(typeof ADULT_COLUMNS)[number], 'income'>;

/** The protected attributes of `loadAdult` unless `protected` says otherwise. */
export const ADULT_PROTECTED: readonly AdultAttribute[] = ['race', 'sex'];

/** Category lists in the order of adult.names (the literature's encodings index into this order). */
export const ADULT_CATEGORIES = {
  workclass: [
    'Private',
    'Self-emp-not-inc',
    'Self-emp-inc',
    'Federal-gov',
    'Local-gov',
    'State-gov',
    'Without-pay',
    'Never-worked',
  ],
  education: [
    'Bachelors',
    'Some-college',
    '11th',
    'HS-grad',
    'Prof-school',
    'Assoc-acdm',
    'Assoc-voc',
    '9th',
    '7th-8th',
    '12th',
    'Masters',
    '1st-4th',
    '10th',
    'Doctorate',
    '5th-6th',
    'Preschool',
  ],
  'marital-status': [
    'Married-civ-spouse',
    'Divorced',
    'Never-married',
    'Separated',
    'Widowed',
    'Married-spouse-absent',
    'Married-AF-spouse',
  ],
  occupation: [
    'Tech-support',
    'Craft-repair',
    'Other-service',
    'Sales',
    'Exec-managerial',
    'Prof-specialty',
    'Handlers-cleaners',
    'Machine-op-inspct',
    'Adm-clerical',
    'Farming-fishing',
    'Transport-moving',
    'Priv-house-serv',
    'Protective-serv',
    'Armed-Forces',
  ],
  relationship: ['Wife', 'Own-child', 'Husband', 'Not-in-family', 'Other-relative', 'Unmarried'],
  race: ['White', 'Asian-Pac-Islander', 'Amer-Indian-Eskimo', 'Other', 'Black'],
  sex: ['Female', 'Male'],
  'native-country': [
    'United-States',
    'Cambodia',
    'England',
    'Puerto-Rico',
    'Canada',
    'Germany',
    'Outlying-US(Guam-USVI-etc)',
    'India',
    'Japan',
    'Greece',
    'South',
    'China',
    'Cuba',
    'Iran',
    'Honduras',
    'Philippines',
    'Italy',
    'Poland',
    'Jamaica',
    'Vietnam',
    'Mexico',
    'Portugal',
    'Ireland',
    'France',
    'Dominican-Republic',
    'Laos',
    'Ecuador',
    'Taiwan',
    'Haiti',
    'Columbia',
    'Hungary',
    'Guatemala',
    'Nicaragua',
    'Scotland',
    'Thailand',
    'Yugoslavia',
    'El-Salvador',
    'Trinadad&Tobago',
    'Peru',
    'Hong',
    'Holand-Netherlands',
  ],
} as const;

export const ADULT_COLUMNS = [
  'age',
  'workclass',
  'fnlwgt',
  'education',
  'education-num',
  'marital-status',
  'occupation',
  'relationship',
  'race',
  'sex',
  'capital-gain',
  'capital-loss',
  'hours-per-week',
  'native-country',
  'income',
] as const;

export const ADULT_CITATION =
  'Becker, B. & Kohavi, R. (1996). Adult [Dataset]. UCI Machine Learning Repository. https://doi.org/10.24432/C5XW20';

/** One Adult split, read: its records to visit, and an upper bound on their number. */
export interface AdultRecords {
  resolved: ResolvedSource;
  /** At least the number of records (the file's line count). */
  capacity: number;
  /**
   * Visit each record in file order, its 15 cells trimmed, with its line number: `, `-separated,
   * `|1x3 Cross validator` skipped, label dots removed. Returns the number of records. A record is built
   * and visited one at a time, not collected with the others first: collected, the records outlived
   * their young generation, and after loading the train and test files the next two young collections
   * took 16 and 9 ms (1 ms each when visited), paid by whatever allocated next, such as a process's
   * first model fit.
   */
  forEach(visit: (cells: string[], line: number) => void): number;
}

/** The records of one Adult split (see `AdultRecords`). */
export async function readAdultRecords(
  split: 'train' | 'test',
  options: SourceOptions,
): Promise<AdultRecords> {
  const resolved = await resolveSource(split === 'test' ? SOURCES.adultTest : SOURCES.adultTrain, options);
  const { text } = resolved;
  let capacity = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) capacity++;
  const forEach = (visit: (cells: string[], line: number) => void): number => {
    let count = 0;
    for (let start = 0, i = 0; start <= text.length; i++) {
      const end = text.indexOf('\n', start);
      const line = text.slice(start, end < 0 ? text.length : end).trim();
      start = end < 0 ? text.length + 1 : end + 1;
      if (line === '' || line.startsWith('|')) continue;
      const cells = line.split(',').map((c) => c.trim());
      if (cells.length !== 15) {
        throw new DataError(
          'DATA_SHAPE',
          `${resolved.path} line ${i + 1}: ${cells.length} fields, Adult has 15`,
          { row: i + 1 },
        );
      }
      cells[14] = cells[14]!.replace(/\.$/, '');
      visit(cells, i + 1);
      count++;
    }
    return count;
  };
  return { resolved, capacity, forEach };
}

/**
 * UCI Adult (census income), train or test file. Protected: race and sex, or the attributes listed in
 * `protected` (e.g. `['age', 'race', 'sex']`). Outcome `income`: `<=50K` = 0, `>50K` = 1 (favourable).
 */
export async function loadAdult(given: AdultOptions = {}): Promise<LoadedDataset> {
  const options = resolveOptions<AdultOptions>(ADULT_OPTIONS, given);
  const split = options.split ?? 'train';
  const keepMissing = options.missing === 'keep';
  const protectedNames = new Set<string>(options.protected ?? ADULT_PROTECTED);
  const unknown = [...protectedNames].filter((name) => !ADULT_COLUMNS.slice(0, 14).includes(name as never));
  if (unknown.length > 0) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `protected: ${unknown.map((u) => `"${u}"`).join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not an Adult attribute (${ADULT_COLUMNS.slice(0, 14).join(', ')})`,
      { option: '/protected' },
    );
  }
  const { resolved, capacity, forEach } = await readAdultRecords(split, options);
  // With `missing: 'keep'`, every categorical column but race and sex gets `?` as its last category
  // (whichever attributes are protected, so that the encoding does not depend on that choice).
  const withMissing = (name: string) => name !== 'race' && name !== 'sex';
  const cat = (name: keyof typeof ADULT_CATEGORIES): Attribute => ({
    name,
    kind: 'categorical',
    protected: false,
    categories:
      keepMissing && withMissing(name) ? [...ADULT_CATEGORIES[name], '?'] : [...ADULT_CATEGORIES[name]],
  });
  const columns: Attribute[] = [
    { name: 'age', kind: 'ordinal', protected: false, min: 17, max: 90 },
    cat('workclass'),
    { name: 'fnlwgt', kind: 'continuous', protected: false, min: 0, max: 1_500_000 },
    cat('education'),
    { name: 'education-num', kind: 'ordinal', protected: false, min: 1, max: 16 },
    cat('marital-status'),
    cat('occupation'),
    cat('relationship'),
    cat('race'),
    cat('sex'),
    { name: 'capital-gain', kind: 'continuous', protected: false, min: 0, max: 99_999 },
    { name: 'capital-loss', kind: 'continuous', protected: false, min: 0, max: 4_356 },
    { name: 'hours-per-week', kind: 'ordinal', protected: false, min: 1, max: 99 },
    cat('native-country'),
  ];
  const attributes = columns.map((a) => ({ ...a, protected: protectedNames.has(a.name) }));
  const schema: Schema = { attributes, outcome: { name: 'income', labels: ['<=50K', '>50K'], favorable: 1 } };
  const d = attributes.length;
  const coders = attributes.map((a) => (a.categories ? categoryCoder(a.name, a.categories) : null));
  const income = categoryCoder('income', schema.outcome.labels);
  const x = new Float64Array(capacity * d);
  const y = new Int32Array(capacity);
  let n = 0;
  let dropped = 0;
  const read = forEach((cells, line) => {
    if (!keepMissing && cells.includes('?')) {
      dropped++;
      return;
    }
    for (let j = 0; j < d; j++) {
      const coder = coders[j];
      x[n * d + j] = coder ? coder(cells[j]!, line) : numberCell(ADULT_COLUMNS[j]!, cells[j]!, line);
    }
    y[n] = income(cells[14]!, line);
    n++;
  });
  const ds = createDataset({ schema, x: x.slice(0, n * d), y: y.slice(0, n), name: `adult-${split}` });
  return withMetadata(ds, {
    source: [{ file: SOURCES[split === 'test' ? 'adultTest' : 'adultTrain'].file, ...pick(resolved) }],
    citation: ADULT_CITATION,
    rowsRead: read,
    rowsDropped: keepMissing ? {} : { 'missing value (?)': dropped },
    protected: attributes.filter((a) => a.protected).map((a) => a.name),
    encoding: [
      'categories coded in the order of adult.names',
      keepMissing
        ? '`?` kept as the last category of workclass, occupation, native-country'
        : 'rows with `?` dropped',
      'test-file labels lose their trailing period',
      'income: <=50K = 0, >50K = 1 (favourable)',
    ],
  });
}

export function pick(r: ResolvedSource): { path: string; sha256: string; origin: string } {
  return { path: r.path, sha256: r.sha256, origin: r.origin };
}
