import { describe, expect, it } from 'vitest';
import {
  type Attribute,
  type DiscoveryResult,
  defineSchema,
  InteropError,
  individualTable,
  parseCsv,
  readIndividualTable,
  readSubgroupTable,
  resultToCsv,
  resultToRecords,
  type Schema,
  subgroupTable,
} from '../src/index.js';
import { copy, individualResult, subgroupResult } from './fixtures.js';
import { auditSchema, expectError } from './helpers.js';

const HEADER = [
  'sex',
  'age',
  'race',
  'income',
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

describe('individual table', () => {
  it('has two rows per pair with keys, outcome difference, case id and the metrics on every row', () => {
    const t = individualTable(individualResult, auditSchema);
    expect(t.header).toEqual(HEADER);
    expect(t.rows.length).toBe(4);
    const couple = '0|1|0|45-1|1|0|45';
    expect(t.rows[0]).toEqual([0, 1, 0, 45, '0|1|0|45', 0, couple, 1, 0, 4, 2, 0.5, 0.25]);
    expect(t.rows[1]).toEqual([1, 1, 0, 45, '1|1|0|45', 1, couple, 1, 0, 4, 2, 0.5, 0.25]);
    expect(t.rows[2]!.slice(4, 9)).toEqual(['1|0|0|38.5', 0, '1|0|0|38.5-1|0|2|38.5', 1, 1]);
    expect(t.rows[3]!.slice(4, 9)).toEqual(['1|0|2|38.5', 1, '1|0|0|38.5-1|0|2|38.5', 1, 1]);
  });

  it('diff_outcome is the absolute outcome difference', () => {
    const r = copy(individualResult);
    if (r.findings.kind !== 'individual') throw new Error('individual expected');
    r.findings.pairs[0]!.sampleOutcome = 2;
    r.findings.pairs[0]!.counterfactualOutcome = 0;
    expect(individualTable(r, auditSchema).rows[0]![7]).toBe(2);
  });

  it('round-trips through CSV and through row objects', () => {
    const expected = {
      pairs:
        individualResult.findings.kind === 'individual'
          ? individualResult.findings.pairs.map(({ changed: _c, ...p }) => p)
          : [],
      metrics: { tsn: 4, dsn: 2, sur: 0.5, dss: 0.25 },
    };
    const csv = resultToCsv(individualResult, auditSchema);
    expect(parseCsv(csv).header).toEqual(HEADER);
    expect(readIndividualTable(csv, auditSchema)).toEqual(expected);
    const records = resultToRecords(individualResult, auditSchema);
    expect(records[0]).toMatchObject({ sex: 0, indv_key: '0|1|0|45', case_id: 0, DSS: 0.25 });
    expect(readIndividualTable(records, auditSchema)).toEqual(expected);
  });

  it('keeps exact fractions and a null DSS in the round trip', () => {
    const r = copy(individualResult);
    r.metrics = { ...r.metrics, tsn: 3, dsn: 0, sur: 1 / 3, dss: null };
    expect(readIndividualTable(resultToCsv(r, auditSchema), auditSchema).metrics).toEqual({
      tsn: 3,
      dsn: 0,
      sur: 1 / 3,
      dss: null,
    });
  });

  it('an empty pair list reads back as no pairs and no metrics', () => {
    const r = copy(individualResult);
    if (r.findings.kind === 'individual') r.findings.pairs = [];
    expect(readIndividualTable(resultToCsv(r, auditSchema), auditSchema)).toEqual({
      pairs: [],
      metrics: null,
    });
  });

  it('rejects malformed tables', () => {
    const csv = resultToCsv(individualResult, auditSchema);
    const lines = csv.trimEnd().split('\n');
    expectError(
      () => readIndividualTable(lines.slice(0, 4).join('\n'), auditSchema),
      InteropError,
      'INTEROP_PARSE',
    );
    const swapped = [lines[0], lines[1], lines[3], lines[2], lines[4]].join('\n');
    expectError(() => readIndividualTable(swapped, auditSchema), InteropError, 'INTEROP_PARSE');
    expectError(
      () => readIndividualTable(csv.replace('\n0,1,0,45,', '\nzero,1,0,45,'), auditSchema),
      InteropError,
      'INTEROP_PARSE',
    );
    expectError(() => readIndividualTable('sex,age\n0,1\n1,1\n', auditSchema), InteropError, 'INTEROP_PARSE');
    expectError(() => readIndividualTable('a,"b\n', auditSchema), InteropError, 'INTEROP_PARSE');
  });
});

const sgSchema: Schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'age', kind: 'ordinal', protected: false, min: 0, max: 9 },
    { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c', 'd'] },
    { name: 'income', kind: 'continuous', protected: false, min: 0, max: 10 },
  ],
  outcome: { name: 'approved', labels: ['no', 'yes'], favorable: 1 },
});

