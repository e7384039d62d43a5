import {
  CheckStatus,
  type CounterfactualChecker,
  DomainSampler,
  type Rng,
  type RunController,
  type Schema,
} from '@fb/core';
import type { RowQueue } from './queue.js';
import type { TestedSet } from './tested-set.js';

export interface GlobalPhaseResult {
  tested: number;
  discriminatory: number;
  /** Draws skipped because the input had already been tested. */
  repeats: number;
  /** True when a budget refused rows. */
  exhausted: boolean;
}

/**
 * KOSEI's global phase (AEQUITAS's random search): `iterations` inputs drawn uniformly from the
 * domain. A draw already tested is skipped; new ones are checked in batches, and every
 * discriminatory input joins the queue in the order found.
 */
export async function runGlobalPhase(
  schema: Schema,
  checker: CounterfactualChecker,
  ctl: RunController,
  rng: Rng,
  tested: TestedSet,
  queue: RowQueue,
  iterations: number,
  batchSize: number,
): Promise<GlobalPhaseResult> {
  const d = schema.attributes.length;
  const sampler = new DomainSampler(schema);
  const buffer = new Float64Array(batchSize * d);
  const result: GlobalPhaseResult = { tested: 0, discriminatory: 0, repeats: 0, exhausted: false };
  for (let drawn = 0; drawn < iterations; ) {
    if (await ctl.checkpoint({ phase: 'global', done: drawn, total: iterations })) break;
    const draws = Math.min(batchSize, iterations - drawn);
    let m = 0;
    for (let i = 0; i < draws; i++) {
      sampler.sample(rng, buffer, m * d);
      if (tested.claim(buffer, m * d)) m++;
      else result.repeats++;
    }
    drawn += draws;
    if (m === 0) continue;
    const { status } = checker.check(buffer.subarray(0, m * d));
    for (let i = 0; i < m; i++) {
      if (status[i] === CheckStatus.Skipped) {
        result.exhausted = true;
        break;
      }
      result.tested++;
      if (status[i] === CheckStatus.Discriminatory) {
        result.discriminatory++;
        queue.push(buffer, i * d);
      }
    }
    if (result.exhausted) {
      ctl.shouldStop(); // records which budget ran out
      break;
    }
  }
  return result;
}
