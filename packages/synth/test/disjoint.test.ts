import { memberMask } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/index.js';

/** Largest number of subgroups (of any pair) one row belongs to. */
function maxMembership(seed: number, disjointSubgroups: boolean): number {
  const { dataset, truth } = generate({
    seed,
    attributes: 8,
    pairs: 4,
    minIntersectionality: 1,
    maxIntersectionality: 1,
    minGranularity: 2,
    maxGranularity: 3,
    minGroupSize: 60,
    maxGroupSize: 80,
    disjointSubgroups,
    ensembleSize: 0,
    threads: 1,
  });
  const counts = new Int32Array(dataset.n);
  for (const s of truth.subgroups) {
    const mask = memberMask(dataset, s.conditions);
    for (let i = 0; i < dataset.n; i++) counts[i]! += mask[i]!;
  }
  return counts.reduce((a, b) => Math.max(a, b), 0);
}

describe('disjointSubgroups', () => {
  it('no row meets the conditions of two subgroups', () => {
    for (const seed of [1, 2, 3, 4, 5]) expect(maxMembership(seed, true)).toBeLessThanOrEqual(1);
  });

  it('without it, subgroups of different pairs overlap on some seed (the check can fail)', () => {
    expect(Math.max(...[1, 2, 3, 4, 5].map((seed) => maxMembership(seed, false)))).toBeGreaterThan(1);
  });
});
