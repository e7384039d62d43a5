import { type Attribute, createDataset, resolveOptions, type Schema } from '@fb/core';
import { ADULT_CATEGORIES, ADULT_CITATION, type AdultOptions, pick, readAdultRecords } from './adult.js';
import { BANK_CATEGORIES, BANK_CITATION, readBankRecords } from './bank.js';
import { categoryCoder, type LoadedDataset, numberCell, withMetadata } from './columns.js';
import { GERMAN_CITATION, GERMAN_FEMALE, germanCodes, readGermanRecords } from './german.js';
import { CENSUS13_OPTIONS, SOURCE_OPTIONS } from './options.js';
import type { SourceOptions } from './source-file.js';
import { SOURCES } from './sources.js';

/**
 * The encodings shared by the fairness-testing literature (the 13-attribute census file of AEQUITAS,
 * ADF, NeuronFair, ExpGA and LIMI, and the credit and bank files of ADF and its successors), rebuilt
 * from the original files with the input bounds of `adf_utils/config.py`.
 */

export interface Census13Options extends Omit<AdultOptions, 'missing'> {
  /**
   * Rows with a value outside the declared bounds (missing workclass, occupation or native-country,
   * coded 100 in the literature's file; fnlwgt bin > 39; capital-loss bin > 39; Holand-Netherlands):
   * `drop` them (default) or `clip` every value into its bounds.
   */
  outOfBounds?: 'drop' | 'clip';
}

/** The literature's code for a missing category in the census file. */
const MISSING_CODE = 100;

const cat = (name: string, categories: readonly string[], isProtected = false): Attribute => ({
  name,
  kind: 'categorical',
  protected: isProtected,
  categories: [...categories],
});
const grid = (name: string, min: number, max: number, isProtected = false): Attribute => ({
  name,
  kind: 'ordinal',
  protected: isProtected,
  min,
  max,
});

/**
 * Adult in the 13-attribute census encoding (no education-num). Bins: age = floor(age / 10) in [1, 9];
 * fnlwgt = floor(fnlwgt / 20000) in [0, 39]; capital_gain = floor(gain / 1000) in [0, 99];
 * capital_loss = floor(loss / 100) in [0, 39]; hours_per_week as is in [0, 99]; categories coded in
 * the order of adult.names, native_country bounded to [0, 39]. Protected: age, race, sex
 * (0 = Female, 1 = Male). Outcome income > 50K = 1.
 */
export async function loadCensus13(given: Census13Options = {}): Promise<LoadedDataset> {
  const options = resolveOptions<Census13Options>(CENSUS13_OPTIONS, given);
  const split = options.split ?? 'train';
  const clip = options.outOfBounds === 'clip';
  const { resolved, capacity, forEach } = await readAdultRecords(split, options);
  const A = ADULT_CATEGORIES;
  const attributes: Attribute[] = [
    grid('age', 1, 9, true),
    cat('workclass', A.workclass),
    grid('fnlwgt', 0, 39),
    cat('education', A.education),
    cat('marital_status', A['marital-status']),
    cat('occupation', A.occupation),
    cat('relationship', A.relationship),
    cat('race', A.race, true),
    cat('sex', A.sex, true),
    grid('capital_gain', 0, 99),
    grid('capital_loss', 0, 39),
    grid('hours_per_week', 0, 99),
    cat('native_country', A['native-country'].slice(0, 40)),
  ];
  // Source column (adult.data order) and rule of each attribute.
  const rules: [number, (cell: string, line: number) => number][] = [
    [0, (c, l) => Math.floor(numberCell('age', c, l) / 10)],
    [1, coded('workclass', A.workclass)],
    [2, (c, l) => Math.floor(numberCell('fnlwgt', c, l) / 20000)],
    [3, coded('education', A.education)],
    [5, coded('marital-status', A['marital-status'])],
    [6, coded('occupation', A.occupation)],
    [7, coded('relationship', A.relationship)],
    [8, coded('race', A.race)],
    [9, coded('sex', A.sex)],
    [10, (c, l) => Math.floor(numberCell('capital-gain', c, l) / 1000)],
    [11, (c, l) => Math.floor(numberCell('capital-loss', c, l) / 100)],
    [12, (c, l) => numberCell('hours-per-week', c, l)],
    [13, coded('native-country', A['native-country'])],
  ];
  const bounds = attributes.map(
    (a) => (a.categories ? [0, a.categories.length - 1] : [a.min!, a.max!]) as [number, number],
  );
  const d = attributes.length;
  const x = new Float64Array(capacity * d);
  const y = new Int32Array(capacity);
  const income = categoryCoder('income', ['<=50K', '>50K']);
  let n = 0;
  let outside = 0;
  const read = forEach((cells, line) => {
    let inBounds = true;
    for (let j = 0; j < d; j++) {
      const [col, rule] = rules[j]!;
      let v = rule(cells[col]!, line);
      const [lo, hi] = bounds[j]!;
      if (v < lo || v > hi) {
        inBounds = false;
        v = Math.min(Math.max(v, lo), hi);
      }
      x[n * d + j] = v;
    }
    if (!inBounds) {
      outside++;
      if (!clip) return;
    }
    y[n] = income(cells[14]!, line);
    n++;
  });
  const ds = createDataset({
    schema: schemaOf(attributes, 'income', ['<=50K', '>50K'], 1),
    x: x.slice(0, n * d),
    y: y.slice(0, n),
    name: `census13-${split}`,
  });
  return withMetadata(ds, {
    source: [{ file: SOURCES[split === 'test' ? 'adultTest' : 'adultTrain'].file, ...pick(resolved) }],
    citation: `${ADULT_CITATION}; encoding of sakshiudeshi/Aequitas and pxzhang94/ADF (census, 13 attributes)`,
    rowsRead: read,
    rowsDropped: clip ? {} : { 'outside the declared bounds': outside },
    protected: ['age', 'race', 'sex'],
    encoding: [
      'age = floor(age / 10), bounds [1, 9]',
      'fnlwgt = floor(fnlwgt / 20000), bounds [0, 39]',
      'capital_gain = floor(capital-gain / 1000), bounds [0, 99]; capital_loss = floor(capital-loss / 100), bounds [0, 39]',
      'hours_per_week as is, bounds [0, 99]; education-num dropped',
      'categories coded in the order of adult.names; missing (`?`, code 100 in the literature file) is out of bounds',
      clip
        ? `${outside} rows outside the bounds clipped into them`
        : `${outside} rows outside the bounds dropped`,
      'sex: Female = 0, Male = 1; income >50K = 1 (favourable)',
    ],
  });
}

