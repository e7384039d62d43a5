import {
  checkDataset,
  createDataset,
  createRng,
  DomainSampler,
  datasetFromRecords,
  defineSchema,
  describeSubgroup,
  domainGrid,
  domainValues,
  labelRow,
  parseCsv,
  parseDecimal,
  readIndividualTable,
  readSubgroupTable,
  resolveOptions,
  resultToCsv,
  subsetRows,
} from '@fb/core';
import { fails, returns, unless } from '../src/cases.mjs';

const attr = (over = {}) => ({
  name: 'a',
  kind: 'categorical',
  protected: true,
  categories: ['x', 'y'],
  ...over,
});
const outcome = { name: 'y', labels: ['no', 'yes'], favorable: 1 };
const schemaWith = (...attributes) => ({ attributes, outcome });
const base = schemaWith(attr(), { name: 'n', kind: 'ordinal', protected: false, min: 0, max: 4 });
const big = (max) => schemaWith(attr(), { name: 'n', kind: 'ordinal', protected: false, min: 0, max });

const badSchemas = [
  ['null schema', null, 'SCHEMA_INVALID'],
  ['schema without attributes', { outcome }, 'SCHEMA_INVALID'],
  ['attributes not an array', { attributes: {}, outcome }, 'SCHEMA_INVALID'],
  ['no attributes', { attributes: [], outcome }, 'SCHEMA_INVALID'],
  ['attribute without a name', schemaWith({ ...attr(), name: undefined }), 'SCHEMA_INVALID'],
  ['empty attribute name', schemaWith(attr({ name: '' })), 'SCHEMA_INVALID'],
  ['attribute name __proto__', schemaWith(attr({ name: '__proto__' })), 'SCHEMA_RESERVED_NAME'],
  ['attribute name constructor', schemaWith(attr({ name: 'constructor' })), 'SCHEMA_RESERVED_NAME'],
  ['attribute name prototype', schemaWith(attr({ name: 'prototype' })), 'SCHEMA_RESERVED_NAME'],
  ['numeric attribute name', schemaWith(attr({ name: 5 })), 'SCHEMA_INVALID'],
  ['duplicate attribute', schemaWith(attr(), attr()), 'SCHEMA_DUPLICATE_ATTRIBUTE'],
  ['unknown kind', schemaWith(attr({ kind: 'nominal' })), 'SCHEMA_INVALID'],
  ['protected as a string', schemaWith(attr({ protected: 'yes' })), 'SCHEMA_INVALID'],
  ['categorical without categories', schemaWith(attr({ categories: undefined })), 'SCHEMA_BAD_DOMAIN'],
  ['empty categories', schemaWith(attr({ categories: [] })), 'SCHEMA_BAD_DOMAIN'],
  ['categories not an array', schemaWith(attr({ categories: 'xy' })), 'SCHEMA_BAD_DOMAIN'],
  ['numeric category label', schemaWith(attr({ categories: ['x', 2] })), 'SCHEMA_BAD_DOMAIN'],
  ['duplicate category', schemaWith(attr({ categories: ['x', 'x'] })), 'SCHEMA_BAD_DOMAIN'],
  ['categories and min', schemaWith(attr({ min: 0 })), 'SCHEMA_BAD_DOMAIN'],
  ['continuous with categories', schemaWith(attr({ kind: 'continuous' })), 'SCHEMA_BAD_DOMAIN'],
  ['ordinal min > max', big(-1), 'SCHEMA_BAD_DOMAIN'],
  ['ordinal max NaN', big(Number.NaN), 'SCHEMA_BAD_DOMAIN'],
  ['ordinal max Infinity', big(Number.POSITIVE_INFINITY), 'SCHEMA_BAD_DOMAIN'],
  ['ordinal max as text', big('9'), 'SCHEMA_BAD_DOMAIN'],
  [
    'ordinal step 0',
    schemaWith(attr(), { name: 'n', kind: 'ordinal', protected: false, min: 0, max: 4, step: 0 }),
    'SCHEMA_BAD_DOMAIN',
  ],
  [
    'ordinal step -1',
    schemaWith(attr(), { name: 'n', kind: 'ordinal', protected: false, min: 0, max: 4, step: -1 }),
    'SCHEMA_BAD_DOMAIN',
  ],
  [
    'ordinal step NaN',
    schemaWith(attr(), { name: 'n', kind: 'ordinal', protected: false, min: 0, max: 4, step: Number.NaN }),
    'SCHEMA_BAD_DOMAIN',
  ],
  [
    'range not a multiple of step',
    schemaWith(attr(), { name: 'n', kind: 'ordinal', protected: false, min: 0, max: 5, step: 2 }),
    'SCHEMA_BAD_DOMAIN',
  ],
  ['grid of 2^60 points', big(2 ** 60), 'SCHEMA_BAD_DOMAIN'],
  [
    'continuous grid of 2^60 points',
    schemaWith(attr(), { name: 'n', kind: 'continuous', protected: false, min: 0, max: 2 ** 60, step: 1 }),
    'SCHEMA_BAD_DOMAIN',
  ],
  ['no protected attribute', schemaWith(attr({ protected: false })), 'SCHEMA_NO_PROTECTED'],
  ['no outcome', { attributes: [attr()] }, 'SCHEMA_INVALID'],
  [
    'outcome named like an attribute',
    { attributes: [attr()], outcome: { ...outcome, name: 'a' } },
    'SCHEMA_DUPLICATE_ATTRIBUTE',
  ],
  [
    'outcome named __proto__',
    { attributes: [attr()], outcome: { ...outcome, name: '__proto__' } },
    'SCHEMA_RESERVED_NAME',
  ],
  ['one outcome label', { attributes: [attr()], outcome: { ...outcome, labels: ['yes'] } }, 'SCHEMA_INVALID'],
  [
    'duplicate outcome labels',
    { attributes: [attr()], outcome: { ...outcome, labels: ['a', 'a'] } },
    'SCHEMA_INVALID',
  ],
  [
    'favourable out of range',
    { attributes: [attr()], outcome: { ...outcome, favorable: 2 } },
    'SCHEMA_INVALID',
  ],
  ['favourable 0.5', { attributes: [attr()], outcome: { ...outcome, favorable: 0.5 } }, 'SCHEMA_INVALID'],
  [
    'favourable as a label',
    { attributes: [attr()], outcome: { ...outcome, favorable: 'yes' } },
    'SCHEMA_INVALID',
  ],
];

