import { describe, expect, it } from 'vitest';
import { choleskyInPlace, choleskySolveInPlace } from '../src/cholesky.js';
import { minimiseLbfgs } from '../src/lbfgs.js';
import { minimiseNewton } from '../src/newton.js';
import type { TwiceDifferentiableObjective } from '../src/objective.js';

/** Rosenbrock's function (a = 1, b = 100): minimum 0 at (1, 1), a curved valley. */
const rosenbrock: TwiceDifferentiableObjective = {
  size: 2,
  value: (t) => (1 - t[0]!) ** 2 + 100 * (t[1]! - t[0]! ** 2) ** 2,
  valueAndGradient(t, g) {
    const [x, y] = [t[0]!, t[1]!];
    g[0] = -2 * (1 - x) - 400 * x * (y - x * x);
    g[1] = 200 * (y - x * x);
    return this.value(t);
  },
  valueGradientHessian(t, g, h) {
    const [x, y] = [t[0]!, t[1]!];
    h.set([2 - 400 * (y - 3 * x * x), -400 * x, -400 * x, 200]);
    return this.valueAndGradient(t, g);
  },
};

describe('optimisers', () => {
  it('L-BFGS finds the Rosenbrock minimum from the classic start (−1.2, 1)', () => {
    const theta = Float64Array.of(-1.2, 1);
    const r = minimiseLbfgs(rosenbrock, theta, { tol: 1e-10, maxIter: 500, memory: 5 });
    expect(r.converged).toBe(true);
    expect(theta[0]).toBeCloseTo(1, 8);
    expect(theta[1]).toBeCloseTo(1, 8);
  });

  it('damped Newton finds the Rosenbrock minimum, even where the Hessian is indefinite', () => {
    const theta = Float64Array.of(-1.2, 1);
    const r = minimiseNewton(rosenbrock, theta, { tol: 1e-10, maxIter: 200 });
    expect(r.converged).toBe(true);
    expect(theta[0]).toBeCloseTo(1, 8);
    expect(theta[1]).toBeCloseTo(1, 8);
  });

  it('Cholesky solves a symmetric positive definite system and refuses an indefinite one', () => {
    // A = Bᵀ·B + I for a fixed B; check A·x = b by multiplying back.
    const m = 6;
    const B = Float64Array.from({ length: m * m }, (_, k) => Math.cos(1.7 * k + 0.3));
    const A = new Float64Array(m * m);
    for (let i = 0; i < m; i++)
      for (let j = 0; j < m; j++) {
        let s = i === j ? 1 : 0;
        for (let k = 0; k < m; k++) s += B[k * m + i]! * B[k * m + j]!;
        A[i * m + j] = s;
      }
    const b = Float64Array.from({ length: m }, (_, i) => i - 2.5);
    const L = A.slice();
    expect(choleskyInPlace(L, m)).toBe(true);
    const x = b.slice();
    choleskySolveInPlace(L, m, x);
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let j = 0; j < m; j++) s += A[i * m + j]! * x[j]!;
      expect(s).toBeCloseTo(b[i]!, 10);
    }
    expect(choleskyInPlace(Float64Array.of(1, 2, 2, 1), 2)).toBe(false);
  });
});
