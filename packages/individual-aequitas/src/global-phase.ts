import {
  CheckStatus,
  type CounterfactualChecker,
  GrowableArray,
  type Rng,
  type RunController,
} from '@fb/core';
import type { SearchSpace } from './search-space.js';

/** Rows per checker call in the global phase: one model query per batch. */
const GLOBAL_BATCH = 256;

export interface GlobalPhaseResult {
  /** New tested samples. */
  tested: number;
  /** New discriminatory samples. */
  discriminatory: number;
  /** The discriminatory inputs, in the order found, `count` rows of width d. */
  seeds: Float64Array;
  count: number;
  /** True when the checker refused rows because a budget ran out. */
  exhausted: boolean;
}

/** Writes one global input at `offset` of `out`. */
export type GlobalSampler = (rng: Rng, out: Float64Array, offset: number) => void;

/** Global inputs drawn uniformly from the domain (the paper). */
export const domainSampler =
  (space: SearchSpace): GlobalSampler =>
  (rng, out, offset) =>
    space.sample(rng, out, offset);

/** Global inputs drawn uniformly, with replacement, from the `n` rows of width `d` in `x`. */
export const rowSampler =
  (x: ArrayLike<number>, n: number, d: number): GlobalSampler =>
  (rng, out, offset) => {
    const r = rng.int(0, n - 1);
    for (let j = 0; j < d; j++) out[offset + j] = x[r * d + j]!;
  };

/** AEQUITAS global phase: `iterations` inputs from `sample` (uniform on the domain by default), checked in batches. */
export async function runGlobalPhase(
  space: SearchSpace,
  checker: CounterfactualChecker,
  ctl: RunController,
  rng: Rng,
  iterations: number,
  sample: GlobalSampler = domainSampler(space),
): Promise<GlobalPhaseResult> {
  const { d } = space;
  const seeds = new GrowableArray((n) => new Float64Array(n));
  const buffer = new Float64Array(GLOBAL_BATCH * d);
  let tested = 0;
  let discriminatory = 0;
  let exhausted = false;
  for (let done = 0; done < iterations; ) {
    if (await ctl.checkpoint({ phase: 'global', done, total: iterations })) break;
    const n = Math.min(GLOBAL_BATCH, iterations - done);
    const batch = n === GLOBAL_BATCH ? buffer : buffer.subarray(0, n * d);
    for (let i = 0; i < n; i++) sample(rng, batch, i * d);
    const { status, fresh } = checker.check(batch);
    for (let i = 0; i < n; i++) {
      if (status[i] === CheckStatus.Skipped) exhausted = true;
      if (fresh[i] === 0) continue;
      tested++;
      if (status[i] === CheckStatus.Discriminatory) {
        seeds.ensure((discriminatory + 1) * d).set(batch.subarray(i * d, (i + 1) * d), discriminatory * d);
        discriminatory++;
      }
    }
    if (exhausted) {
      ctl.shouldStop(); // records which budget ran out
      break;
    }
    done += n;
  }
  return { tested, discriminatory, seeds: seeds.array, count: discriminatory, exhausted };
}
