import { createRng, defineSchema, ProtectedVariants } from '@fb/core';
import { probabilityModel, regionSchema } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { rankOf } from '../src/explainer.js';
import { probabilityGap } from '../src/fitness.js';
import { crossover, GeneSampler, mutate, select } from '../src/operators.js';
import { scripted } from './fixtures.js';

const rows = (pop: Float64Array, d: number) =>
  Array.from({ length: pop.length / d }, (_, i) => Array.from(pop.subarray(i * d, (i + 1) * d)));

describe('crossover', () => {
  it('copies one non-empty slice [a, b) from a mate, in place and in population order', () => {
    const pop = Float64Array.from([0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23]);
    // i = 0 crosses (mate 1, a 1, b 3); i = 1 does not; i = 2 crosses with the already changed 0 (a 0, b 2).
    const rng = scripted({ next: [0.5, 0.95, 0.1], int: [1, 1, 3, 0, 0, 2] });
    crossover(rng, pop, 3, 4, 0.9, false);
    expect(rows(pop, 4)).toEqual([
      [0, 11, 12, 3],
      [10, 11, 12, 13],
      [0, 11, 22, 23],
    ]);
    expect(rng.left()).toBe(0);
  });

  it('draws the slice end in (a, d]', () => {
    const pop = Float64Array.from([0, 1, 2, 3, 10, 11, 12, 13]);
    // b = a is outside (a, d]: the scripted draw is refused.
    expect(() => crossover(scripted({ next: [0], int: [1, 2, 2] }), pop, 2, 4, 1, false)).toThrow(/outside/);
    crossover(scripted({ next: [0, 1], int: [1, 2, 4] }), pop, 2, 4, 0.5, false);
    expect(rows(pop, 4)[0]).toEqual([0, 1, 12, 13]);
  });

  it('reproduces the original slice end in [0, d - a) with referenceOperators', () => {
    const pop = Float64Array.from([0, 1, 2, 3, 10, 11, 12, 13]);
    // a = 2, b = 1: the slice [2, 1) is empty and nothing changes.
    crossover(scripted({ next: [0, 1], int: [1, 2, 1] }), pop, 2, 4, 0.9, true);
    expect(rows(pop, 4)[0]).toEqual([0, 1, 2, 3]);
    // a = 1, b = 2 (the largest allowed is d - a - 1 = 2): copies gene 1 only.
    crossover(scripted({ next: [0, 1], int: [1, 1, 2] }), pop, 2, 4, 0.9, true);
    expect(rows(pop, 4)[0]).toEqual([0, 11, 2, 3]);
    expect(() => crossover(scripted({ next: [0], int: [1, 1, 3] }), pop, 2, 4, 0.9, true)).toThrow(/outside/);
  });
});

describe('mutation', () => {
  it('redraws each non-protected gene with probability rate, uniformly over its whole domain', () => {
    const genes = new GeneSampler(regionSchema, false);
    expect(Array.from(genes.mutable)).toEqual([1, 2, 3, 4]);
    const pop = Float64Array.from([1, 50, 5, 0.5, 2]);
    // Genes a and c mutate (draws below 0.05); a takes its largest value 99, c a uniform 0.25.
    const rng = scripted({ next: [0.01, 0.9, 0.04, 0.06], int: [99], uniform: [0.25] });
    mutate(rng, pop, 1, genes, 0.05);
    expect(Array.from(pop)).toEqual([1, 99, 5, 0.25, 2]);
    expect(rng.left()).toBe(0);
  });

  it('mutates the protected gene and never draws the maximum with referenceOperators', () => {
    const genes = new GeneSampler(regionSchema, true);
    expect(Array.from(genes.mutable)).toEqual([0, 1, 2, 3, 4]);
    // sex can only become 0, a at most 98, colour at most 2.
    const pop = Float64Array.from([1, 50, 5, 0.5, 3]);
    mutate(scripted({ next: [0, 0, 1, 1, 0], int: [0, 98, 2] }), pop, 1, genes, 0.05);
    expect(Array.from(pop)).toEqual([0, 98, 5, 0.5, 2]);
    expect(() => mutate(scripted({ next: [1, 0], int: [99] }), pop, 1, genes, 0.05)).toThrow(/outside/);
  });
});

describe('roulette selection', () => {
  it('never picks a zero-fitness individual, and picks uniformly when all are zero', () => {
    const rng = createRng('select');
    expect(Array.from(select(rng, Float64Array.from([0, 0, 2]), 50))).toEqual(new Array(50).fill(2));
    expect(Array.from(select(scripted({ int: [2, 0, 1] }), new Float64Array(3), 3))).toEqual([2, 0, 1]);
  });

  it('picks in proportion to fitness', () => {
    const n = 20000;
    const picks = select(createRng('roulette'), Float64Array.from([1, 3]), n);
    const share = picks.reduce((s, v) => s + v, 0) / n;
    expect(Math.abs(share - 0.75)).toBeLessThan(4 * Math.sqrt((0.75 * 0.25) / n));
  });
});

const twoProtected = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
    { name: 'x', kind: 'ordinal', protected: false, min: 0, max: 9, step: 1 },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

describe('protected variants and the probability-gap fitness', () => {
  const input = Float64Array.from([1, 2, 7]);

  it('builds every other combination, or each attribute changed alone', () => {
    const all = new ProtectedVariants(twoProtected, 'all-combinations');
    const out = new Float64Array(5 * 3);
    expect(all.perInput).toBe(5);
    expect(all.write(input, 0, out, 0)).toBe(5);
    expect(rows(out, 3)).toEqual([
      [0, 0, 7],
      [0, 1, 7],
      [0, 2, 7],
      [1, 0, 7],
      [1, 1, 7],
    ]);
    const alone = new ProtectedVariants(twoProtected, 'one-at-a-time');
    expect(alone.perInput).toBe(3);
    expect(alone.write(input, 0, out, 0)).toBe(3);
    expect(rows(out.subarray(0, 9), 3)).toEqual([
      [0, 2, 7],
      [1, 0, 7],
      [1, 1, 7],
    ]);
  });

  it('is the largest gap in the probability of the predicted class', () => {
    // p(yes) = 0.1 + 0.2 sex + 0.05 race: the input gets 0.4, so "no" (0.6) is its class.
    const model = probabilityModel('linear', (r) => 0.1 + 0.2 * r[0]! + 0.05 * r[1]!, 3) as Parameters<
      typeof probabilityGap
    >[0];
    // Variants' p(no): 0.9, 0.85, 0.8, 0.7, 0.65; the largest gap to 0.6 is 0.3.
    const all = probabilityGap(model, new ProtectedVariants(twoProtected, 'all-combinations'), input, 1);
    expect(all[0]).toBeCloseTo(0.3, 12);
    // One at a time: (0, 2) 0.8, (1, 0) 0.7, (1, 1) 0.65: 0.2.
    const alone = probabilityGap(model, new ProtectedVariants(twoProtected, 'one-at-a-time'), input, 1);
    expect(alone[0]).toBeCloseTo(0.2, 12);
  });
});

describe('rankOf', () => {
  it('ranks by decreasing |coefficient|, ties in attribute order', () => {
    const coef = Float64Array.from([0.5, -2, 0.5, 1]);
    expect([0, 1, 2, 3].map((j) => rankOf(coef, j))).toEqual([2, 0, 3, 1]);
  });
});