const ds =
  (x, y, schema = base) =>
  () =>
    createDataset({ schema, x, y });
const records =
  (recs, schema = base) =>
  () =>
    datasetFromRecords(schema, recs);
const rec = (over) => ({ a: 'x', n: 2, y: 'yes', ...over });

const described = defineSchema(base);

export const cases = [
  fails('describeSubgroup: conditions null', 'DATA_SHAPE', () => describeSubgroup(described, null)),
  fails('describeSubgroup: a category code outside the categories', 'DATA_OUT_OF_DOMAIN', () =>
    describeSubgroup(described, [{ attribute: 'a', values: [7] }]),
  ),
  fails('labelRow: a row shorter than the schema', 'DATA_SHAPE', () => labelRow(described, [0])),
  fails('resultToCsv: no result', 'RESULT_INVALID', () => resultToCsv(null, described)),
  ...badSchemas.map(([id, spec, code]) => fails(`schema: ${id}`, code, () => defineSchema(spec))),

  // Domains beyond 32 bits keep their size (they used to wrap in an Int32Array).
  returns(
    'domain: ordinal 0..2^32 has 2^32 + 1 values',
    () => domainGrid(defineSchema(big(2 ** 32))),
    (g) => unless(g.count[1] === 2 ** 32 + 1, `count ${g.count[1]}`),
  ),
  returns(
    'domain: ordinal 0..1e12 samples inside its domain',
    () => {
      const s = new DomainSampler(defineSchema(big(1e12)));
      const out = new Float64Array(400);
      s.fill(createRng(1), out);
      return Array.from({ length: 200 }, (_, i) => out[2 * i + 1]);
    },
    (vs) =>
      unless(vs.every((v) => Number.isInteger(v) && v >= 0 && v <= 1e12) && new Set(vs).size > 190, 'values'),
  ),
  fails('domain: listing 2^32 values', 'SCHEMA_BAD_DOMAIN', () =>
    domainValues(defineSchema(big(2 ** 32)).attributes[1]),
  ),
  fails('domain: listing a continuous attribute', 'SCHEMA_BAD_DOMAIN', () =>
    domainValues({ name: 'c', kind: 'continuous', protected: false, min: 0, max: 1 }),
  ),

  fails('dataset: width not a multiple', 'DATA_SHAPE', ds([0, 1, 0], [1])),
  fails('dataset: fewer labels than rows', 'DATA_SHAPE', ds([0, 1, 1, 2], [1])),
  fails('dataset: NaN value', 'DATA_NOT_FINITE', ds([0, Number.NaN], [1])),
  fails('dataset: Infinity value', 'DATA_NOT_FINITE', ds([Number.POSITIVE_INFINITY, 1], [1])),
  fails('dataset: category code 2 of 2', 'DATA_OUT_OF_DOMAIN', ds([2, 1], [1])),
  fails('dataset: category code 0.5', 'DATA_OUT_OF_DOMAIN', ds([0.5, 1], [1])),
  fails('dataset: ordinal 5 above max 4', 'DATA_OUT_OF_DOMAIN', ds([0, 5], [1])),
  fails('dataset: ordinal 1.5 off the grid', 'DATA_OUT_OF_DOMAIN', ds([0, 1.5], [1])),
  fails('dataset: outcome 2 of 2 labels', 'DATA_OUT_OF_DOMAIN', ds([0, 1], [2])),
  fails('dataset: outcome -1', 'DATA_OUT_OF_DOMAIN', ds([0, 1], [-1])),
  fails('dataset: outcome 1.5', 'DATA_OUT_OF_DOMAIN', ds([0, 1], [1.5])),
  fails('dataset: outcome NaN', 'DATA_OUT_OF_DOMAIN', ds([0, 1], [Number.NaN])),
  fails('dataset: bad schema', 'SCHEMA_INVALID', ds([0], [0], { attributes: [] })),
  returns('dataset: values given as a plain array', ds([0, 1, 1, 4], [0, 1]), (d) =>
    unless(d.n === 2 && d.x[3] === 4 && d.y[1] === 1, 'wrong values'),
  ),

  // Outcomes are checked before they are stored as integers (1.5 used to become 1).
  fails('records: outcome 1.5', 'DATA_OUT_OF_DOMAIN', records([rec({ y: 1.5 })])),
  fails('records: outcome NaN', 'DATA_OUT_OF_DOMAIN', records([rec({ y: Number.NaN })])),
  fails('records: outcome -0.5', 'DATA_OUT_OF_DOMAIN', records([rec({ y: -0.5 })])),
  fails('records: outcome 2', 'DATA_OUT_OF_DOMAIN', records([rec({ y: 2 })])),
  fails('records: outcome 2^32 + 1', 'DATA_OUT_OF_DOMAIN', records([rec({ y: 2 ** 32 + 1 })])),
  fails('records: unknown outcome label', 'DATA_UNKNOWN_CATEGORY', records([rec({ y: 'maybe' })])),
  fails('records: outcome null', 'DATA_UNKNOWN_CATEGORY', records([rec({ y: null })])),
  fails('records: outcome true', 'DATA_UNKNOWN_CATEGORY', records([rec({ y: true })])),
  // Hexadecimal text is not a number (Number('0x3') is 3).
  fails('records: ordinal "0x3"', 'DATA_NOT_FINITE', records([rec({ n: '0x3' })])),
  fails('records: ordinal "0b1"', 'DATA_NOT_FINITE', records([rec({ n: '0b1' })])),
  fails('records: ordinal "0o2"', 'DATA_NOT_FINITE', records([rec({ n: '0o2' })])),
  fails('records: ordinal "Infinity"', 'DATA_NOT_FINITE', records([rec({ n: 'Infinity' })])),
  fails('records: ordinal ""', 'DATA_NOT_FINITE', records([rec({ n: '' })])),
  fails('records: ordinal "  "', 'DATA_NOT_FINITE', records([rec({ n: '  ' })])),
  fails('records: ordinal null', 'DATA_NOT_FINITE', records([rec({ n: null })])),
  fails('records: ordinal true', 'DATA_NOT_FINITE', records([rec({ n: true })])),
  fails('records: ordinal as an array', 'DATA_NOT_FINITE', records([rec({ n: [2] })])),
  fails('records: ordinal 7 out of domain', 'DATA_OUT_OF_DOMAIN', records([rec({ n: 7 })])),
  fails('records: category code 2 of 2', 'DATA_OUT_OF_DOMAIN', records([rec({ a: 2 })])),
  fails('records: unknown category', 'DATA_UNKNOWN_CATEGORY', records([rec({ a: 'z' })])),
  fails('records: category given as "0"', 'DATA_UNKNOWN_CATEGORY', records([rec({ a: '0' })])),
  fails('records: missing attribute', 'DATA_MISSING_COLUMN', records([{ a: 'x', y: 'yes' }])),
  fails('records: missing outcome', 'DATA_MISSING_COLUMN', records([{ a: 'x', n: 1 }])),
  fails('records: extra column', 'DATA_EXTRA_COLUMN', records([rec({ z: 1 })])),
  fails(
    'records: __proto__ column from JSON',
    'DATA_EXTRA_COLUMN',
    records([JSON.parse('{"a":"x","n":1,"y":"yes","__proto__":{"n":3}}')]),
  ),
  fails('records: null record', 'DATA_SHAPE', records([null])),
  fails('records: a number as record', 'DATA_SHAPE', records([5])),
  fails('records: an array as record', 'DATA_EXTRA_COLUMN', records([['x', 1, 'yes']])),
  returns(
    'records: "1e0" and " 3 " read as decimals',
    records([rec({ n: '1e0' }), rec({ n: ' 3 ', y: 'no' })]),
    (d) => unless(d.x[1] === 1 && d.x[3] === 3 && d.y[1] === 0, `got ${[...d.x]}`),
  ),
  returns('records: codes and labels mix', records([rec({ a: 1, y: 0 }), rec({ a: 'x', y: 'yes' })]), (d) =>
    unless(d.x[0] === 1 && d.y[0] === 0 && d.x[2] === 0 && d.y[1] === 1, 'codes'),
  ),

  fails('checkDataset: null', 'DATA_SHAPE', () => checkDataset(null)),
  fails('checkDataset: x as a plain array', 'DATA_SHAPE', () =>
    checkDataset({ schema: base, x: [0, 1], y: new Int32Array([1]) }),
  ),
  fails('checkDataset: y as a Float64Array', 'DATA_SHAPE', () =>
    checkDataset({ schema: base, x: new Float64Array([0, 1]), y: new Float64Array([1]) }),
  ),
  fails('checkDataset: n says 5, arrays hold 1', 'DATA_SHAPE', () =>
    checkDataset({ schema: base, x: new Float64Array([0, 1]), y: new Int32Array([1]), n: 5 }),
  ),
  fails('checkDataset: no rows', 'DATA_EMPTY', () =>
    checkDataset({ schema: base, x: new Float64Array(0), y: new Int32Array(0) }),
  ),
  fails('checkDataset: a single class', 'DATA_SINGLE_CLASS', () =>
    checkDataset({ schema: base, x: new Float64Array([0, 1, 1, 2]), y: new Int32Array([1, 1]) }),
  ),
  fails('subsetRows: index out of range', 'DATA_SHAPE', () => subsetRows(ds([0, 1], [1])(), [3])),
  fails('subsetRows: index 0.5', 'DATA_SHAPE', () => subsetRows(ds([0, 1], [1])(), [0.5])),

  returns(
    'parseDecimal: "0x10" is not a number',
    () => parseDecimal('0x10'),
    (v) => unless(Number.isNaN(v), `${v}`),
  ),
  returns(
    'parseDecimal: "-1.5e-3"',
    () => parseDecimal('-1.5e-3'),
    (v) => unless(v === -0.0015, `${v}`),
  ),
  returns(
    'parseDecimal: ".5"',
    () => parseDecimal('.5'),
    (v) => unless(v === 0.5, `${v}`),
  ),
  fails('parseCsv: ends inside a quote', 'INTEROP_PARSE', () => parseCsv('a,b\n"1,2\n')),
  fails('parseCsv: empty text', 'INTEROP_PARSE', () => parseCsv('')),
  fails('parseCsv: ragged line', 'INTEROP_PARSE', () => parseCsv('a,b\n1,2,3\n')),
  returns(
    'parseCsv: CRLF and quoted cells',
    () => parseCsv('a,b\r\n"x,""y""",2\r\n'),
    (t) => unless(t.rows[0][0] === 'x,"y"' && t.rows[0][1] === '2' && t.rows.length === 1, JSON.stringify(t)),
  ),
  fails('readIndividualTable: TSN "0x10"', 'INTEROP_PARSE', () =>
    readIndividualTable(
      'a,n,indv_key,outcome,couple_key,diff_outcome,case_id,TSN,DSN,SUR,DSS\n0,1,0|1,1,k,1,0,0x10,1,1,\n1,1,1|1,0,k,1,0,0x10,1,1,\n',
      defineSchema(base),
    ),
  ),
  fails('readSubgroupTable: a set member "0x1"', 'INTEROP_PARSE', () =>
    readSubgroupTable(
      'a,n,subgroup_key,size,score,effect,p_value,direction,rank,TSN,DSN,SUR,DSS\n0x1,*,0x1|*,3,1,,,,1,10,1,0.1,\n',
      defineSchema(base),
    ),
  ),

  fails('options: null', 'OPTIONS_INVALID', () => resolveOptions(optionsSchema, null)),
  fails('options: an array', 'OPTIONS_INVALID', () => resolveOptions(optionsSchema, [1])),
  fails('options: a function value', 'OPTIONS_INVALID', () => resolveOptions(optionsSchema, { k: () => 1 })),
  fails('options: a nested function value', 'OPTIONS_INVALID', () =>
    resolveOptions(optionsSchema, { k: { f: () => 1 } }),
  ),
  fails('options: a symbol value', 'OPTIONS_INVALID', () =>
    resolveOptions(optionsSchema, { k: Symbol('s') }),
  ),
  fails('options: unknown name', 'OPTIONS_UNKNOWN', () => resolveOptions(optionsSchema, { kk: 1 })),
  fails('options: __proto__ from JSON', 'OPTIONS_UNKNOWN', () =>
    resolveOptions(optionsSchema, JSON.parse('{"__proto__":{"k":2}}')),
  ),
  fails('options: wrong type', 'OPTIONS_INVALID', () => resolveOptions(optionsSchema, { k: 'many' })),
  fails('options: 1e400 is Infinity', 'OPTIONS_INVALID', () =>
    resolveOptions(optionsSchema, JSON.parse('{"k": 1e400}')),
  ),
  returns(
    'options: defaults filled',
    () => resolveOptions(optionsSchema, undefined),
    (o) => unless(o.k === 3, JSON.stringify(o)),
  ),

  fails('rng: seed -1', 'RNG_INVALID_ARGUMENT', () => createRng(-1)),
  fails('rng: seed 1.5', 'RNG_INVALID_ARGUMENT', () => createRng(1.5)),
  fails('rng: seed NaN', 'RNG_INVALID_ARGUMENT', () => createRng(Number.NaN)),
  fails('rng: seed as an object', 'RNG_INVALID_ARGUMENT', () => createRng({})),
  fails('rng: int(2, 1)', 'RNG_INVALID_ARGUMENT', () => createRng(1).int(2, 1)),
  fails('rng: int(0, 1.5)', 'RNG_INVALID_ARGUMENT', () => createRng(1).int(0, 1.5)),
  fails('rng: uniform(1, 0)', 'RNG_INVALID_ARGUMENT', () => createRng(1).uniform(1, 0)),
  fails('rng: bernoulli(2)', 'RNG_INVALID_ARGUMENT', () => createRng(1).bernoulli(2)),
  fails('rng: normal sd -1', 'RNG_INVALID_ARGUMENT', () => createRng(1).normal(0, -1)),
  returns(
    'rng: int over 2^40 values stays in range',
    () => Array.from({ length: 100 }, () => createRng(3).int(0, 2 ** 40)),
    (vs) =>
      unless(
        vs.every((v) => Number.isInteger(v) && v >= 0 && v <= 2 ** 40),
        'out of range',
      ),
  ),
];

const optionsSchema = {
  type: 'object',
  properties: { k: { type: 'number', default: 3, description: 'k' } },
};
