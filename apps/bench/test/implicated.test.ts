import { type DiscoveryResult, defineSchema } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { implicatedValues } from '../src/run/run-cell.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['female', 'male'] },
    { name: 'age', kind: 'continuous', protected: true, min: 18, max: 90 },
    { name: 'job', kind: 'categorical', protected: false, categories: ['clerk', 'manager'] },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

/** Only the findings matter to implicatedValues. */
const result = (findings: DiscoveryResult['findings']) => ({ findings }) as DiscoveryResult;

describe('implicatedValues', () => {
  it("names an individual method's values at or above its attribute's mean DSN, in the data's labels", () => {
    const r = result({
      kind: 'individual',
      pairs: [],
      byAttributeValue: [
        { attribute: 'sex', value: 0, dsn: 9 },
        { attribute: 'sex', value: 1, dsn: 1 },
        { attribute: 'age', value: 30, dsn: 2 },
        { attribute: 'age', value: 40, dsn: 2 },
      ],
    } as unknown as DiscoveryResult['findings']);
    // sex: mean 5, so female only; age: both at the mean 2 (a number is its own label).
    expect(implicatedValues(r, schema)).toEqual(['age = 30', 'age = 40', 'sex = female']);
  });

  it("names the protected values of a subgroup method's top five subgroups, in the data's labels", () => {
    const subgroup = (rank: number, conditions: object[]) => ({ rank, conditions });
    const r = result({
      kind: 'subgroup',
      subgroups: [
        subgroup(1, [
          { attribute: 'sex', values: [1] },
          { attribute: 'job', values: [0] },
        ]),
        subgroup(2, [{ attribute: 'age', min: 18, max: 30, maxInclusive: false }]),
        subgroup(6, [{ attribute: 'sex', values: [0] }]),
      ],
    } as unknown as DiscoveryResult['findings']);
    // The non-protected job is left out, and so is the sixth-ranked subgroup.
    expect(implicatedValues(r, schema)).toEqual(['18 <= age < 30', 'sex = male']);
  });
});
