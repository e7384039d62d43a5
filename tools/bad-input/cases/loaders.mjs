import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  loadAdult,
  loadBank,
  loadBankLiterature,
  loadCensus13,
  loadCompas,
  loadCredit,
  loadCsv,
  loadGerman,
  parseDelimited,
} from '@fb/datasets';
import { fails, returns, unless } from '../src/cases.mjs';

const dir = mkdtempSync(join(tmpdir(), 'fb-bad-input-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const file = (name, content) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const csv = 'sex,age,job,ok\nm,30,a,yes\nf,41,b,no\nm,25,b,yes\nf,52,a,no\n';
const declared = { outcome: 'ok', favorable: 'yes', protected: ['sex'] };
const gz = gzipSync(Buffer.from(csv));
const truncated = file('truncated.csv.gz', gz.subarray(0, gz.length - 12));
const garbage = file(
  'garbage.csv.gz',
  Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from('not really gzip at all')]),
);
const whole = file('whole.csv.gz', gz);
const folder = join(dir, 'a-directory.csv');
mkdirSync(folder);
// A data directory whose adult.data is a directory, and one whose adult.data.gz is truncated.
const dirData = join(dir, 'dir-data');
mkdirSync(join(dirData, 'adult.data'), { recursive: true });
const gzData = join(dir, 'gz-data');
mkdirSync(gzData);
writeFileSync(join(gzData, 'adult.data.gz'), gz.subarray(0, 20));
const emptyData = join(dir, 'empty-data');
mkdirSync(emptyData);
const offline = { dataDir: emptyData, download: false };

// Options are checked before any file is looked for: these fail the same with or without the data.
const loaders = [
  ['loadAdult', loadAdult],
  ['loadGerman', loadGerman],
  ['loadBank', loadBank],
  ['loadCompas', loadCompas],
  ['loadCensus13', loadCensus13],
  ['loadCredit', loadCredit],
  ['loadBankLiterature', loadBankLiterature],
];
const perLoader = loaders.flatMap(([name, load]) => [
  fails(`${name}: options null`, 'OPTIONS_INVALID', () => load(null)),
  fails(`${name}: options a string`, 'OPTIONS_INVALID', () => load('adult.data')),
  fails(`${name}: unknown option`, 'OPTIONS_UNKNOWN', () => load({ datadir: '/data' })),
  fails(`${name}: function-valued option`, 'OPTIONS_INVALID', () => load({ dataDir: () => '/data' })),
  fails(`${name}: dataDir a number`, 'OPTIONS_INVALID', () => load({ dataDir: 5 })),
  fails(`${name}: download "no"`, 'OPTIONS_INVALID', () => load({ download: 'no' })),
  fails(`${name}: nothing in the data directory, download off`, 'INTEROP_PARSE', () => load(offline)),
]);

const loadText =
  (text, schema = declared, options) =>
  () =>
    loadCsv(text, schema, options);

