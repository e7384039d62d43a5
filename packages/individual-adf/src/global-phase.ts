import { CheckStatus, type CounterfactualChecker, type Rng, type RunController } from '@fb/core';
import { globalStep } from './global-step.js';
import type { TwinGradients } from './gradients.js';
import type { SearchSpace } from './search-space.js';

export interface GlobalSettings {
  maxIter: number;
  stepSize: number;
  /** Momentum decay (EIDIG), or null for ADF's plain gradient signs. */
  momentumDecay: number | null;
}

export interface GlobalPhaseResult {
  /** New discriminatory inputs, `count` rows of width d, the starts of the local walks. */
  found: Float64Array;
  count: number;
  tested: number;
  /** Sum over the new discriminatory inputs of the gradient steps it took to reach them. */
  iterations: number;
  /** True when a budget refused a check. */
  exhausted: boolean;
}

/**
 * ADF's global phase for a batch of m seeds, advanced in lockstep: every iteration checks all live
 * inputs with one checker call and computes all their gradients with one gradient call. A seed stops
 * at its first new discriminatory input (which starts a local walk) or after `maxIter` steps.
 */
export async function runGlobalPhase(
  seeds: Float64Array,
  m: number,
  space: SearchSpace,
  checker: CounterfactualChecker,
  gradients: TwinGradients,
  ctl: RunController,
  rng: Rng,
  settings: GlobalSettings,
): Promise<GlobalPhaseResult> {
  const { d } = space;
  const { maxIter, stepSize, momentumDecay } = settings;
  const pos = seeds.slice(0, m * d);
  const live = new Int32Array(m);
  for (let i = 0; i < m; i++) live[i] = i;
  let nLive = m;
  const x = new Float64Array(m * d);
  const gx = new Float64Array(m * d);
  const gt = new Float64Array(m * d);
  const momentum = momentumDecay === null ? null : { x: new Float64Array(m * d), t: new Float64Array(m * d) };
  const found = new Float64Array(m * d);
  let count = 0;
  let tested = 0;
  let iterations = 0;
  let exhausted = false;
  for (let it = 0; it <= maxIter && nLive > 0; it++) {
    if (it > 0 && (await ctl.checkpoint({ phase: 'global', done: it, total: maxIter }))) break;
    for (let a = 0; a < nLive; a++) space.snap(pos, live[a]! * d, x, a * d);
    const { status, fresh } = checker.check(x.subarray(0, nLive * d));
    let kept = 0;
    for (let a = 0; a < nLive; a++) {
      if (status[a] === CheckStatus.Skipped) {
        exhausted = true;
        continue;
      }
      if (fresh[a] === 1) {
        tested++;
        if (status[a] === CheckStatus.Discriminatory) {
          found.set(x.subarray(a * d, (a + 1) * d), count * d);
          count++;
          iterations += it;
          continue;
        }
      }
      // An input already known to discriminate does not stop the seed (as in the original).
      if (kept !== a) x.copyWithin(kept * d, a * d, (a + 1) * d);
      live[kept++] = live[a]!;
    }
    nLive = kept;
    if (exhausted) {
      ctl.shouldStop(); // records which budget ran out
      break;
    }
    if (it === maxIter || nLive === 0) break;
    gradients.compute(x, nLive, gx, gt);
    for (let a = 0; a < nLive; a++) {
      const s = live[a]!;
      let g = gx;
      let t = gt;
      let off = a * d;
      if (momentum) {
        for (let j = 0; j < d; j++) {
          momentum.x[s * d + j] = momentumDecay! * momentum.x[s * d + j]! + gx[a * d + j]!;
          momentum.t[s * d + j] = momentumDecay! * momentum.t[s * d + j]! + gt[a * d + j]!;
        }
        g = momentum.x;
        t = momentum.t;
        off = s * d;
      }
      globalStep(space, pos, s * d, g, t, off, stepSize, rng);
    }
  }
  return { found, count, tested, iterations, exhausted };
}
