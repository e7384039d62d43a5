import { describe, expect, it } from 'vitest';
import { createRng } from '../src/rng.js';
import { symmetricEigen } from '../src/symmetric-eigen.js';

describe('symmetricEigen', () => {
  it('the eigen-decomposition reconstructs a symmetric matrix', () => {
    const rng = createRng('eig');
    const p = 6;
    const b = Float64Array.from({ length: p * p }, () => rng.normal());
    const a = new Float64Array(p * p);
    for (let i = 0; i < p; i++)
      for (let j = 0; j < p; j++) for (let t = 0; t < p; t++) a[i * p + j]! += b[i * p + t]! * b[j * p + t]!;
    const { values, vectors } = symmetricEigen(a, p);
    for (let r = 1; r < p; r++) expect(values[r]!).toBeLessThanOrEqual(values[r - 1]!);
    for (let i = 0; i < p; i++)
      for (let j = 0; j < p; j++) {
        let s = 0;
        for (let r = 0; r < p; r++) s += values[r]! * vectors[r * p + i]! * vectors[r * p + j]!;
        expect(s).toBeCloseTo(a[i * p + j]!, 9);
      }
  });

  it('a diagonal matrix: its diagonal in decreasing order, unit vectors', () => {
    const { values, vectors } = symmetricEigen(Float64Array.from([2, 0, 0, 0, 5, 0, 0, 0, -1]), 3);
    expect(Array.from(values)).toEqual([5, 2, -1]);
    expect(Array.from(vectors).map(Math.abs)).toEqual([0, 1, 0, 1, 0, 0, 0, 0, 1]);
  });

  it('orthonormal eigenvectors of a 2 x 2 matrix with known eigenpairs', () => {
    // [[2, 1], [1, 2]]: eigenvalues 3 and 1, eigenvectors (1, 1)/sqrt 2 and (1, -1)/sqrt 2.
    const { values, vectors } = symmetricEigen(Float64Array.from([2, 1, 1, 2]), 2);
    expect(values[0]).toBeCloseTo(3, 12);
    expect(values[1]).toBeCloseTo(1, 12);
    expect(Math.abs(vectors[0]!)).toBeCloseTo(Math.SQRT1_2, 12);
    expect(vectors[0]! * vectors[1]!).toBeCloseTo(0.5, 12);
    expect(vectors[2]! * vectors[3]!).toBeCloseTo(-0.5, 12);
  });
});
