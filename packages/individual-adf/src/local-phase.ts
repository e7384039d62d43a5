import { CheckStatus, type CounterfactualChecker, type Rng, type RunController } from '@fb/core';
import type { TwinGradients } from './gradients.js';
import { drawIndex, inverseGradientProbabilities } from './local-probability.js';
import type { AdfAcceptance } from './options.js';
import type { SearchSpace } from './search-space.js';

export interface LocalSettings {
  maxLocal: number;
  stepSize: number;
  acceptance: AdfAcceptance;
  temperature: number;
  /** EIDIG's local phase (reset to the seed, reuse of the seed's probabilities), or ADF's walk. */
  eidig: boolean;
  /** EIDIG: consecutive successes before the probabilities are recomputed; 0 = never. */
  updateInterval: number;
}

export interface LocalPhaseResult {
  tested: number;
  discriminatory: number;
}

/** EIDIG's epsilon in 1 / (|g| + |g'| + epsilon); ADF has none. */
const EIDIG_EPSILON = 1e-6;

/**
 * The local phase for W walks, one from each start (a discriminatory input), advanced in lockstep:
 * every step makes one candidate per walk, checks all with one checker call, and computes the
 * gradients of the walks that need fresh probabilities with one gradient call.
 *
 * ADF: each step moves one non-protected attribute, drawn with probability proportional to
 * 1/(|g| + |g'|) at the current input and its twin, by ±stepSize; the walk moves per `acceptance`.
 * EIDIG: the probabilities of the start are reused; a failure returns the walk to its start, and
 * `updateInterval` consecutive successes recompute them at the current input.
 */
export async function runLocalPhase(
  starts: Float64Array,
  w: number,
  space: SearchSpace,
  checker: CounterfactualChecker,
  gradients: TwinGradients,
  ctl: RunController,
  rng: Rng,
  settings: LocalSettings,
): Promise<LocalPhaseResult> {
  const { d, movable } = space;
  const m = movable.length;
  const { maxLocal, stepSize, eidig, updateInterval } = settings;
  const metropolis = settings.acceptance === 'metropolis';
  const keepProbability = Math.exp(-1 / settings.temperature);
  const epsilon = eidig ? EIDIG_EPSILON : 0;
  const cur = starts.slice(0, w * d);
  const cand = new Float64Array(w * d);
  const x = new Float64Array(w * d);
  const gx = new Float64Array(w * d);
  const gt = new Float64Array(w * d);
  const probs = new Float64Array(w * m);
  const startProbs = eidig ? new Float64Array(w * m) : null;
  const valid = new Uint8Array(w);
  const curDiscriminatory = new Uint8Array(w).fill(1);
  const streak = new Int32Array(w);
  const moved = new Int32Array(w);
  const need = new Int32Array(w);
  let tested = 0;
  let discriminatory = 0;
  for (let t = 0; t < maxLocal; t++) {
    if (await ctl.checkpoint({ phase: 'local', done: t, total: maxLocal })) break;
    let nNeed = 0;
    for (let i = 0; i < w; i++) {
      if (valid[i]) continue;
      space.snap(cur, i * d, x, nNeed * d);
      need[nNeed++] = i;
    }
    if (nNeed > 0) {
      gradients.compute(x, nNeed, gx, gt);
      for (let q = 0; q < nNeed; q++) {
        const i = need[q]!;
        inverseGradientProbabilities(gx, gt, q * d, movable, epsilon, probs, i * m);
        valid[i] = 1;
        if (startProbs && t === 0) startProbs.set(probs.subarray(i * m, (i + 1) * m), i * m);
      }
    }
    cand.set(cur);
    for (let i = 0; i < w; i++) {
      const j = movable[drawIndex(rng, probs, i * m, m)]!;
      space.move(cand, i * d, j, rng.next() < 0.5 ? -stepSize : stepSize);
      moved[i] = j;
      space.snap(cand, i * d, x, i * d);
    }
    const { status, fresh } = checker.check(x);
    let exhausted = false;
    for (let i = 0; i < w; i++) {
      if (status[i] === CheckStatus.Skipped) {
        exhausted = true;
        continue;
      }
      const found = status[i] === CheckStatus.Discriminatory;
      if (fresh[i] === 1) {
        tested++;
        if (found) discriminatory++;
      }
      const j = i * d + moved[i]!;
      if (startProbs) {
        if (found) {
          cur[j] = cand[j]!;
          if (updateInterval > 0 && ++streak[i]! >= updateInterval) {
            valid[i] = 0;
            streak[i] = 0;
          }
        } else {
          cur.set(starts.subarray(i * d, (i + 1) * d), i * d);
          probs.set(startProbs.subarray(i * m, (i + 1) * m), i * m);
          streak[i] = 0;
        }
        continue;
      }
      const accept = found || (metropolis && (curDiscriminatory[i] === 0 || rng.next() < keepProbability));
      if (!accept) continue;
      // The probabilities belong to the current input: recompute them once it has moved.
      if (cand[j] !== cur[j]) valid[i] = 0;
      cur[j] = cand[j]!;
      curDiscriminatory[i] = found ? 1 : 0;
    }
    if (exhausted) {
      ctl.shouldStop(); // records which budget ran out
      break;
    }
  }
  return { tested, discriminatory };
}