function sgResult(): DiscoveryResult {
  const r = copy(subgroupResult);
  r.findings = {
    kind: 'subgroup',
    subgroups: [
      {
        rank: 1,
        conditions: [
          { attribute: 'race', values: [3, 1] },
          { attribute: 'age', min: 2, max: 5, maxInclusive: false },
          { attribute: 'income', min: 2, max: 5, maxInclusive: true },
        ],
        size: 31,
        score: 7.25,
        effect: -0.125,
        pValue: 0.02,
        direction: 'lower',
        details: { q: 0.5 },
      },
      {
        rank: 2,
        conditions: [],
        size: 400,
        score: 0.5,
        effect: null,
        pValue: null,
        direction: null,
        details: {},
      },
    ],
  };
  return r;
}

describe('subgroup table', () => {
  it('writes one cell per attribute: * unconstrained, a;b sets, [lo,hi) and [lo,hi] intervals', () => {
    const t = subgroupTable(sgResult(), sgSchema);
    expect(t.header).toEqual([
      'sex',
      'age',
      'race',
      'income',
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
    ]);
    expect(t.rows[0]).toEqual([
      '*',
      '[2,5)',
      '1;3',
      '[2,5]',
      '*|[2,5)|1;3|[2,5]',
      31,
      7.25,
      -0.125,
      0.02,
      'lower',
      1,
      400,
      2,
      0.005,
      0.625,
    ]);
    expect(t.rows[1]!.slice(0, 11)).toEqual(['*', '*', '*', '*', '*|*|*|*', 400, 0.5, null, null, null, 2]);
  });

  it('round-trips through CSV and row objects (conditions in schema order, sets sorted)', () => {
    const expected = {
      subgroups: [
        {
          rank: 1,
          conditions: [
            { attribute: 'age', min: 2, max: 5, maxInclusive: false },
            { attribute: 'race', values: [1, 3] },
            { attribute: 'income', min: 2, max: 5, maxInclusive: true },
          ],
          size: 31,
          score: 7.25,
          effect: -0.125,
          pValue: 0.02,
          direction: 'lower',
        },
        { rank: 2, conditions: [], size: 400, score: 0.5, effect: null, pValue: null, direction: null },
      ],
      metrics: { tsn: 400, dsn: 2, sur: 0.005, dss: 0.625 },
    };
    expect(readSubgroupTable(resultToCsv(sgResult(), sgSchema), sgSchema)).toEqual(expected);
    expect(readSubgroupTable(resultToRecords(sgResult(), sgSchema), sgSchema)).toEqual(expected);
  });

  it.each([
    ['an empty cell', ''],
    ['an empty set member', '1;;3'],
    ['a non-numeric value', 'b'],
    ['a bad interval', '[1,x)'],
  ])('rejects %s in an attribute cell', (_, cell) => {
    const records = resultToRecords(sgResult(), sgSchema);
    records[0]!['race'] = cell;
    expectError(() => readSubgroupTable(records, sgSchema), InteropError, 'INTEROP_PARSE', {
      attribute: 'race',
    });
  });

  it('rejects an unknown direction and a missing column', () => {
    const records = resultToRecords(sgResult(), sgSchema);
    records[0]!['direction'] = 'up';
    expectError(() => readSubgroupTable(records, sgSchema), InteropError, 'INTEROP_PARSE');
    const { rank: _r, ...noRank } = resultToRecords(sgResult(), sgSchema)[0]!;
    expectError(() => readSubgroupTable([noRank], sgSchema), InteropError, 'INTEROP_PARSE');
  });
});

describe('column clashes and kinds', () => {
  const clash = (name: string): Schema =>
    defineSchema({
      attributes: [
        { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
        { name, kind: 'ordinal', protected: false, min: 0, max: 4 } as Attribute,
        { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
        { name: 'income', kind: 'continuous', protected: false, min: 0, max: 100 },
      ],
      outcome: { name: 'approved', labels: ['no', 'yes'], favorable: 1 },
    });

  it.each(['TSN', 'case_id', 'outcome'])(
    'an attribute named %s clashes with the individual table',
    (name) => {
      expectError(() => resultToCsv(individualResult, clash(name)), InteropError, 'INTEROP_PARSE', {
        attribute: name,
      });
    },
  );

  it.each(['TSN', 'subgroup_key', 'rank'])(
    'an attribute named %s clashes with the subgroup table',
    (name) => {
      expectError(() => subgroupTable(subgroupResult, clash(name)), InteropError, 'INTEROP_PARSE', {
        attribute: name,
      });
    },
  );

  it('each table refuses the other kind of result', () => {
    expectError(() => individualTable(subgroupResult, auditSchema), InteropError, 'INTEROP_PARSE');
    expectError(() => subgroupTable(individualResult, auditSchema), InteropError, 'INTEROP_PARSE');
  });
});
