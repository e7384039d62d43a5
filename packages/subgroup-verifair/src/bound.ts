/**
 * The adaptive concentration bound of VeriFair (Bastani, Zhang and Solar-Lezama, OOPSLA 2019,
 * Theorem 3.1 as implemented in the authors' `verify.py`): with probability at least 1 - delta, for
 * every n at once, the mean of n Bernoulli draws is within epsilon(n, delta) of its expectation.
 * Because the bound holds uniformly over n, checking it only after each batch of draws keeps the
 * guarantee.
 */
export function adaptiveEpsilon(n: number, delta: number): number {
  const b = -Math.log(delta / 24) / 1.8;
  return Math.sqrt((0.6 * Math.log(Math.log(n) / Math.log(1.1) + 1) + b) / n);
}

/** The verdict of one sequential test. */
export type Verdict = 'fair' | 'unfair' | 'ambiguous-fair' | 'ambiguous-unfair';

export interface Judgement {
  verdict: Verdict;
  /** Estimate of the fairness expression E (fair iff E >= 0). */
  estimate: number;
  /** Half-width of its confidence interval. */
  epsilon: number;
}

/**
 * One look at the evidence after `n` draws per group with means `meanA` (the group that must not
 * fall behind) and `meanB`. Ratio form: E = meanA/meanB - (1 - c); difference form ('causal' in
 * the paper's code): E = meanA - meanB + c. Returns null while neither verdict is certain. A
 * verdict is wrong with probability at most 2 * delta.
 */
export function judge(
  n: number,
  meanA: number,
  meanB: number,
  c: number,
  ambiguity: number,
  delta: number,
  difference: boolean,
): Judgement | null {
  const eps = adaptiveEpsilon(n, delta);
  // The ratio is undefined until meanB is bounded away from 0; the paper's code applies this guard to both forms.
  if (Math.abs(meanB) <= eps) return null;
  let estimate: number;
  let epsilon: number;
  if (difference) {
    estimate = meanA - meanB + c;
    epsilon = 2 * eps;
  } else {
    const absA = Math.abs(meanA);
    const absB = Math.abs(meanB);
    estimate = meanA / meanB - (1 - c);
    epsilon = eps / absB + (eps * (eps + absA)) / (absB * (absB - eps));
  }
  if (estimate - epsilon > 0) return { verdict: 'fair', estimate, epsilon };
  if (estimate + epsilon < 0) return { verdict: 'unfair', estimate, epsilon };
  if (estimate - epsilon >= -ambiguity && epsilon <= ambiguity)
    return { verdict: 'ambiguous-fair', estimate, epsilon };
  if (estimate + epsilon <= ambiguity && epsilon <= ambiguity)
    return { verdict: 'ambiguous-unfair', estimate, epsilon };
  return null;
}
