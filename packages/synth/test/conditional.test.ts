import { createRng, defineSchema } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { sampleConditionalLatent } from '../src/conditional.js';
import { buildCopula, latentToValues, sampleCopula } from '../src/copula.js';
import {
  cellLatent,
  continuousFromQuantiles,
  type DiscreteMarginal,
  discreteMarginal,
} from '../src/marginal.js';

const schema = defineSchema({
  attributes: [
    { name: 'a', kind: 'categorical', protected: true, categories: ['0', '1', '2'] },
    { name: 'b', kind: 'categorical', protected: false, categories: ['0', '1', '2', '3'] },
    { name: 'c', kind: 'categorical', protected: false, categories: ['0', '1', '2'] },
    { name: 'v', kind: 'continuous', protected: false, min: 0, max: 1 },
  ],
  outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
});
const probs = [
  [0.5, 0.3, 0.2],
  [0.25, 0.25, 0.25, 0.25],
  [0.2, 0.5, 0.3],
];
const marginals = [
  ...probs.map((p, j) => discreteMarginal(schema.attributes[j]!, Float64Array.from(p))),
  continuousFromQuantiles([0, 0.2, 0.5, 1]),
];
const r = [1, 0.6, -0.4, 0.5, 0.6, 1, 0.1, 0.7, -0.4, 0.1, 1, -0.3, 0.5, 0.7, -0.3, 1];
const copula = buildCopula(schema, marginals, Float64Array.from(r));

function conditional(cells: [number, number][], n: number, seed: number): Float64Array {
  const m = cells.length;
  const box = { index: new Int32Array(m), lo: new Float64Array(m), hi: new Float64Array(m) };
  cells.forEach(([j, k], t) => {
    box.index[t] = j;
    [box.lo[t]!, box.hi[t]!] = cellLatent(marginals[j] as DiscreteMarginal, k);
  });
  const z = new Float64Array(n * 4);
  sampleConditionalLatent(copula, box, n, createRng(seed), z, 0);
  return latentToValues(copula, z);
}

describe('conditional sampling', () => {
  it('satisfies the constraints and matches rejection sampling of the same condition', () => {
    // a = 1 and b = 2: about 10% of the population, so rejection is a fair reference.
    const n = 20_000;
    const cond = conditional(
      [
        [0, 1],
        [1, 2],
      ],
      n,
      1,
    );
    for (let i = 0; i < n; i++) {
      expect(cond[i * 4]).toBe(1);
      expect(cond[i * 4 + 1]).toBe(2);
    }
    const pool = sampleCopula(copula, 400_000, createRng(2));
    const kept: number[] = [];
    for (let i = 0; i < 400_000; i++) if (pool[i * 4] === 1 && pool[i * 4 + 1] === 2) kept.push(i);
    expect(kept.length).toBeGreaterThan(10_000);
    const dist = (x: Float64Array, rows: ArrayLike<number>, j: number, k: number) => {
      let c = 0;
      for (let t = 0; t < rows.length; t++) if (x[rows[t]! * 4 + j] === k) c++;
      return c / rows.length;
    };
    const all = Array.from({ length: n }, (_, i) => i);
    for (let k = 0; k < 3; k++)
      expect(Math.abs(dist(cond, all, 2, k) - dist(pool, kept, 2, k))).toBeLessThan(0.02);
    const mean = (x: Float64Array, rows: ArrayLike<number>) => {
      let s = 0;
      for (let t = 0; t < rows.length; t++) s += x[rows[t]! * 4 + 3]!;
      return s / rows.length;
    };
    expect(Math.abs(mean(cond, all) - mean(pool, kept))).toBeLessThan(0.01);
  });

  it('samples a combination too rare for rejection, quickly and exactly', () => {
    // a = 2, b = 0, c = 0 against the correlations: far below one in a million under rejection.
    const rare = buildCopula(
      schema,
      marginals,
      Float64Array.from([1, 0.95, 0.9, 0, 0.95, 1, 0.9, 0, 0.9, 0.9, 1, 0, 0, 0, 0, 1]),
    );
    const box = { index: Int32Array.from([0, 1, 2]), lo: new Float64Array(3), hi: new Float64Array(3) };
    [
      [0, 2],
      [1, 0],
      [2, 0],
    ].forEach(([j, k], t) => {
      [box.lo[t]!, box.hi[t]!] = cellLatent(marginals[j!] as DiscreteMarginal, k!);
    });
    const z = new Float64Array(2000 * 4);
    const proposals = sampleConditionalLatent(rare, box, 2000, createRng(5), z, 0);
    expect(2000 / proposals).toBeGreaterThan(0.8);
    const x = latentToValues(rare, z);
    for (let i = 0; i < 2000; i++) expect([x[i * 4], x[i * 4 + 1], x[i * 4 + 2]]).toEqual([2, 0, 0]);
  });
});
