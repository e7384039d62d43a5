import type { Dataset, Rng } from '@fb/core';

/** How a group's population is sampled from the dataset. */
export type PopulationMode = 'empirical' | 'independent';

/**
 * The population of one group (the rows taking one value of a protected attribute), sampled with
 * replacement. 'empirical': whole rows of the group. 'independent': each attribute drawn from a
 * different random row of the group, i.e. the product of the group's marginals (FairSquare's
 * "independent" population model).
 */
export class GroupPopulation {
  private readonly d: number;

  constructor(
    private readonly dataset: Dataset,
    /** Indices of the group's rows. */
    readonly rows: Int32Array,
    private readonly mode: PopulationMode,
    private readonly rng: Rng,
  ) {
    this.d = dataset.d;
  }

  /** 'empirical': write the dataset row indices of `k` draws into `out[0 .. k)` (the draws `fill` makes). */
  drawRows(k: number, out: Int32Array): void {
    this.rng.intsBelow(this.rows.length, out, k);
    for (let i = 0; i < k; i++) out[i] = this.rows[out[i]!]!;
  }

  /** Write `k` draws into `out[0 .. k*d)`. */
  fill(k: number, out: Float64Array): void {
    const { x } = this.dataset;
    const d = this.d;
    const last = this.rows.length - 1;
    for (let i = 0; i < k; i++) {
      if (this.mode === 'empirical') {
        const src = this.rows[this.rng.int(0, last)]! * d;
        out.set(x.subarray(src, src + d), i * d);
      } else {
        for (let j = 0; j < d; j++) out[i * d + j] = x[this.rows[this.rng.int(0, last)]! * d + j]!;
      }
    }
  }
}
