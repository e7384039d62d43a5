import { countMembers, createRng, OptionsError } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { generatePlantedPair } from '../src/index.js';

describe('generatePlantedPair', () => {
  it('is reproducible per seed and differs across seeds', () => {
    const a = generatePlantedPair({ rows: 500 }, 3);
    const b = generatePlantedPair({ rows: 500 }, 3);
    const c = generatePlantedPair({ rows: 500 }, 4);
    expect(Array.from(a.dataset.x)).toEqual(Array.from(b.dataset.x));
    expect(Array.from(a.dataset.y)).toEqual(Array.from(b.dataset.y));
    expect(Array.from(a.dataset.x)).not.toEqual(Array.from(c.dataset.x));
  });

  it('plants a pair differing only in one protected value, with membership matching the conditions', () => {
    const g = generatePlantedPair({ rows: 4000, granularity: 2 }, 11);
    const { disadvantaged, reference, protectedAttribute } = g.truth.pair;
    expect(disadvantaged).toHaveLength(3);
    expect(disadvantaged.slice(1)).toEqual(reference.slice(1));
    expect(disadvantaged[0]!.attribute).toBe(protectedAttribute);
    expect(disadvantaged[0]).not.toEqual(reference[0]);
    const countA = g.truth.membership.filter((m) => m === 1).length;
    const countB = g.truth.membership.filter((m) => m === 2).length;
    expect(countA).toBe(countMembers(g.dataset, disadvantaged));
    expect(countB).toBe(countMembers(g.dataset, reference));
    expect(countA).toBeGreaterThan(0);
  });

  it('injects the bias: the disadvantaged subgroup has a lower favourable rate than its twin', () => {
    const g = generatePlantedPair({ rows: 40_000, bias: -2.5, granularity: 1 }, 5);
    const rate = (side: number) => {
      let n = 0;
      let fav = 0;
      g.truth.membership.forEach((m, i) => {
        if (m !== side) return;
        n++;
        fav += g.dataset.y[i]!;
      });
      return fav / n;
    };
    // Same shared constraints and independent attributes: the twin's rate is the counterfactual rate.
    expect(rate(2) - rate(1)).toBeGreaterThan(0.25);
  });

  it('has a structural probability in which only the pair separates protected values', () => {
    const g = generatePlantedPair({ rows: 200, bias: -3 }, 9);
    const { dataset, truth } = g;
    const rng = createRng('probe');
    const d = dataset.d;
    for (let t = 0; t < 200; t++) {
      const i = rng.int(0, dataset.n - 1);
      const row = dataset.x.slice(i * d, (i + 1) * d);
      const variants = new Float64Array(3 * d);
      for (let v = 0; v < 3; v++) {
        variants.set(row, v * d);
        variants[v * d] = v;
      }
      const p = truth.probability(variants);
      const spread = Math.max(...p) - Math.min(...p);
      expect(spread > 1e-12).toBe(truth.isBiasedInput(row, 0));
    }
  });

  it('zero bias gives no biased input and identical probabilities across protected values', () => {
    const g = generatePlantedPair({ rows: 100, bias: 0 }, 2);
    const d = g.dataset.d;
    for (let i = 0; i < g.dataset.n; i++) {
      const row = g.dataset.x.slice(i * d, (i + 1) * d);
      expect(g.truth.isBiasedInput(row, 0)).toBe(false);
      const flipped = row.slice();
      flipped[0] = (row[0]! + 1) % 3;
      const [p0, p1] = [g.truth.probability(row)[0], g.truth.probability(flipped)[0]];
      expect(p0).toBe(p1);
    }
  });

  it('rejects impossible options with OptionsError', () => {
    expect(() => generatePlantedPair({ granularity: 3, otherAttributes: 2 })).toThrow(OptionsError);
    expect(() => generatePlantedPair({ rows: 'many' as unknown as number })).toThrow(OptionsError);
  });
});
