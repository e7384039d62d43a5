import { domainGrid, type Schema } from '@fb/core';
import type { Draws } from './draws.js';

/**
 * Roulette selection with replacement: `count` indices, each drawn with probability proportional to
 * its fitness (uniformly when every fitness is 0).
 */
export function select(rng: Draws, fitness: Float64Array, count: number): Int32Array {
  let total = 0;
  for (let i = 0; i < fitness.length; i++) total += fitness[i]!;
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++)
    out[i] = total > 0 ? rng.weightedIndex(fitness) : rng.int(0, fitness.length - 1);
  return out;
}

/**
 * One-slice crossover, in place and in population order (as the original, a mate may already have
 * been crossed): with probability `rate`, individual i copies genes [a, b) from a uniformly drawn
 * mate, a uniform in [0, d), b uniform in (a, d]. With `reference`, b is drawn as the original code
 * does, uniform in [0, d - a), which leaves the slice empty whenever b <= a.
 */
export function crossover(
  rng: Draws,
  pop: Float64Array,
  size: number,
  d: number,
  rate: number,
  reference: boolean,
): void {
  for (let i = 0; i < size; i++) {
    if (!(rng.next() < rate)) continue;
    const mate = rng.int(0, size - 1);
    const a = rng.int(0, d - 1);
    const b = reference ? rng.int(0, d - a - 1) : rng.int(a + 1, d);
    for (let j = a; j < b; j++) pop[i * d + j] = pop[mate * d + j]!;
  }
}

/** Per-gene uniform redraws over the schema domain, for mutation. */
export class GeneSampler {
  readonly d: number;
  /** Genes that may mutate: the non-protected ones, or all with `reference`. */
  readonly mutable: Int32Array;
  private readonly lo: Float64Array;
  private readonly hi: Float64Array;
  private readonly grid: Float64Array;
  private readonly count: Float64Array;
  private readonly reference: boolean;

  constructor(schema: Schema, reference: boolean) {
    const attrs = schema.attributes;
    this.d = attrs.length;
    this.reference = reference;
    const { lo, hi, grid, count } = domainGrid(schema);
    this.lo = lo;
    this.hi = hi;
    this.grid = grid;
    this.count = count;
    this.mutable = Int32Array.from(
      attrs.map((a, j) => (a.protected && !reference ? -1 : j)).filter((j) => j >= 0),
    );
  }

  /**
   * A uniform value of gene j. With `reference`, discrete genes never take their largest value,
   * as numpy's `randint(lo, hi)` in the original (a one-value gene keeps its value).
   */
  draw(rng: Draws, j: number): number {
    const g = this.grid[j]!;
    if (g === 0) return rng.uniform(this.lo[j]!, this.hi[j]!);
    const top = this.count[j]! - (this.reference && this.count[j]! > 1 ? 2 : 1);
    const i = rng.int(0, top);
    // The end point exactly, so that rounding never leaves the domain.
    return i === this.count[j]! - 1 ? this.hi[j]! : this.lo[j]! + i * g;
  }
}

/** Mutation, in place: each mutable gene of each individual is redrawn with probability `rate`. */
export function mutate(rng: Draws, pop: Float64Array, size: number, genes: GeneSampler, rate: number): void {
  const { d, mutable } = genes;
  for (let i = 0; i < size; i++) {
    for (let k = 0; k < mutable.length; k++) {
      const j = mutable[k]!;
      if (rng.next() < rate) pop[i * d + j] = genes.draw(rng, j);
    }
  }
}
