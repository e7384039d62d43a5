import { CheckStatus, type CounterfactualChecker, type Rng, type RunController } from '@fb/core';
import { accepts } from './acceptance.js';
import type { LocalStepper } from './local-step.js';
import type { AcceptanceRule } from './options.js';

/** Local steps between two checkpoints (progress report and a chance to yield to the event loop). */
const CHECKPOINT_EVERY = 50;

export interface LocalPhaseSettings {
  iterations: number;
  acceptance: AcceptanceRule;
  temperature: number;
}

export interface LocalPhaseResult {
  tested: number;
  discriminatory: number;
  /** Walks started (one per seed reached before a stop). */
  walks: number;
}

/**
 * AEQUITAS local phase: from each seed (a discriminatory input), a walk of `iterations` steps. Each
 * candidate is checked on its own; a known input returns its status without a new query.
 */
export async function runLocalPhase(
  seeds: Float64Array,
  count: number,
  d: number,
  stepper: LocalStepper,
  checker: CounterfactualChecker,
  ctl: RunController,
  rng: Rng,
  settings: LocalPhaseSettings,
): Promise<LocalPhaseResult> {
  const { iterations, acceptance, temperature } = settings;
  const total = count * iterations;
  const current = new Float64Array(d);
  const candidate = new Float64Array(d);
  let tested = 0;
  let discriminatory = 0;
  let walks = 0;
  walking: for (let s = 0; s < count; s++) {
    if (ctl.shouldStop()) break;
    current.set(seeds.subarray(s * d, (s + 1) * d));
    let currentDiscriminatory = true;
    walks++;
    for (let t = 0; t < iterations; t++) {
      if (t % CHECKPOINT_EVERY === 0) {
        if (await ctl.checkpoint({ phase: 'local', done: s * iterations + t, total })) break walking;
      } else if (ctl.shouldStop()) break walking;
      candidate.set(current);
      stepper.step(rng, candidate);
      const { status, fresh } = checker.check(candidate);
      if (status[0] === CheckStatus.Skipped) {
        ctl.shouldStop(); // records which budget ran out
        break walking;
      }
      const found = status[0] === CheckStatus.Discriminatory;
      if (fresh[0] === 1) {
        tested++;
        if (found) discriminatory++;
      }
      stepper.learn(found);
      if (accepts(acceptance, currentDiscriminatory, found, temperature, rng)) {
        current.set(candidate);
        currentDiscriminatory = found;
      }
    }
  }
  return { tested, discriminatory, walks };
}
