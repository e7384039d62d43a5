import { createRng, defineSchema, inDomain } from '@fb/core';
import { regionSchema } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { accepts } from '../src/acceptance.js';
import { LocalStepper } from '../src/local-step.js';
import { chooseDirection, updateAttributeWeights, updateDirection } from '../src/probabilities.js';
import { SearchSpace } from '../src/search-space.js';

describe('direction probabilities', () => {
  it('move towards the direction that found discrimination and away from the one that did not', () => {
    const p = new Float64Array([0.5, 0.5, 0.5, 0.5]);
    updateDirection(p, 0, -1, true, 0.001);
    updateDirection(p, 1, 1, true, 0.001);
    updateDirection(p, 2, -1, false, 0.001);
    updateDirection(p, 3, 1, false, 0.001);
    expect(Array.from(p)).toEqual([0.501, 0.499, 0.499, 0.501]);
  });

  it('stay inside [0, 1]', () => {
    const p = new Float64Array([0.9995, 0.0005]);
    updateDirection(p, 0, -1, true, 0.001);
    updateDirection(p, 1, -1, false, 0.001);
    expect(Array.from(p)).toEqual([1, 0]);
  });

  it('choose down with probability pDown and a fair coin at a bound', () => {
    const rng = createRng('dir');
    const n = 20000;
    let down = 0;
    let downAtBound = 0;
    for (let i = 0; i < n; i++) {
      if (chooseDirection(rng, 0.8, false) === -1) down++;
      if (chooseDirection(rng, 1, true) === -1) downAtBound++;
      expect(chooseDirection(rng, 1, false)).toBe(-1);
      expect(chooseDirection(rng, 0, false)).toBe(1);
    }
    // 4 standard deviations of a binomial proportion.
    expect(Math.abs(down / n - 0.8)).toBeLessThan(4 * Math.sqrt((0.8 * 0.2) / n));
    expect(Math.abs(downAtBound / n - 0.5)).toBeLessThan(4 * Math.sqrt(0.25 / n));
  });
});

describe('attribute weights (fully-directed)', () => {
  it('add or subtract delta, then renormalise', () => {
    const w = new Float64Array([0.25, 0.25, 0.25, 0.25]);
    updateAttributeWeights(w, 0, true, 0.001);
    expect(w[0]).toBeCloseTo(0.251 / 1.001, 15);
    expect(w[1]).toBeCloseTo(0.25 / 1.001, 15);
    const v = new Float64Array([0.5, 0.5]);
    updateAttributeWeights(v, 1, false, 0.1);
    expect(v[0]).toBeCloseTo(0.5 / 0.9, 15);
    expect(v[1]).toBeCloseTo(0.4 / 0.9, 15);
  });

  it('floor at zero', () => {
    const w = new Float64Array([0.0004, 0.9996]);
    updateAttributeWeights(w, 0, false, 0.001);
    expect(w[0]).toBe(0);
    expect(w[1]).toBe(1);
  });

  it('remain a probability distribution under any sequence of updates', () => {
    const rng = createRng('weights');
    const w = new Float64Array(7).fill(1 / 7);
    for (let i = 0; i < 20000; i++) {
      updateAttributeWeights(w, rng.int(0, 6), rng.bernoulli(0.3), rng.uniform(0, 0.05));
      let sum = 0;
      for (const x of w) {
        expect(x).toBeGreaterThanOrEqual(0);
        sum += x;
      }
      expect(sum).toBeCloseTo(1, 12);
    }
  });
});

describe('acceptance', () => {
  const rng = createRng('accept');

  it('always moves to a discriminatory candidate; greedy never to another', () => {
    for (let i = 0; i < 100; i++) {
      expect(accepts('metropolis', true, true, 1, rng)).toBe(true);
      expect(accepts('metropolis', false, true, 1, rng)).toBe(true);
      expect(accepts('greedy', true, true, 1, rng)).toBe(true);
      expect(accepts('greedy', true, false, 1, rng)).toBe(false);
      // Equal objective (both non-discriminatory): Metropolis accepts.
      expect(accepts('metropolis', false, false, 1, rng)).toBe(true);
    }
  });

  it.each([1, 0.5, 3])('metropolis leaves a discriminatory point with probability exp(-1/T), T = %s', (t) => {
    const n = 20000;
    let moved = 0;
    for (let i = 0; i < n; i++) if (accepts('metropolis', true, false, t, rng)) moved++;
    const p = Math.exp(-1 / t);
    expect(Math.abs(moved / n - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / n));
  });
});