/** Category code with the literature's 100 for `?`. */
function coded(column: string, categories: readonly string[]): (cell: string, line: number) => number {
  const code = categoryCoder(column, categories);
  return (cell, line) => (cell === '?' ? MISSING_CODE : code(cell, line));
}

function schemaOf(attributes: Attribute[], outcome: string, labels: string[], favorable: number): Schema {
  return { attributes, outcome: { name: outcome, labels, favorable } };
}

/**
 * German credit in the literature's 20-attribute credit encoding (ADF's `credit` bounds), over all
 * 1,000 rows of german.data: A-codes become their 0-based rank; credit_amount = floor(amount / 100)
 * in [1, 200]; age = floor(age / 10) in [1, 8]; sex 0 = male, 1 = female (from A9). Protected: sex, age.
 * Outcome: good = 1 (favourable), bad = 0. The literature's 600-row, class-balanced `credit_sample` is
 * a selection whose rule was not published; it is not reproduced.
 */
export async function loadCredit(given: SourceOptions = {}): Promise<LoadedDataset> {
  const options = resolveOptions<SourceOptions>(SOURCE_OPTIONS, given);
  const { records, lines, resolved } = await readGermanRecords(options);
  const codes = (attr: number, count: number, first = 1) => germanCodes(attr, count, first);
  const attributes: Attribute[] = [
    cat('checking_status', codes(1, 4)),
    grid('duration', 1, 80),
    cat('credit_history', codes(3, 5, 0)),
    cat('purpose', [...codes(4, 10, 0), 'A410']),
    grid('credit_amount', 1, 200),
    cat('savings_status', codes(6, 5)),
    cat('employment', codes(7, 5)),
    grid('installment_commitment', 1, 4),
    cat('sex', ['male', 'female'], true),
    cat('other_parties', codes(10, 3)),
    grid('residence', 1, 4),
    cat('property_magnitude', codes(12, 4)),
    grid('age', 1, 8, true),
    cat('other_payment_plans', codes(14, 3)),
    cat('housing', codes(15, 3)),
    grid('existing_credits', 1, 4),
    cat('job', codes(17, 4)),
    grid('num_dependents', 1, 2),
    cat('own_telephone', codes(19, 2)),
    cat('foreign_worker', codes(20, 2)),
  ];
  const personal = categoryCoder('personal_status', codes(9, 5));
  const coders = attributes.map((a) =>
    a.categories && a.name !== 'sex' ? categoryCoder(a.name, a.categories) : null,
  );
  const d = attributes.length;
  const x = new Float64Array(records.length * d);
  const y = new Int32Array(records.length);
  for (let r = 0; r < records.length; r++) {
    const cells = records[r]!;
    const line = lines[r]!;
    for (let j = 0; j < d; j++) {
      const cell = cells[j]!;
      const name = attributes[j]!.name;
      let v: number;
      if (name === 'sex') {
        personal(cell, line);
        v = GERMAN_FEMALE.has(cell) ? 1 : 0;
      } else if (name === 'credit_amount') v = Math.floor(numberCell(name, cell, line) / 100);
      else if (name === 'age') v = Math.floor(numberCell(name, cell, line) / 10);
      else v = coders[j] ? coders[j]!(cell, line) : numberCell(name, cell, line);
      x[r * d + j] = v;
    }
    y[r] = cells[20] === '1' ? 1 : 0;
  }
  const ds = createDataset({
    schema: schemaOf(attributes, 'credit', ['bad', 'good'], 1),
    x,
    y,
    name: 'credit',
  });
  return withMetadata(ds, {
    source: [{ file: SOURCES.german.file, ...pick(resolved) }],
    citation: `${GERMAN_CITATION}; encoding of pxzhang94/ADF (credit, 20 attributes)`,
    rowsRead: records.length,
    rowsDropped: {},
    protected: ['sex', 'age'],
    encoding: [
      'A-codes become their 0-based rank within the attribute',
      'credit_amount = floor(amount / 100), bounds [1, 200]; age = floor(age / 10), bounds [1, 8]',
      'sex from A9: male (A91, A93, A94) = 0, female (A92, A95) = 1',
      'all 1,000 rows (the literature samples 600 class-balanced rows by an unpublished rule)',
      'credit: good = 1 (favourable), bad = 0',
    ],
  });
}

