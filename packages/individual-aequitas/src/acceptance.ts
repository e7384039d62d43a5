import type { Rng } from '@fb/core';
import type { AcceptanceRule } from './options.js';

/**
 * Whether a local walk moves to the candidate. With `metropolis` this is basin-hopping's Metropolis
 * test on the objective "0 if discriminatory, else 1": a move that does not raise the objective is
 * always taken, a move from a discriminatory point to a non-discriminatory one with probability
 * exp(-1 / temperature). `greedy` only moves to discriminatory candidates.
 */
export function accepts(
  rule: AcceptanceRule,
  currentDiscriminatory: boolean,
  candidateDiscriminatory: boolean,
  temperature: number,
  rng: Rng,
): boolean {
  if (candidateDiscriminatory) return true;
  if (rule === 'greedy') return false;
  if (!currentDiscriminatory) return true;
  return rng.next() < Math.exp(-1 / temperature);
}
