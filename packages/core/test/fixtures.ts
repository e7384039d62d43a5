import type { DiscoveryResult } from '../src/index.js';

/** A complete individual result over the audit schema (sex, age, race, income). */
export const individualResult: DiscoveryResult = {
  schemaVersion: '1.0.0',
  method: {
    id: 'toy-individual',
    version: '0.1.0',
    kind: 'individual',
    access: 'black-box',
    options: { batchSize: 8, variantMode: 'all-combinations' },
  },
  dataset: {
    name: 'toy',
    fingerprint: '0123456789abcdef',
    rows: 5,
    attributes: ['sex', 'age', 'race', 'income'],
    protected: ['sex', 'race'],
    outcome: 'approved',
  },
  model: { description: 'rule', nFeatures: 4, nClasses: 2 },
  seed: 42,
  budget: { maxSeconds: 2.5, maxTested: null, maxQueries: null },
  run: { startedAt: '2024-05-01T12:00:00.000Z', wallSeconds: 0.5, stopReason: 'completed', aborted: false },
  metrics: { tsn: 4, dsn: 2, sur: 0.5, dss: 0.25, pairs: 2, queries: 24, distinctQueries: 24 },
  findings: {
    kind: 'individual',
    pairs: [
      {
        caseId: 0,
        sample: [0, 1, 0, 45],
        counterfactual: [1, 1, 0, 45],
        sampleOutcome: 0,
        counterfactualOutcome: 1,
        changed: ['sex'],
      },
      {
        caseId: 1,
        sample: [1, 0, 0, 38.5],
        counterfactual: [1, 0, 2, 38.5],
        sampleOutcome: 0,
        counterfactualOutcome: 1,
        changed: ['race'],
      },
    ],
    byAttributeValue: [
      { attribute: 'sex', value: 0, label: 'f', dsn: 1, pairs: 1 },
      { attribute: 'sex', value: 1, label: 'm', dsn: 1, pairs: 1 },
      { attribute: 'race', value: 0, label: 'a', dsn: 1, pairs: 1 },
      { attribute: 'race', value: 1, label: 'b', dsn: 0, pairs: 0 },
      { attribute: 'race', value: 2, label: 'c', dsn: 1, pairs: 1 },
    ],
  },
  extras: { phases: { global: 3, local: 1 } },
};

/** A complete subgroup result over the audit schema. */
export const subgroupResult: DiscoveryResult = {
  schemaVersion: '1.2.0',
  method: {
    id: 'toy-subgroup',
    version: '1.0.0',
    kind: 'subgroup',
    access: 'data-only',
    options: { alpha: 0.05 },
  },
  dataset: {
    name: null,
    fingerprint: 'fedcba9876543210',
    rows: 400,
    attributes: ['sex', 'age', 'race', 'income'],
    protected: ['sex', 'race'],
    outcome: 'approved',
  },
  model: null,
  seed: 'study-1',
  budget: { maxSeconds: null, maxTested: null, maxQueries: null },
  run: { startedAt: '2024-05-01T12:00:00Z', wallSeconds: 1.25, stopReason: 'time-budget', aborted: false },
  metrics: { tsn: 400, dsn: 2, sur: 0.005, dss: 0.625, pairs: 0, queries: 0, distinctQueries: 0 },
  findings: {
    kind: 'subgroup',
    subgroups: [
      {
        rank: 1,
        conditions: [
          { attribute: 'race', values: [1, 2] },
          { attribute: 'income', min: 20, max: 50, maxInclusive: false },
        ],
        size: 57,
        score: 12.5,
        effect: -0.21,
        pValue: 0.001,
        direction: 'lower',
        details: { q: 0.4, note: 'strongest', significant: true, extra: null },
      },
      {
        rank: 2,
        conditions: [{ attribute: 'age', min: 2, max: 4, maxInclusive: true }],
        size: 120,
        score: 3,
        effect: null,
        pValue: null,
        direction: null,
        details: {},
      },
    ],
  },
  extras: {},
};

/** A deep copy to mutate. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
