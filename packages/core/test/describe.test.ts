import { describe, expect, it } from 'vitest';
import {
  defineSchema,
  describeCondition,
  describePair,
  describeSubgroup,
  individualTable,
  labelRow,
  readIndividualTable,
  readSubgroupTable,
  resultToCsv,
  resultToRecords,
  SchemaError,
  subgroupTable,
} from '../src/index.js';
import { copy, individualResult, subgroupResult } from './fixtures.js';
import { auditSchema, expectError } from './helpers.js';

const schema = defineSchema({
  attributes: [
    { name: 'age', kind: 'continuous', protected: true, min: 17, max: 90 },
    {
      name: 'education',
      kind: 'categorical',
      protected: false,
      categories: ['Bachelors', 'HS-grad', 'Masters'],
    },
    {
      name: 'marital-status',
      kind: 'categorical',
      protected: false,
      categories: ['Divorced', 'Married-civ-spouse', 'Never-married'],
    },
    { name: 'band', kind: 'ordinal', protected: false, categories: ['<25', '25-45', '45-65', '>=65'] },
    { name: 'hours', kind: 'ordinal', protected: false, min: 1, max: 99, step: 1 },
  ],
  outcome: { name: 'income', labels: ['<=50K', '>50K'], favorable: 1 },
});

describe('describeSubgroup', () => {
  it('names categories by their labels, conditions in schema order joined by AND', () => {
    expect(
      describeSubgroup(schema, [
        { attribute: 'marital-status', values: [1] },
        { attribute: 'education', values: [2] },
      ]),
    ).toBe('education = Masters AND marital-status = Married-civ-spouse');
  });

  it('lists value sets in category order and intervals over labelled attributes as the labels covered', () => {
    expect(describeCondition(schema, { attribute: 'education', values: [2] })).toBe('education = Masters');
    expect(describeCondition(schema, { attribute: 'marital-status', values: [2, 0] })).toBe(
      'marital-status != Married-civ-spouse',
    );
    expect(describeCondition(schema, { attribute: 'band', min: 1, max: 3, maxInclusive: false })).toBe(
      'band in {25-45, 45-65}',
    );
    expect(describeCondition(schema, { attribute: 'band', min: 0, max: 3, maxInclusive: false })).toBe(
      'band != >=65',
    );
    expect(describeCondition(schema, { attribute: 'band', min: 3, max: 3, maxInclusive: true })).toBe(
      'band = >=65',
    );
  });

  it('writes numeric intervals as bounds and numeric sets as numbers', () => {
    expect(describeCondition(schema, { attribute: 'age', min: 25, max: 45, maxInclusive: false })).toBe(
      '25 <= age < 45',
    );
    expect(describeCondition(schema, { attribute: 'age', min: 0.1 + 0.2, max: 45, maxInclusive: true })).toBe(
      '0.3 <= age <= 45',
    );
    expect(describeCondition(schema, { attribute: 'hours', values: [40] })).toBe('hours = 40');
    expect(describeCondition(schema, { attribute: 'hours', values: [1, 2, 3, 4, 7, 9, 10] })).toBe(
      'hours in {1..4, 7, 9, 10}',
    );
    expect(describeCondition(schema, { attribute: 'age', min: 0, max: 0, maxInclusive: true })).toBe(
      'age = 0',
    );
  });

  it('writes a set as its complement when that is shorter', () => {
    expect(describeCondition(schema, { attribute: 'band', values: [0, 1, 3] })).toBe('band != 45-65');
    expect(describeCondition(schema, { attribute: 'band', min: 0, max: 2, maxInclusive: true })).toBe(
      'band != >=65',
    );
    expect(describeCondition(schema, { attribute: 'education', values: [0, 1] })).toBe(
      'education != Masters',
    );
  });

  it('calls the empty conjunction all rows and rejects an unknown attribute', () => {
    expect(describeSubgroup(schema, [])).toBe('all rows');
    expectError(
      () => describeSubgroup(schema, [{ attribute: 'zip', values: [1] }]),
      SchemaError,
      'SCHEMA_INVALID',
    );
  });

  it('labels rows and pairs', () => {
    expect(labelRow(schema, [38, 2, 1, 0, 40])).toEqual({
      age: '38',
      education: 'Masters',
      'marital-status': 'Married-civ-spouse',
      band: '<25',
      hours: '40',
    });
    expect(
      describePair(schema, {
        caseId: 0,
        sample: [38, 2, 1, 0, 40],
        counterfactual: [60, 2, 1, 0, 40],
        sampleOutcome: 1,
        counterfactualOutcome: 0,
        changed: ['age'],
      }),
    ).toBe('age: 38 -> 60 changes income from >50K to <=50K');
  });
});

describe('labelled tables', () => {
  it('write labels for the individual layout and read them back', () => {
    const t = individualTable(individualResult, auditSchema, { labels: true });
    expect(t.rows[0]!.slice(0, 6)).toEqual(['f', '1', 'a', '45', 'f|1|a|45', 'no']);
    expect(t.rows[1]!.slice(0, 6)).toEqual(['m', '1', 'a', '45', 'm|1|a|45', 'yes']);
    const back = readIndividualTable(
      resultToCsv(individualResult, auditSchema, { labels: true }),
      auditSchema,
      {
        labels: true,
      },
    );
    expect(back).toEqual(readIndividualTable(resultToCsv(individualResult, auditSchema), auditSchema));
  });

  it('write label sets and the decoded subgroup for the subgroup layout and read them back', () => {
    const r = copy(subgroupResult);
    r.findings = {
      kind: 'subgroup',
      subgroups: [
        {
          rank: 1,
          conditions: [
            { attribute: 'race', values: [2, 0] },
            { attribute: 'sex', min: 1, max: 1, maxInclusive: true },
            { attribute: 'income', min: 2, max: 5, maxInclusive: false },
          ],
          size: 31,
          score: 7.25,
          effect: -0.125,
          pValue: 0.02,
          direction: 'lower',
          details: {},
        },
      ],
    };
    const t = subgroupTable(r, auditSchema, { labels: true });
    expect(t.header.slice(0, 6)).toEqual(['sex', 'age', 'race', 'income', 'subgroup', 'subgroup_key']);
    expect(t.rows[0]!.slice(0, 6)).toEqual([
      'm',
      '*',
      'a;c',
      '[2,5)',
      'sex = m AND race != b AND 2 <= income < 5',
      'm|*|a;c|[2,5)',
    ]);
    const back = readSubgroupTable(resultToRecords(r, auditSchema, { labels: true }), auditSchema, {
      labels: true,
    });
    expect(back.subgroups[0]!.conditions).toEqual([
      { attribute: 'sex', values: [1] },
      { attribute: 'race', values: [0, 2] },
      { attribute: 'income', min: 2, max: 5, maxInclusive: false },
    ]);
  });
});
