/** A smooth function of a parameter vector, for the optimisers. */
export interface SmoothObjective {
  /** Number of parameters. */
  readonly size: number;
  /** f(theta). */
  value(theta: Float64Array): number;
  /** f(theta), writing ∇f(theta) into `grad`. */
  valueAndGradient(theta: Float64Array, grad: Float64Array): number;
}

/** A smooth objective that also gives its Hessian (size x size, row-major, symmetric). */
export interface TwiceDifferentiableObjective extends SmoothObjective {
  valueGradientHessian(theta: Float64Array, grad: Float64Array, hess: Float64Array): number;
}

export interface OptimisationResult {
  /** Objective value at the returned parameters. */
  readonly value: number;
  /** Largest absolute gradient component at the returned parameters. */
  readonly gradientNorm: number;
  /** Iterations (Newton steps or L-BFGS updates) taken. */
  readonly iterations: number;
  /** Whether the gradient norm reached the tolerance. */
  readonly converged: boolean;
}

export interface StoppingRule {
  /** Stop once max |∇f| <= tol. */
  readonly tol: number;
  readonly maxIter: number;
}

export function maxAbs(v: Float64Array): number {
  let m = 0;
  for (let i = 0; i < v.length; i++) {
    const a = Math.abs(v[i]!);
    if (a > m || Number.isNaN(a)) m = a;
  }
  return m;
}

export function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** Allowance for rounding in sufficient-decrease tests, relative to the objective's size. */
export function roundingSlack(f: number): number {
  return 8 * Number.EPSILON * Math.abs(f);
}
