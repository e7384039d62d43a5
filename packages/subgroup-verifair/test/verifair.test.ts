import { createDataset, defineSchema } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { verifair as detector } from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['male', 'female'] },
    { name: 'age', kind: 'ordinal', protected: false, min: 20, max: 39, step: 1 },
  ],
  outcome: { name: 'approved', labels: ['no', 'yes'], favorable: 1 },
});

/** 10 men of whom 7 are approved, 10 women of whom 3 are. */
function tenAndTen() {
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < 20; i++) {
    const sex = i < 10 ? 0 : 1;
    x.push(sex, 20 + i);
    y.push((sex === 0 ? i : i - 10) < (sex === 0 ? 7 : 3) ? 1 : 0);
  }
  return createDataset({ schema, x, y });
}

function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

describe('verifair', () => {
  it('reports the hand-computed gaps with permutation p-values matching the exact test', async () => {
    const permutations = 4000;
    const result = await detector.run({ dataset: tenAndTen() }, { permutations, alpha: 1 }, { seed: 5 });
    if (result.findings.kind !== 'subgroup') throw new Error('expected subgroup findings');
    const [first, second] = result.findings.subgroups;
    expect(result.findings.subgroups).toHaveLength(2);
    expect(first!.conditions).toEqual([{ attribute: 'sex', values: [0] }]);
    expect(second!.conditions).toEqual([{ attribute: 'sex', values: [1] }]);
    expect(first!.effect).toBeCloseTo(0.7 - 0.3, 12);
    expect(second!.effect).toBeCloseTo(0.3 - 0.7, 12);
    expect(second!.direction).toBe('lower');
    // Under shuffled outcomes the women's approvals are hypergeometric (20 rows, 10 approved, 10 drawn);
    // the two-sided p-value is P(X <= 3) + P(X >= 7).
    let tail = 0;
    for (let k = 0; k <= 3; k++) tail += (binomial(10, k) * binomial(10, 10 - k)) / binomial(20, 10);
    const exact = 2 * tail;
    const se = Math.sqrt((exact * (1 - exact)) / permutations);
    expect(Math.abs(second!.pValue! - exact)).toBeLessThan(4 * se);
    expect(first!.pValue).toBe(second!.pValue);

    const strict = await detector.run({ dataset: tenAndTen() }, { permutations, alpha: 0.05 }, { seed: 5 });
    expect(strict.metrics.dsn).toBe(0);
  });
});