/**
 * Bank marketing in the literature's 16-attribute encoding (`adf_data/bank_process.py`):
 * age = clip(floor(age / 10), 1, 9); balance = clip(floor(balance / 50), -20, 179);
 * duration = clip(floor(duration / 10), 0, 99); pdays = 1 if never contacted (-1) else 0, declared
 * bounds [-1, 39]; previous = clip(previous, 0, 1); categories coded in the order of bank-names.txt,
 * yes/no as 1/0. Protected: age. Outcome y = yes = 1 (favourable).
 */
export async function loadBankLiterature(given: SourceOptions = {}): Promise<LoadedDataset> {
  const options = resolveOptions<SourceOptions>(SOURCE_OPTIONS, given);
  const { records, resolved } = await readBankRecords(options);
  const B = BANK_CATEGORIES;
  const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);
  const attributes: Attribute[] = [
    grid('age', 1, 9, true),
    cat('job', B.job),
    cat('marital', B.marital),
    cat('education', B.education),
    cat('default', B.default),
    grid('balance', -20, 179),
    cat('housing', B.housing),
    cat('loan', B.loan),
    cat('contact', B.contact),
    grid('day', 1, 31),
    cat('month', B.month),
    grid('duration', 0, 99),
    grid('campaign', 1, 63),
    grid('pdays', -1, 39),
    grid('previous', 0, 1),
    cat('poutcome', B.poutcome),
  ];
  const transform: Record<string, (v: number) => number> = {
    age: (v) => clamp(Math.floor(v / 10), 1, 9),
    balance: (v) => clamp(Math.floor(v / 50), -20, 179),
    duration: (v) => clamp(Math.floor(v / 10), 0, 99),
    pdays: (v) => (v === -1 ? 1 : 0),
    previous: (v) => clamp(v, 0, 1),
  };
  const coders = attributes.map((a) => (a.categories ? categoryCoder(a.name, a.categories) : null));
  const label = categoryCoder('y', ['no', 'yes']);
  const d = attributes.length;
  const x = new Float64Array(records.length * d);
  const y = new Int32Array(records.length);
  for (let r = 0; r < records.length; r++) {
    const cells = records[r]!;
    for (let j = 0; j < d; j++) {
      const a = attributes[j]!;
      const coder = coders[j];
      if (coder) x[r * d + j] = coder(cells[j]!, r + 2);
      else {
        const v = numberCell(a.name, cells[j]!, r + 2);
        x[r * d + j] = transform[a.name] ? transform[a.name]!(v) : v;
      }
    }
    y[r] = label(cells[16]!, r + 2);
  }
  const ds = createDataset({
    schema: schemaOf(attributes, 'y', ['no', 'yes'], 1),
    x,
    y,
    name: 'bank-literature',
  });
  return withMetadata(ds, {
    source: [{ file: SOURCES.bank.file, ...pick(resolved) }],
    citation: `${BANK_CITATION}; encoding of pxzhang94/ADF (bank, 16 attributes)`,
    rowsRead: records.length,
    rowsDropped: {},
    protected: ['age'],
    encoding: [
      'age = clip(floor(age / 10), 1, 9)',
      'balance = clip(floor(balance / 50), -20, 179); duration = clip(floor(duration / 10), 0, 99)',
      'pdays = 1 if -1 (never contacted) else 0, declared bounds [-1, 39] as in the literature',
      'previous = clip(previous, 0, 1); campaign and day as is',
      'categories coded in the order of bank-names.txt; yes/no as 1/0; y yes = 1 (favourable)',
    ],
  });
}
