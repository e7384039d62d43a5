import { describe, expect, it } from 'vitest';
import { conditionMatcher, createRng, DomainSampler, defineSchema, inDomain } from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f', 'x'] },
    { name: 'grade', kind: 'ordinal', protected: false, min: 1, max: 3, step: 0.5 },
    { name: 'hours', kind: 'continuous', protected: false, min: 10, max: 20 },
  ],
  outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 },
});

describe('DomainSampler', () => {
  it('draws every value in its domain, each grid point about equally often', () => {
    const sampler = new DomainSampler(schema);
    const n = 30_000;
    const out = new Float64Array(n * 3);
    sampler.fill(createRng(5), out);
    const sexCounts = [0, 0, 0];
    const gradeCounts = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      schema.attributes.forEach((a, j) => {
        expect(inDomain(a, out[i * 3 + j]!)).toBe(true);
      });
      sexCounts[out[i * 3]!]!++;
      gradeCounts.set(out[i * 3 + 1]!, (gradeCounts.get(out[i * 3 + 1]!) ?? 0) + 1);
    }
    for (const c of sexCounts) expect(Math.abs(c - n / 3)).toBeLessThan(4 * Math.sqrt(n / 3));
    expect([...gradeCounts.keys()].sort()).toEqual([1, 1.5, 2, 2.5, 3]);
    for (const c of gradeCounts.values()) expect(Math.abs(c - n / 5)).toBeLessThan(4 * Math.sqrt(n / 5));
  });

  it('is reproducible for a seed', () => {
    const a = new Float64Array(30);
    const b = new Float64Array(30);
    new DomainSampler(schema).fill(createRng(1), a);
    new DomainSampler(schema).fill(createRng(1), b);
    expect(Array.from(a)).toEqual(Array.from(b));
  });
});

describe('conditionMatcher', () => {
  it('matches value sets and half-open or closed intervals at an offset', () => {
    const m = conditionMatcher(schema, [
      { attribute: 'sex', values: [0, 2] },
      { attribute: 'hours', min: 12, max: 15, maxInclusive: false },
    ]);
    const rows = [9, 9, 9, 2, 1, 12, 0, 3, 15, 1, 1, 13];
    expect([3, 6, 9].map((off) => m(rows, off))).toEqual([true, false, false]);
    const closed = conditionMatcher(schema, [{ attribute: 'hours', min: 12, max: 15, maxInclusive: true }]);
    expect(closed(rows, 6)).toBe(true);
    expect(conditionMatcher(schema, [])(rows, 0)).toBe(true);
  });
});
