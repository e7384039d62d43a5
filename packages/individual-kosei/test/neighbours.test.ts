import { createRng, defineSchema, inDomain } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { Neighbours } from '../src/neighbours.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'colour', kind: 'categorical', protected: false, categories: ['r', 'g', 'b'] },
    { name: 'g', kind: 'ordinal', protected: false, min: 10, max: 20, step: 2.5 },
    { name: 'c', kind: 'continuous', protected: false, min: 0, max: 1 },
    { name: 'tenth', kind: 'continuous', protected: false, min: 0.1, max: 1, step: 0.1 },
    { name: 'one', kind: 'ordinal', protected: false, min: 3, max: 3 },
  ],
  outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
});
const nb = new Neighbours(schema, 100);

describe('unit neighbours', () => {
  it('move only non-protected attributes', () => {
    expect(Array.from(nb.movable)).toEqual([1, 2, 3, 4, 5]);
    expect(nb.maxPerInput).toBe(10);
  });

  it('step along codes and grids, and leave the domain as NaN', () => {
    expect(nb.step(1, 0, -1)).toBeNaN();
    expect(nb.step(1, 0, 1)).toBe(1);
    expect(nb.step(1, 2, 1)).toBeNaN();
    expect(nb.step(2, 12.5, 1)).toBe(15);
    expect(nb.step(2, 12.5, -1)).toBe(10);
    expect(nb.step(2, 20, 1)).toBeNaN();
    expect(nb.step(4, 0.9, 1)).toBe(1);
    expect(nb.step(4, 0.2, -1)).toBe(0.1);
    // A one-value attribute has no neighbour.
    expect(nb.step(5, 3, 1)).toBeNaN();
    expect(nb.step(5, 3, -1)).toBeNaN();
  });

  it('step a continuous value to the next lattice point of (max - min) / continuousSteps', () => {
    expect(nb.step(3, 0.3, 1)).toBeCloseTo(0.31, 15);
    expect(nb.step(3, 0.3, -1)).toBeCloseTo(0.29, 15);
    // Off the lattice: the next point above and below.
    expect(nb.step(3, 0.305, 1)).toBeCloseTo(0.31, 15);
    expect(nb.step(3, 0.305, -1)).toBeCloseTo(0.3, 15);
    expect(nb.step(3, 0.995, 1)).toBe(1);
    expect(nb.step(3, 0.005, -1)).toBe(0);
    expect(nb.step(3, 1, 1)).toBeNaN();
  });

  it('come back to the very same value after a step up and a step down, inside the domain', () => {
    const rng = createRng('nb');
    for (let t = 0; t < 2000; t++) {
      const j = rng.int(1, 4);
      const start =
        j === 3
          ? rng.uniform(0, 1)
          : j === 4
            ? 0.1 * rng.int(1, 10)
            : j === 2
              ? 10 + 2.5 * rng.int(0, 4)
              : rng.int(0, 2);
      for (const s of [-1, 1] as const) {
        const once = nb.step(j, start, s);
        if (Number.isNaN(once)) continue;
        expect(inDomain(schema.attributes[j]!, once)).toBe(true);
        const twice = nb.step(j, once, s);
        if (Number.isNaN(twice)) continue;
        expect(nb.step(j, twice, s === 1 ? -1 : 1)).toBe(once);
      }
    }
  });
});
