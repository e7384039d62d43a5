import type { Rng } from '@fb/core';
import type { AequitasStrategy } from './options.js';
import { chooseDirection, updateAttributeWeights, updateDirection } from './probabilities.js';
import type { SearchSpace } from './search-space.js';

/**
 * The step function of one AEQUITAS strategy. It perturbs one non-protected attribute per step and,
 * for the directed strategies, learns from the outcome of each step. The learned probabilities live
 * as long as the stepper, i.e. they are shared by all local walks of a run, as in the original code.
 */
export class LocalStepper {
  readonly strategy: AequitasStrategy;
  /** Per movable attribute: probability of a downward move. */
  readonly pDown: Float64Array;
  /** Per movable attribute: selection probability (fully-directed). */
  readonly weights: Float64Array;
  private readonly space: SearchSpace;
  private readonly deltaV: number;
  private readonly deltaPr: number;
  private lastAttribute = -1;
  private lastDirection: -1 | 1 = 1;

  constructor(space: SearchSpace, strategy: AequitasStrategy, deltaV: number, deltaPr: number) {
    const m = space.movable.length;
    this.space = space;
    this.strategy = strategy;
    this.deltaV = deltaV;
    this.deltaPr = deltaPr;
    this.pDown = new Float64Array(m).fill(0.5);
    this.weights = new Float64Array(m).fill(1 / m);
  }

  /** Perturb `row` in place (one attribute, one unit) and remember the move for `learn`. */
  step(rng: Rng, row: Float64Array): void {
    const m = this.space.movable.length;
    const k = this.strategy === 'fully-directed' ? rng.weightedIndex(this.weights) : rng.int(0, m - 1);
    const j = this.space.movable[k]!;
    const direction: -1 | 1 =
      this.strategy === 'random'
        ? rng.next() < 0.5
          ? -1
          : 1
        : chooseDirection(rng, this.pDown[k]!, this.space.atBound(row, j));
    this.space.move(row, j, direction);
    this.lastAttribute = k;
    this.lastDirection = direction;
  }

  /** Update the learned probabilities with the outcome of the last step. */
  learn(discriminatory: boolean): void {
    if (this.strategy === 'random') return;
    const k = this.lastAttribute;
    updateDirection(this.pDown, k, this.lastDirection, discriminatory, this.deltaV);
    if (this.strategy === 'fully-directed')
      updateAttributeWeights(this.weights, k, discriminatory, this.deltaPr);
  }
}
