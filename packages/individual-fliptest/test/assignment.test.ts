import { createRng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { solveAssignment } from '../src/assignment.js';

/** Minimum total cost over all permutations (n <= 8). */
function bruteForce(cost: Float64Array, n: number): number {
  const perm = Array.from({ length: n }, (_, i) => i);
  let best = Number.POSITIVE_INFINITY;
  const visit = (k: number, acc: number): void => {
    if (acc >= best) return;
    if (k === n) {
      best = acc;
      return;
    }
    for (let t = k; t < n; t++) {
      [perm[k], perm[t]] = [perm[t]!, perm[k]!];
      visit(k + 1, acc + cost[k * n + perm[k]!]!);
      [perm[k], perm[t]] = [perm[t]!, perm[k]!];
    }
  };
  visit(0, 0);
  return best;
}

const total = (cost: Float64Array, n: number, rowToCol: Int32Array) =>
  Array.from(rowToCol).reduce((s, j, i) => s + cost[i * n + j]!, 0);

function expectPermutation(rowToCol: Int32Array, n: number): void {
  expect(new Set(rowToCol).size).toBe(n);
  for (const j of rowToCol) expect(j >= 0 && j < n).toBe(true);
}

describe('Jonker-Volgenant assignment', () => {
  const never = () => false;

  it('matches brute force on random real costs', () => {
    const rng = createRng('lap-real');
    for (let trial = 0; trial < 200; trial++) {
      const n = rng.int(1, 7);
      const cost = Float64Array.from({ length: n * n }, () => rng.uniform(0, 10));
      const a = solveAssignment(cost, n, never)!;
      expectPermutation(a, n);
      expect(total(cost, n, a)).toBeCloseTo(bruteForce(cost, n), 9);
    }
  });

  it('matches brute force with many ties (small integer costs, duplicate rows)', () => {
    const rng = createRng('lap-ties');
    for (let trial = 0; trial < 300; trial++) {
      const n = rng.int(2, 7);
      const cost = Float64Array.from({ length: n * n }, () => rng.int(0, 3));
      // Copy a row onto another: identical individuals compete for the same columns.
      const a = rng.int(0, n - 1);
      const b = rng.int(0, n - 1);
      cost.copyWithin(a * n, b * n, b * n + n);
      const sol = solveAssignment(cost, n, never)!;
      expectPermutation(sol, n);
      expect(total(cost, n, sol)).toBe(bruteForce(cost, n));
    }
  });

  it('matches brute force on squared L1 distances between point sets', () => {
    const rng = createRng('lap-points');
    for (let trial = 0; trial < 100; trial++) {
      const n = rng.int(2, 7);
      const d = 3;
      const p = Float64Array.from({ length: n * d }, () => rng.normal());
      const q = Float64Array.from({ length: n * d }, () => rng.normal());
      const cost = new Float64Array(n * n);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          let l1 = 0;
          for (let k = 0; k < d; k++) l1 += Math.abs(p[i * d + k]! - q[j * d + k]!);
          cost[i * n + j] = l1 * l1;
        }
      const sol = solveAssignment(cost, n, never)!;
      expect(total(cost, n, sol)).toBeCloseTo(bruteForce(cost, n), 9);
    }
  });

  it('is optimal on larger problems: no improving swap of two rows', () => {
    const rng = createRng('lap-large');
    const n = 120;
    const cost = Float64Array.from({ length: n * n }, () => rng.int(0, 50));
    const sol = solveAssignment(cost, n, never)!;
    expectPermutation(sol, n);
    for (let i = 0; i < n; i++)
      for (let k = i + 1; k < n; k++) {
        const now = cost[i * n + sol[i]!]! + cost[k * n + sol[k]!]!;
        const swapped = cost[i * n + sol[k]!]! + cost[k * n + sol[i]!]!;
        expect(swapped).toBeGreaterThanOrEqual(now);
      }
  });

  it('returns null when told to stop', () => {
    const n = 50;
    const rng = createRng('lap-stop');
    const cost = Float64Array.from({ length: n * n }, () => rng.int(0, 2));
    expect(solveAssignment(cost, n, () => true)).toBeNull();
  });
});
