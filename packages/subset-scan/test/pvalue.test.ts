import { describe, expect, it } from 'vitest';
import { exceedancesToStop, monteCarloPValue, SequentialPValue } from '../src/index.js';

describe('monteCarloPValue', () => {
  it('counts the observed scan as one draw', () => {
    expect(monteCarloPValue(0, 99)).toBe(0.01);
    expect(monteCarloPValue(99, 99)).toBe(1);
    expect(monteCarloPValue(4, 19)).toBe(0.25);
    expect(monteCarloPValue(0, 0)).toBeNull();
  });
});

describe('exceedancesToStop', () => {
  it('is one more than the largest exceedance count the fixed test rejects at the level', () => {
    // 100 replicates: (1 + 4)/101 ≤ 0.05 < (1 + 5)/101, so 5 exceedances settle "not rejected".
    expect(exceedancesToStop(0.05, 100)).toBe(5);
    // 99: (1 + 4)/100 = 0.05 rejects, 6/100 does not.
    expect(exceedancesToStop(0.05, 99)).toBe(5);
    expect(exceedancesToStop(0.05, 19)).toBe(1);
    // Bonferroni over 4 scans, 99 replicates: only 0 exceedances reject (4/100 ≤ 0.05 < 8/100).
    expect(exceedancesToStop(0.05, 99, 4)).toBe(1);
    expect(exceedancesToStop(0.1, 99, 2)).toBe(5);
  });

  it('gives, by brute force over every count, the fixed decision at the level', () => {
    for (const R of [19, 39, 99, 100, 199, 999]) {
      for (const m of [1, 2, 3, 4, 8]) {
        const h = exceedancesToStop(0.05, R, m);
        for (let g = 0; g <= R; g++) {
          const rejects = (m * (1 + g)) / (1 + R) <= 0.05;
          if (g >= h) expect(rejects).toBe(false);
          else if (h > 1) expect(rejects).toBe(true);
        }
      }
    }
  });
});

/** Replicate outcomes from a fixed sequence: the fixed p-value and the sequential one on the same draws. */
function both(reached: boolean[], stopAt: number) {
  const sequential = new SequentialPValue(reached.length, stopAt);
  for (const r of reached) {
    if (sequential.stopped) break;
    sequential.record(r);
  }
  const g = reached.filter(Boolean).length;
  return { sequential, fixed: monteCarloPValue(g, reached.length)! };
}

describe('SequentialPValue', () => {
  it("stops at the h-th exceedance with Besag and Clifford's h/l", () => {
    const reached = [false, true, false, true, true, false, false, false, false, false];
    const { sequential } = both(reached, 3);
    expect(sequential.completed).toBe(5);
    expect(sequential.pValue()).toBe(3 / 5);
    // Later replicates are ignored once stopped.
    sequential.record(true);
    expect(sequential.completed).toBe(5);
  });

  it('never reports less than the fixed test could with h exceedances', () => {
    const reached = new Array(99).fill(false);
    reached[97] = true;
    reached[98] = true;
    const { sequential } = both(reached, 2);
    expect(sequential.completed).toBe(99);
    // h/l = 2/99 < 3/100.
    expect(sequential.pValue()).toBe(3 / 100);
  });

  it('equals the fixed p-value when it does not stop', () => {
    const reached = Array.from({ length: 99 }, (_, i) => i % 40 === 0);
    const { sequential, fixed } = both(reached, 5);
    expect(sequential.stopped).toBe(false);
    expect(sequential.pValue()).toBe(fixed);
    expect(new SequentialPValue(10, 1).pValue()).toBeNull();
  });

  it('is the fixed test without a stopping count', () => {
    const reached = Array.from({ length: 19 }, () => true);
    const { sequential } = both(reached, Number.POSITIVE_INFINITY);
    const fixed = new SequentialPValue(19, null);
    for (const r of reached) fixed.record(r);
    expect(fixed.pValue()).toBe(1);
    expect(sequential.pValue()).toBe(1);
  });

  it('makes the decision at 0.05 of the fixed test on the same replicates, for every sequence tried', () => {
    // Random exceedance sequences of every probability, 100 replicates, h from exceedancesToStop.
    let state = 12345;
    const uniform = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 2 ** 32;
    };
    const h = exceedancesToStop(0.05, 100);
    for (let t = 0; t < 2000; t++) {
      const q = (t % 100) / 400;
      const reached = Array.from({ length: 100 }, () => uniform() < q);
      const { sequential, fixed } = both(reached, h);
      expect(sequential.pValue()! <= 0.05).toBe(fixed <= 0.05);
    }
  });

  it('is valid: P(p ≤ u) ≤ u under the null (every rank of the observed, random placements of the exceedances)', () => {
    // Under the null the observed statistic's rank among 1 + R exchangeable draws is uniform; with no
    // ties the exceedance indicators are those of a uniformly placed observation. Enumerate its rank.
    for (const [R, h] of [
      [19, 1],
      [99, 5],
      [100, 5],
      [99, 10],
    ] as const) {
      const pValues: number[] = [];
      for (let rank = 0; rank <= R; rank++) {
        // `rank` replicates exceed the observed; their positions are a uniformly random subset.
        // P(p ≤ u) averages over positions: 200 random placements per rank.
        let state = rank * 7919 + R;
        const uniform = () => {
          state = (Math.imul(state, 1103515245) + 12345) >>> 0;
          return state / 2 ** 32;
        };
        for (let t = 0; t < 200; t++) {
          const order = Array.from({ length: R }, (_, i) => ({ i, k: uniform() }));
          order.sort((a, b) => a.k - b.k);
          const reached = new Array<boolean>(R).fill(false);
          for (let j = 0; j < rank; j++) reached[order[j]!.i] = true;
          pValues.push(both(reached, h).sequential.pValue()!);
        }
      }
      for (const u of [0.01, 0.05, 0.1, 0.25, 0.5]) {
        const rate = pValues.filter((p) => p <= u + 1e-12).length / pValues.length;
        // Up to the Monte Carlo error of 200 placements per rank (R + 1 ranks).
        expect(rate).toBeLessThanOrEqual(u + 3 * Math.sqrt((u * (1 - u)) / pValues.length) + 1e-9);
      }
    }
  });
});
