import { describe, expect, it } from 'vitest';
import {
  assertValidResult,
  checkResult,
  type DiscoveryResult,
  discoveryResultSchema,
  RESULT_SCHEMA_VERSION,
  ResultError,
  readResult,
} from '../src/index.js';
import { copy, individualResult, subgroupResult } from './fixtures.js';
import { expectError } from './helpers.js';

type Mutation = [string, (r: DiscoveryResult & Record<string, unknown>) => void];

describe('the DiscoveryResult contract', () => {
  it('validates the typed individual and subgroup fixtures', () => {
    expect(checkResult(individualResult)).toEqual({ valid: true, errors: '' });
    expect(checkResult(subgroupResult)).toEqual({ valid: true, errors: '' });
    expect(() => assertValidResult(individualResult)).not.toThrow();
  });

  it('the schema and the writer agree on the major version', () => {
    expect(RESULT_SCHEMA_VERSION).toMatch(/^1\.\d+\.\d+$/);
    expect(discoveryResultSchema.$id).toContain(RESULT_SCHEMA_VERSION);
  });

  const individualMutations: Mutation[] = [
    ['a missing top-level field', (r) => delete (r as Partial<DiscoveryResult>).extras],
    ['a missing metric', (r) => delete (r.metrics as Partial<DiscoveryResult['metrics']>).pairs],
    ['an extra top-level field', (r) => (r['note'] = 'x')],
    ['an extra metric', (r) => ((r.metrics as unknown as Record<string, number>)['fpr'] = 0)],
    ['an unknown method kind', (r) => ((r.method as { kind: string }).kind = 'group')],
    ['an unknown access', (r) => ((r.method as { access: string }).access = 'grey-box')],
    ['an unknown stop reason', (r) => ((r.run as { stopReason: string }).stopReason = 'done')],
    ['a negative tsn', (r) => (r.metrics.tsn = -1)],
    ['a fractional dsn', (r) => (r.metrics.dsn = 1.5)],
    ['sur above 1', (r) => (r.metrics.sur = 1.01)],
    ['a negative dss', (r) => (r.metrics.dss = -0.1)],
    ['a bad fingerprint', (r) => (r.dataset.fingerprint = 'XYZ')],
    ['no protected attribute', (r) => (r.dataset.protected = [])],
    ['a non-date startedAt', (r) => (r.run.startedAt = 'yesterday')],
    ['a zero time budget', (r) => (r.budget.maxSeconds = 0)],
    ['a fractional seed', (r) => (r.seed = 1.5)],
    ['a one-class model', (r) => (r.model = { description: null, nFeatures: 4, nClasses: 1 })],
    ['a major version 2', (r) => (r.schemaVersion = '2.0.0')],
    [
      'a pair that changes nothing',
      (r) => {
        if (r.findings.kind === 'individual') r.findings.pairs[0]!.changed = [];
      },
    ],
    [
      'subgroup findings under an individual kind',
      (r) => {
        (r.findings as unknown as Record<string, unknown>)['subgroups'] = [];
      },
    ],
  ];

  it.each(individualMutations)('rejects an individual result with %s', (_, mutate) => {
    const r = copy(individualResult) as DiscoveryResult & Record<string, unknown>;
    mutate(r);
    const check = checkResult(r);
    expect(check.valid).toBe(false);
    expect(check.errors.length).toBeGreaterThan(0);
    expectError(() => assertValidResult(r), ResultError, 'RESULT_INVALID');
  });

  const subgroupMutations: Mutation[] = [
    [
      'a condition with empty values',
      (r) => {
        if (r.findings.kind === 'subgroup')
          r.findings.subgroups[0]!.conditions[0] = { attribute: 'race', values: [] };
      },
    ],
    [
      'a condition mixing values and an interval',
      (r) => {
        if (r.findings.kind === 'subgroup')
          r.findings.subgroups[0]!.conditions[0] = { attribute: 'race', values: [1], min: 0 } as never;
      },
    ],
    [
      'an interval without maxInclusive',
      (r) => {
        if (r.findings.kind === 'subgroup')
          r.findings.subgroups[1]!.conditions[0] = { attribute: 'age', min: 0, max: 2 } as never;
      },
    ],
    [
      'rank 0',
      (r) => {
        if (r.findings.kind === 'subgroup') r.findings.subgroups[0]!.rank = 0;
      },
    ],
    [
      'a p-value above 1',
      (r) => {
        if (r.findings.kind === 'subgroup') r.findings.subgroups[0]!.pValue = 1.5;
      },
    ],
    [
      'an unknown direction',
      (r) => {
        if (r.findings.kind === 'subgroup')
          (r.findings.subgroups[0] as { direction: string }).direction = 'up';
      },
    ],
    [
      'a nested object in details',
      (r) => {
        if (r.findings.kind === 'subgroup')
          (r.findings.subgroups[0]!.details as Record<string, unknown>)['nested'] = { a: 1 };
      },
    ],
    [
      'a missing effect',
      (r) => {
        if (r.findings.kind === 'subgroup') delete (r.findings.subgroups[1] as { effect?: unknown }).effect;
      },
    ],
  ];

  it.each(subgroupMutations)('rejects a subgroup result with %s', (_, mutate) => {
    const r = copy(subgroupResult) as DiscoveryResult & Record<string, unknown>;
    mutate(r);
    expect(checkResult(r).valid).toBe(false);
  });

  it('names the offending field in the errors', () => {
    const r = copy(individualResult);
    r.metrics.sur = 2;
    expect(checkResult(r).errors).toContain('/metrics/sur');
  });
});

describe('readResult', () => {
  it('reads a JSON string or an object of any 1.x version', () => {
    const text = JSON.stringify({ ...individualResult, schemaVersion: '1.3.0' });
    expect(readResult(text)).toEqual({ ...individualResult, schemaVersion: '1.3.0' });
    expect(readResult(copy(subgroupResult))).toEqual(subgroupResult);
  });

  it('refuses another major version with a clear error', () => {
    const e = expectError(
      () => readResult(JSON.stringify({ ...individualResult, schemaVersion: '2.0.0' })),
      ResultError,
      'RESULT_INVALID',
    );
    expect(e.message).toContain('2.0.0');
  });

  it('refuses an invalid 1.x result', () => {
    expectError(
      () => readResult({ ...individualResult, metrics: { ...individualResult.metrics, tsn: -1 } }),
      ResultError,
      'RESULT_INVALID',
    );
    expectError(() => readResult({}), ResultError, 'RESULT_INVALID');
    expectError(() => readResult('{"schemaVersion": "1.0.0",'), ResultError, 'RESULT_INVALID');
  });
});
