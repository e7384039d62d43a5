import type { Rng } from '@fb/core';

/**
 * Direction learning of the semi- and fully-directed strategies. `pDown[k]` is the probability of
 * moving attribute k down; a down move that found discrimination, or an up move that did not, makes
 * down likelier, and the opposite makes it less likely. Clipped to [0, 1].
 */
export function updateDirection(
  pDown: Float64Array,
  k: number,
  direction: -1 | 1,
  discriminatory: boolean,
  delta: number,
): void {
  const p = pDown[k]!;
  pDown[k] = (direction === -1) === discriminatory ? Math.min(1, p + delta) : Math.max(0, p - delta);
}

/**
 * Attribute learning of the fully-directed strategy: the chosen attribute's weight rises by `delta`
 * on success and falls by `delta` (floored at 0) on failure, then the weights are renormalised.
 */
export function updateAttributeWeights(
  weights: Float64Array,
  k: number,
  discriminatory: boolean,
  delta: number,
): void {
  weights[k] = discriminatory ? weights[k]! + delta : Math.max(0, weights[k]! - delta);
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += weights[i]!;
  // With delta < 1 the sum stays positive; rounding could only zero it if one weight held all the mass.
  if (!(sum > 0)) {
    weights.fill(1 / weights.length);
    return;
  }
  for (let i = 0; i < weights.length; i++) weights[i]! /= sum;
}

/** Direction of a directed move: down with probability `pDown`, a fair coin when the value sits on a bound. */
export function chooseDirection(rng: Rng, pDown: number, atBound: boolean): -1 | 1 {
  return rng.next() < (atBound ? 0.5 : pDown) ? -1 : 1;
}
