import { createRng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { BiasIndex } from '../src/bias-index.js';
import { sampleCopula } from '../src/copula.js';
import { resolveSynthOptions } from '../src/generate.js';
import { phaseOneCopula } from '../src/prescriptive.js';
import { definePairs, satisfies } from '../src/subgroups.js';

/** The index against a brute-force evaluation of every subgroup on every protected variant. */
function check(options: Parameters<typeof resolveSynthOptions>[0], rows: number) {
  const o = resolveSynthOptions(options);
  const rng = createRng(o.seed);
  const copula = phaseOneCopula(o, rng.fork('copula'));
  const subgroups = definePairs(copula, o, rng.fork('pairs')).flatMap((p) => [p.a, p.b]);
  const index = new BiasIndex(copula, subgroups, o.maxProtectedCombinations);
  const d = copula.schema.attributes.length;
  // Copula rows, and rows of the subgroups themselves (their constrained values written in).
  const x = sampleCopula(copula, rows, createRng(9));
  for (let i = 0; i < rows / 2; i++) {
    for (const c of subgroups[i % subgroups.length]!.constraints) x[i * d + c.attr] = c.lo;
  }
  const scan = index.scan(x, rows);
  const first = index.firstOf(x, rows);
  const variant = new Float64Array(d);
  const beta = (row: Float64Array) => {
    let b = 0;
    for (const g of subgroups) if (g.constraints.every((c) => satisfies(c, row[c.attr]!))) b += g.bias;
    return b;
  };
  let inside = 0;
  for (let i = 0; i < rows; i++) {
    const row = x.subarray(i * d, (i + 1) * d);
    const own = subgroups.find((g) => g.constraints.every((c) => satisfies(c, row[c.attr]!)));
    expect(first[i]).toBe(own ? own.id : -1);
    if (own) inside++;
    expect(scan.beta[i]).toBeCloseTo(beta(row), 12);
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (let c = 0; c < index.combos; c++) {
      variant.set(row);
      index.writeCombo(c, variant, 0);
      const b = beta(variant);
      min = Math.min(min, b);
      max = Math.max(max, b);
    }
    expect(scan.minBeta[i]).toBeCloseTo(min, 12);
    expect(scan.maxBeta[i]).toBeCloseTo(max, 12);
    for (const [c, b] of [
      [scan.minCombo[i]!, min],
      [scan.maxCombo[i]!, max],
    ] as const) {
      variant.set(row);
      index.writeCombo(c, variant, 0);
      expect(beta(variant)).toBeCloseTo(b, 12);
    }
  }
  return { combos: index.combos, inside };
}

describe('BiasIndex', () => {
  it('matches brute force with few protected combinations (dense evaluation)', () => {
    const r = check({ seed: 4, attributes: 14, pairs: 40, continuousShare: 0.3, protectedShare: 0.25 }, 400);
    expect(r.combos).toBeLessThanOrEqual(512);
    expect(r.inside).toBeGreaterThan(100);
  });

  it('matches brute force with many protected combinations (sparse evaluation)', () => {
    const r = check(
      {
        seed: 6,
        attributes: 24,
        pairs: 30,
        protectedShare: 0.3,
        minArity: 3,
        maxArity: 4,
        maxProtectedCombinations: 100_000,
      },
      150,
    );
    expect(r.combos).toBeGreaterThan(512);
    expect(r.inside).toBeGreaterThan(50);
  });

  it('gives a subgroup block the bits of its rows scanned one at a time (the sums kept per key)', () => {
    const o = resolveSynthOptions({ seed: 5, attributes: 12, pairs: 6, protectedShare: 0.34 });
    const rng = createRng(o.seed);
    const copula = phaseOneCopula(o, rng.fork('copula'));
    const subgroups = definePairs(copula, o, rng.fork('pairs')).flatMap((p) => [p.a, p.b]);
    const d = copula.schema.attributes.length;
    // Blocks of 40 rows of one subgroup each (as generate scans them), then 200 copula rows.
    const blocks = 40 * subgroups.length;
    const rows = blocks + 200;
    const x = sampleCopula(copula, rows, createRng(3));
    for (let i = 0; i < blocks; i++) {
      for (const c of subgroups[Math.floor(i / 40)]!.constraints) x[i * d + c.attr] = c.lo;
    }
    const index = new BiasIndex(copula, subgroups, o.maxProtectedCombinations);
    expect(index.combos).toBeLessThanOrEqual(512);
    const whole = index.scan(x, rows);
    expect((index as unknown as { memoHits: number }).memoHits).toBeGreaterThan(blocks / 4);
    const alone = new BiasIndex(copula, subgroups, o.maxProtectedCombinations);
    for (let i = 0; i < rows; i++) {
      const one = alone.scan(x.subarray(i * d, (i + 1) * d), 1);
      for (const k of ['beta', 'minBeta', 'minCombo', 'maxBeta', 'maxCombo', 'otherCombo'] as const)
        expect([k, i, whole[k][i]]).toEqual([k, i, one[k][0]]);
    }
  });
});
