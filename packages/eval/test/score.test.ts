import type { DiscoveryResult, SubgroupFinding } from '@fb/core';
import { generatePlantedPair } from '@fb/synth';
import { describe, expect, it } from 'vitest';
import { jaccard, scoreIndividual, scoreSubgroup } from '../src/index.js';

const g = generatePlantedPair({ rows: 3000, protectedAttributes: 1, protectedValues: 3, granularity: 1 }, 21);
const { dataset, truth } = g;
const attrs = dataset.schema.attributes;
const index = (name: string) => attrs.findIndex((a) => a.name === name);
const conditionValue = (conds: typeof truth.pair.disadvantaged, name: string) => {
  const c = conds.find((k) => k.attribute === name);
  return c && 'values' in c ? c.values[0]! : undefined;
};

function shell(findings: DiscoveryResult['findings']): DiscoveryResult {
  return { findings } as DiscoveryResult;
}

/** A row in subgroup `conds` (others at 0), and its twin with protected value `twin`. */
function rowIn(conds: typeof truth.pair.disadvantaged): number[] {
  const row = new Array<number>(attrs.length).fill(0);
  for (const c of conds) if ('values' in c) row[index(c.attribute)] = c.values[0]!;
  return row;
}

describe('scoreIndividual', () => {
  const a = rowIn(truth.pair.disadvantaged);
  const b = rowIn(truth.pair.reference);
  const protectedName = truth.pair.protectedAttribute;
  const other = [0, 1, 2].find(
    (v) =>
      v !== conditionValue(truth.pair.disadvantaged, protectedName) &&
      v !== conditionValue(truth.pair.reference, protectedName),
  )!;
  const c = a.slice();
  c[index(protectedName)] = other;
  // Outside the shared constraint: move the constrained non-protected attribute off its value.
  const shared = truth.pair.disadvantaged[1]!;
  const outside = a.slice();
  const sharedValue = 'values' in shared ? shared.values[0]! : 0;
  outside[index(shared.attribute)] = (sharedValue + 1) % 4;
  const outsideTwin = outside.slice();
  outsideTwin[index(protectedName)] = b[index(protectedName)]!;

  const pair = (sample: number[], counterfactual: number[], caseId: number) => ({
    caseId,
    sample,
    counterfactual,
    sampleOutcome: 0,
    counterfactualOutcome: 1,
    changed: [protectedName],
  });

  it('counts pairs on the planted pair in either order, and truly biased samples', () => {
    const result = shell({
      kind: 'individual',
      pairs: [pair(a, b, 0), pair(b, a, 1), pair(a, c, 2), pair(outside, outsideTwin, 3)],
      byAttributeValue: [],
    });
    const s = scoreIndividual(result, dataset, truth);
    expect(s.pairs).toBe(4);
    expect(s.pairsOnPlantedPair).toBe(2);
    // a, b and c meet the shared constraint; `outside` does not.
    expect(s.pairsTrulyBiased).toBe(3);
    expect(s.precision).toBeCloseTo(0.75, 12);
    expect(s.hit).toBe(true);
  });

  it('reports no hit and null precision without pairs', () => {
    const s = scoreIndividual(shell({ kind: 'individual', pairs: [], byAttributeValue: [] }), dataset, truth);
    expect(s).toMatchObject({ pairs: 0, hit: false, precision: null });
  });
});

describe('scoreSubgroup', () => {
  const finding = (rank: number, conditions: SubgroupFinding['conditions']): SubgroupFinding => ({
    rank,
    conditions,
    size: 0,
    score: 1,
    effect: null,
    pValue: null,
    direction: 'lower',
    details: {},
  });

  it('gives Jaccard 1 for the planted subgroup itself and less for a superset', () => {
    const exact = scoreSubgroup(
      shell({ kind: 'subgroup', subgroups: [finding(1, truth.pair.disadvantaged)] }),
      dataset,
      truth,
    );
    expect(exact.bestJaccard).toBe(1);
    expect(exact.hit).toBe(true);
    const superset = scoreSubgroup(
      shell({ kind: 'subgroup', subgroups: [finding(1, truth.pair.disadvantaged.slice(0, 1))] }),
      dataset,
      truth,
    );
    expect(superset.bestJaccard).toBeGreaterThan(0);
    expect(superset.bestJaccard).toBeLessThan(0.5);
    expect(superset.hit).toBe(false);
  });

  it('picks the best-overlapping finding and its rank', () => {
    const s = scoreSubgroup(
      shell({
        kind: 'subgroup',
        subgroups: [finding(1, truth.pair.reference), finding(2, truth.pair.disadvantaged)],
      }),
      dataset,
      truth,
    );
    expect(s.bestRank).toBe(2);
    expect(s.findings).toBe(2);
  });
});

describe('jaccard', () => {
  it('matches hand-computed values', () => {
    expect(jaccard(Uint8Array.from([1, 1, 0, 0]), Uint8Array.from([0, 1, 1, 0]))).toBeCloseTo(1 / 3, 12);
    expect(jaccard(Uint8Array.from([0, 0]), Uint8Array.from([0, 0]))).toBe(0);
  });
});
