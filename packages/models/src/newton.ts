import { choleskyInPlace, choleskySolveInPlace } from './cholesky.js';
import {
  dot,
  maxAbs,
  type OptimisationResult,
  roundingSlack,
  type StoppingRule,
  type TwiceDifferentiableObjective,
} from './objective.js';

const ARMIJO = 1e-4;
const MAX_HALVINGS = 40;
const MAX_JITTERS = 12;

/**
 * Damped Newton–Raphson: solve H·s = -∇f by Cholesky, then halve the step until the Armijo condition
 * holds. For the logistic loss this is iteratively reweighted least squares. If H is not numerically
 * positive definite, a growing multiple of the identity is added until the factorisation succeeds.
 * `theta` is updated in place.
 */
export function minimiseNewton(
  objective: TwiceDifferentiableObjective,
  theta: Float64Array,
  rule: StoppingRule,
): OptimisationResult {
  const m = objective.size;
  let grad = new Float64Array(m);
  let hess = new Float64Array(m * m);
  // The full step is nearly always accepted, so it is evaluated with its gradient and Hessian at once
  // (into these spares, swapped in when it is accepted); halved steps need the value only.
  let gradTrial = new Float64Array(m);
  let hessTrial = new Float64Array(m * m);
  const factor = new Float64Array(m * m);
  const step = new Float64Array(m);
  const trial = new Float64Array(m);
  let f = objective.valueGradientHessian(theta, grad, hess);
  let iterations = 0;
  while (maxAbs(grad) > rule.tol && iterations < rule.maxIter) {
    if (!newtonStep(hess, grad, m, factor, step)) break;
    const slope = dot(grad, step);
    if (!(slope < 0)) break;
    let alpha = 1;
    let accepted = false;
    let fullStep = false;
    let fNext = f;
    for (let h = 0; h < MAX_HALVINGS; h++) {
      for (let i = 0; i < m; i++) trial[i] = theta[i]! + alpha * step[i]!;
      const fTrial =
        h === 0 ? objective.valueGradientHessian(trial, gradTrial, hessTrial) : objective.value(trial);
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
      [hess, hessTrial] = [hessTrial, hess];
      f = fNext;
    } else f = objective.valueGradientHessian(theta, grad, hess);
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
