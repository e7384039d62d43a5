import { choleskyInPlace, choleskySolveInPlace } from './cholesky.js';
import {
  dot,
  maxAbs,
  type OptimisationResult,
  roundingSlack,
  type SmoothObjective,
  type StoppingRule,
  type TwiceDifferentiableObjective,
} from './objective.js';

const ARMIJO = 1e-4;
const MAX_HALVINGS = 40;
const MAX_JITTERS = 12;

/**
 * An objective that gives its Hessian separately: `hessian` writes the Hessian at the point of the
 * last `valueAndGradient` call (size x size, row-major, symmetric).
 */
export interface LazyHessianObjective extends SmoothObjective {
  hessian(hess: Float64Array): void;
}

/** A twice-differentiable objective as a lazy one: the Hessian of each gradient call is kept. */
function keepingHessian(objective: TwiceDifferentiableObjective): LazyHessianObjective {
  const last = new Float64Array(objective.size * objective.size);
  return {
    size: objective.size,
    value: (theta) => objective.value(theta),
    valueAndGradient: (theta, grad) => objective.valueGradientHessian(theta, grad, last),
    hessian: (hess) => hess.set(last),
  };
}

/** The solver's arrays for m parameters: pass the same ones to many fits of one size to allocate once. */
export interface NewtonWork {
  readonly grad: Float64Array;
  readonly gradTrial: Float64Array;
  readonly hess: Float64Array;
  readonly factor: Float64Array;
  readonly step: Float64Array;
  readonly trial: Float64Array;
}

/** Fresh solver arrays for an objective of m parameters. */
export function newtonWork(m: number): NewtonWork {
  return {
    grad: new Float64Array(m),
    gradTrial: new Float64Array(m),
    hess: new Float64Array(m * m),
    factor: new Float64Array(m * m),
    step: new Float64Array(m),
    trial: new Float64Array(m),
  };
}

/**
 * Damped Newton–Raphson: solve H·s = -∇f by Cholesky, then halve the step until the Armijo condition
 * holds. For the logistic loss this is iteratively reweighted least squares. If H is not numerically
 * positive definite, a growing multiple of the identity is added until the factorisation succeeds.
 * `theta` is updated in place. The Hessian is asked for only at the points where a step is taken
 * (not at the last point, where the gradient has converged); a `LazyHessianObjective` computes it
 * only then. `work` (arrays of the objective's size) is scratch space, fresh by default.
 */
export function minimiseNewton(
  given: TwiceDifferentiableObjective | LazyHessianObjective,
  theta: Float64Array,
  rule: StoppingRule,
  work: NewtonWork = newtonWork(given.size),
): OptimisationResult {
  const objective = 'hessian' in given ? given : keepingHessian(given);
  const m = objective.size;
  const { hess, factor, step, trial } = work;
  // The full step is nearly always accepted, so it is evaluated with its gradient at once (into the
  // spare gradTrial, swapped in when it is accepted); halved steps need the value only.
  let { grad, gradTrial } = work;
  let f = objective.valueAndGradient(theta, grad);
  let iterations = 0;
  while (maxAbs(grad) > rule.tol && iterations < rule.maxIter) {
    objective.hessian(hess);
    if (!newtonStep(hess, grad, m, factor, step)) break;
    const slope = dot(grad, step);
    if (!(slope < 0)) break;
    let alpha = 1;
    let accepted = false;
    let fullStep = false;
    let fNext = f;
    for (let h = 0; h < MAX_HALVINGS; h++) {
      for (let i = 0; i < m; i++) trial[i] = theta[i]! + alpha * step[i]!;
      const fTrial = h === 0 ? objective.valueAndGradient(trial, gradTrial) : objective.value(trial);
      if (fTrial <= f + ARMIJO * alpha * slope + roundingSlack(f)) {
        accepted = true;
        fullStep = h === 0;
        fNext = fTrial;
        break;
      }
      alpha *= 0.5;
    }
    if (!accepted) break;
    theta.set(trial);
    iterations++;
    if (fullStep) {
      [grad, gradTrial] = [gradTrial, grad];
      f = fNext;
    } else f = objective.valueAndGradient(theta, grad);
  }
  const gradientNorm = maxAbs(grad);
  return { value: f, gradientNorm, iterations, converged: gradientNorm <= rule.tol };
}

function newtonStep(
  hess: Float64Array,
  grad: Float64Array,
  m: number,
  factor: Float64Array,
  step: Float64Array,
): boolean {
  let scale = 0;
  for (let i = 0; i < m; i++) scale = Math.max(scale, Math.abs(hess[i * m + i]!));
  let jitter = 0;
  for (let attempt = 0; attempt <= MAX_JITTERS; attempt++) {
    factor.set(hess);
    if (jitter > 0) for (let i = 0; i < m; i++) factor[i * m + i] = factor[i * m + i]! + jitter;
    if (choleskyInPlace(factor, m)) {
      for (let i = 0; i < m; i++) step[i] = -grad[i]!;
      choleskySolveInPlace(factor, m, step);
      return maxAbs(step) < Number.POSITIVE_INFINITY;
    }
    jitter = jitter === 0 ? 1e-10 * Math.max(scale, 1e-300) : jitter * 10;
  }
  return false;
}