describe('search space', () => {
  const space = new SearchSpace(regionSchema, 2, 50);

  it('draws every attribute uniformly inside its domain', () => {
    const rng = createRng('space');
    const n = 8000;
    const row = new Float64Array(space.d);
    const colours = new Int32Array(4);
    let cMin = 1;
    let cMax = 0;
    for (let i = 0; i < n; i++) {
      space.sample(rng, row, 0);
      expect(regionSchema.attributes.every((a, j) => inDomain(a, row[j]!))).toBe(true);
      colours[row[4]!]!++;
      cMin = Math.min(cMin, row[3]!);
      cMax = Math.max(cMax, row[3]!);
    }
    for (const c of colours) expect(Math.abs(c / n - 0.25)).toBeLessThan(4 * Math.sqrt(0.1875 / n));
    expect(cMin).toBeLessThan(0.01);
    expect(cMax).toBeGreaterThan(0.99);
  });

  it('moves by perturbationUnit grid steps, or a share of the range when continuous, and clips', () => {
    expect(Array.from(space.movable)).toEqual([1, 2, 3, 4]);
    const row = Float64Array.from([1, 50, 19, 0.5, 3]);
    space.move(row, 1, -1);
    expect(row[1]).toBe(48);
    space.move(row, 2, 1);
    expect(row[2]).toBe(19);
    expect(space.atBound(row, 2)).toBe(true);
    space.move(row, 3, 1);
    expect(row[3]).toBeCloseTo(0.54, 12); // 2 x (1 - 0) / 50
    space.move(row, 4, 1);
    expect(row[4]).toBe(3);
  });

  it('snaps moves on a non-unit grid', () => {
    const grid = new SearchSpace(
      defineSchema({
        attributes: [
          { name: 'p', kind: 'categorical', protected: true, categories: ['x', 'y'] },
          { name: 'g', kind: 'ordinal', protected: false, min: 10, max: 20, step: 2.5 },
        ],
        outcome: { name: 'o', labels: ['0', '1'], favorable: 1 },
      }),
      1,
      100,
    );
    const row = Float64Array.from([0, 12.5]);
    grid.move(row, 1, 1);
    expect(row[1]).toBe(15);
    grid.move(row, 1, -1);
    grid.move(row, 1, -1);
    grid.move(row, 1, -1);
    expect(row[1]).toBe(10);
  });
});

describe('local stepper', () => {
  const space = new SearchSpace(regionSchema, 1, 100);

  it.each(['random', 'semi-directed', 'fully-directed'] as const)(
    '%s changes one non-protected attribute by at most one unit per step',
    (strategy) => {
      const stepper = new LocalStepper(space, strategy, 0.001, 0.001);
      const rng = createRng(strategy);
      const row = Float64Array.from([1, 45, 12, 0.3, 2]);
      const before = new Float64Array(row.length);
      for (let i = 0; i < 2000; i++) {
        before.set(row);
        stepper.step(rng, row);
        stepper.learn(rng.bernoulli(0.5));
        expect(row[0]).toBe(1);
        let changed = 0;
        for (let j = 1; j < row.length; j++) {
          if (row[j] === before[j]) continue;
          changed++;
          const step = Math.abs(row[j]! - before[j]!);
          // Grid attributes move by exactly one unit; the continuous one by at most one (clipping).
          if (j === 3) expect(step).toBeLessThanOrEqual(space.unit[j]! + 1e-12);
          else expect(step).toBe(space.unit[j]);
        }
        expect(changed).toBeLessThanOrEqual(1);
      }
    },
  );

  it('learns only in the directed strategies; fully-directed prefers attributes that succeed', () => {
    const rng = createRng('learn');
    const row = Float64Array.from([1, 45, 12, 0.3, 2]);
    const random = new LocalStepper(space, 'random', 0.01, 0.01);
    const fully = new LocalStepper(space, 'fully-directed', 0.01, 0.01);
    for (let i = 0; i < 500; i++) {
      for (const s of [random, fully]) {
        const copy = row.slice();
        s.step(rng, copy);
        // Only moves of attribute b (position 2) succeed.
        s.learn(copy[2] !== row[2]);
      }
    }
    expect(Array.from(random.pDown)).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(Array.from(random.weights)).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(fully.weights[1]).toBeGreaterThan(0.9);
    expect(fully.weights.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
  });
});