export const cases = [
  ...perLoader,
  fails('loadAdult: split "bogus"', 'OPTIONS_INVALID', () => loadAdult({ split: 'bogus', ...offline })),
  fails('loadAdult: missing "impute"', 'OPTIONS_INVALID', () => loadAdult({ missing: 'impute', ...offline })),
  fails('loadCompas: race "martian"', 'OPTIONS_INVALID', () => loadCompas({ race: 'martian', ...offline })),
  fails('loadCensus13: outOfBounds "wrap"', 'OPTIONS_INVALID', () =>
    loadCensus13({ outOfBounds: 'wrap', ...offline }),
  ),
  fails('loadCensus13: missing (not one of its options)', 'OPTIONS_UNKNOWN', () =>
    loadCensus13({ missing: 'keep', ...offline }),
  ),
  fails('loadAdult: adult.data is a directory', 'INTEROP_PARSE', () => loadAdult({ dataDir: dirData })),
  fails('loadAdult: adult.data.gz truncated', 'INTEROP_PARSE', () => loadAdult({ dataDir: gzData })),

  fails('loadCsv: source null', 'OPTIONS_INVALID', () => loadCsv(null, declared)),
  fails('loadCsv: source a Buffer', 'OPTIONS_INVALID', () => loadCsv(Buffer.from(csv), declared)),
  fails('loadCsv: schema null', 'OPTIONS_INVALID', loadText(csv, null)),
  fails(
    'loadCsv: schema without outcome',
    'OPTIONS_INVALID',
    loadText(csv, { favorable: 'yes', protected: ['sex'] }),
  ),
  fails('loadCsv: protected not a list', 'OPTIONS_INVALID', loadText(csv, { ...declared, protected: 'sex' })),
  fails('loadCsv: no protected column', 'OPTIONS_INVALID', loadText(csv, { ...declared, protected: [] })),
  fails('loadCsv: unknown schema field', 'OPTIONS_UNKNOWN', loadText(csv, { ...declared, target: 'ok' })),
  fails(
    'loadCsv: kind "nominal"',
    'OPTIONS_INVALID',
    loadText(csv, { ...declared, kinds: { job: 'nominal' } }),
  ),
  fails(
    'loadCsv: categories not a list',
    'OPTIONS_INVALID',
    loadText(csv, { ...declared, categories: { job: 'a,b' } }),
  ),
  fails('loadCsv: options null', 'OPTIONS_INVALID', loadText(csv, declared, null)),
  fails('loadCsv: function-valued option', 'OPTIONS_INVALID', loadText(csv, declared, { name: () => 'x' })),
  fails('loadCsv: unknown option', 'OPTIONS_UNKNOWN', loadText(csv, declared, { sep: ';' })),
  fails('loadCsv: missing "guess"', 'OPTIONS_INVALID', loadText(csv, declared, { missing: 'guess' })),
  fails('loadCsv: two-character delimiter', 'OPTIONS_INVALID', loadText(csv, declared, { delimiter: ',,' })),
  fails('loadCsv: empty delimiter', 'OPTIONS_INVALID', loadText(csv, declared, { delimiter: '' })),
  fails('loadCsv: quote as delimiter', 'INTEROP_PARSE', loadText(csv, declared, { delimiter: '"' })),
  fails('loadCsv: maxOrdinalLevels -1', 'OPTIONS_INVALID', loadText(csv, declared, { maxOrdinalLevels: -1 })),
  fails(
    'loadCsv: maxOrdinalLevels 1e12',
    'OPTIONS_INVALID',
    loadText(csv, declared, { maxOrdinalLevels: 1e12 }),
  ),
  fails(
    'loadCsv: missingTokens a string',
    'OPTIONS_INVALID',
    loadText(csv, declared, { missingTokens: '?' }),
  ),
  fails('loadCsv: outcome not a column', 'SCHEMA_INVALID', loadText(csv, { ...declared, outcome: 'label' })),
  fails(
    'loadCsv: protected not a column',
    'SCHEMA_INVALID',
    loadText(csv, { ...declared, protected: ['race'] }),
  ),
  fails(
    'loadCsv: favourable label absent',
    'SCHEMA_INVALID',
    loadText(csv, { ...declared, favorable: 'YES' }),
  ),
  fails(
    'loadCsv: a column named constructor without categories',
    'SCHEMA_RESERVED_NAME',
    loadText('sex,constructor,ok\nm,1,yes\nf,2,no\n'),
  ),
  fails('loadCsv: ragged line', 'DATA_SHAPE', loadText('sex,age,ok\nm,1,yes\nf,2\n')),
  fails('loadCsv: ends inside a quote', 'INTEROP_PARSE', loadText('sex,age,ok\nm,"1,yes\n')),
  fails('loadCsv: a missing cell', 'DATA_NOT_FINITE', loadText('sex,age,ok\nm,?,yes\nf,2,no\n')),
  fails(
    'loadCsv: every row dropped',
    'DATA_EMPTY',
    loadText('sex,age,ok\nm,?,yes\nf,?,no\n', declared, { missing: 'drop' }),
  ),
  fails('loadCsv: a single outcome label', 'DATA_SINGLE_CLASS', loadText('sex,age,ok\nm,1,yes\nf,2,yes\n')),
  fails('loadCsv: header only', 'DATA_EMPTY', loadText('sex,age,ok\n')),
  fails(
    'loadCsv: a value outside declared categories',
    'DATA_UNKNOWN_CATEGORY',
    loadText(csv, { ...declared, categories: { job: ['a'] } }),
  ),
  fails(
    'loadCsv: ordinal declared over text',
    'SCHEMA_BAD_DOMAIN',
    loadText(csv, { ...declared, kinds: { job: 'ordinal' } }),
  ),
  fails('loadCsv: no such file', 'INTEROP_PARSE', () => loadCsv(join(dir, 'nope.csv'), declared)),
  fails('loadCsv: a directory as the file', 'INTEROP_PARSE', () => loadCsv(folder, declared)),
  fails('loadCsv: a truncated .gz', 'INTEROP_PARSE', () => loadCsv(truncated, declared)),
  fails('loadCsv: garbage behind the gzip magic', 'INTEROP_PARSE', () => loadCsv(garbage, declared)),
  returns(
    'loadCsv: a whole .gz',
    () => loadCsv(whole, declared),
    (d) => unless(d.n === 4, `${d.n} rows`),
  ),
  // Columns named like Object.prototype members, with categories and kinds declared for them.
  returns(
    'loadCsv: columns named constructor-like with categories',
    loadText('sex,valueOf,toString,ok\nm,lo,1,yes\nf,hi,2,no\nm,hi,1,no\n', {
      ...declared,
      categories: { valueOf: ['lo', 'hi'] },
      kinds: { toString: 'ordinal' },
    }),
    (d) =>
      unless(d.schema.attributes[1].categories?.join() === 'lo,hi', 'categories') ??
      unless(d.schema.attributes[2].kind === 'ordinal' && d.x[2] === 1, 'ordinal'),
  ),
  returns('loadCsv: "0x10" is text, not 16', loadText('sex,code,ok\nm,0x10,yes\nf,7,no\n'), (d) =>
    unless(
      d.schema.attributes[1].kind === 'categorical' && d.schema.attributes[1].categories.includes('0x10'),
      JSON.stringify(d.schema.attributes[1]),
    ),
  ),
  returns('loadCsv: "1e3" is a number', loadText('sex,n,ok\nm,1e3,yes\nf,7,no\n'), (d) =>
    unless(
      d.schema.attributes[1].kind === 'ordinal' && d.x[1] === 1000,
      JSON.stringify(d.schema.attributes[1]),
    ),
  ),
  returns('loadCsv: BOM, CRLF and semicolons', loadText('\uFEFFsex;age;ok\r\nm;30;yes\r\nf;41;no\r\n'), (d) =>
    unless(
      d.n === 2 && d.schema.attributes[0].name === 'sex',
      JSON.stringify(d.schema.attributes.map((a) => a.name)),
    ),
  ),
  returns(
    'loadCsv: mode imputation',
    loadText('sex,age,ok\nm,1,yes\nf,?,no\nm,1,no\n', declared, { missing: 'mode' }),
    (d) => unless(d.x[3] === 1, `imputed ${d.x[3]}`),
  ),
  fails('parseDelimited: delimiter newline', 'INTEROP_PARSE', () => parseDelimited(csv, '\n')),
];
