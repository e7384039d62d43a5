import { type Judgement, judge, type Verdict } from './bound.js';

/** Draws `k` samples of one group's population and returns how many got the favourable decision. */
export type Draw = (k: number) => number;

export interface VerifySettings {
  /** Tolerance c: fair iff rateA / rateB >= 1 - c (or rateA - rateB >= -c in the difference form). */
  c: number;
  /** Ambiguity Delta: stop with an ambiguous verdict once the interval is this narrow. */
  ambiguity: number;
  /** Confidence parameter delta; the pair's verdict is wrong with probability at most 2 * delta. */
  delta: number;
  difference: boolean;
  /** Draws per group between two looks at the evidence. */
  batchSize: number;
  /** Draws per group after which the test gives up undecided. */
  maxSamples: number;
}

export interface VerifyOutcome {
  verdict: Verdict | 'undecided';
  /** Which group the verdict is about: 'a' when a is disadvantaged against b, 'b' the reverse, null when fair or undecided. */
  disadvantaged: 'a' | 'b' | null;
  /** Draws per group. */
  samples: number;
  rateA: number;
  rateB: number;
  /** Estimate of the fairness expression of the binding direction (fair iff >= 0), with its half-width. */
  estimate: number | null;
  epsilon: number | null;
  /** What ended the test: a verdict, the sample cap, or the run's budget or abort. */
  stoppedBy: 'verdict' | 'max-samples' | 'budget';
}

/**
 * VeriFair's sequential test for one pair of groups, in both directions at once: "a is not
 * disadvantaged against b" and "b is not disadvantaged against a", each with confidence delta / 2,
 * so that the pair's verdict is wrong with probability at most 2 * delta, as for the paper's
 * one-directional test. Both populations are drawn in batches; the adaptive bound is read after
 * each batch (it holds for every n at once, so reading it at fewer n keeps the guarantee). Each
 * direction keeps its first verdict; the pair is unfair as soon as one direction is certainly
 * unfair, and decided once both directions are. `stop` is polled between batches.
 */
export async function verifyPair(
  drawA: Draw,
  drawB: Draw,
  s: VerifySettings,
  stop: () => Promise<boolean>,
): Promise<VerifyOutcome> {
  const half = s.delta / 2;
  let n = 0;
  let favourableA = 0;
  let favourableB = 0;
  let ab: Judgement | null = null; // a must not fall behind b
  let ba: Judgement | null = null; // b must not fall behind a
  while (n < s.maxSamples) {
    const k = Math.min(s.batchSize, s.maxSamples - n);
    favourableA += drawA(k);
    favourableB += drawB(k);
    n += k;
    const rateA = favourableA / n;
    const rateB = favourableB / n;
    ab ??= judge(n, rateA, rateB, s.c, s.ambiguity, half, s.difference);
    ba ??= judge(n, rateB, rateA, s.c, s.ambiguity, half, s.difference);
    const decided = combine(ab, ba);
    if (decided) return { ...decided, samples: n, rateA, rateB, stoppedBy: 'verdict' };
    if (await stop()) return undecided(n, rateA, rateB, 'budget');
  }
  return undecided(n, favourableA / Math.max(n, 1), favourableB / Math.max(n, 1), 'max-samples');
}

type Decided = Pick<VerifyOutcome, 'verdict' | 'disadvantaged' | 'estimate' | 'epsilon'>;

/** The pair's verdict from its two directions, or null while it is open. */
export function combine(ab: Judgement | null, ba: Judgement | null): Decided | null {
  const of = (j: Judgement, who: 'a' | 'b' | null): Decided => ({
    verdict: j.verdict,
    disadvantaged: who,
    estimate: j.estimate,
    epsilon: j.epsilon,
  });
  if (ab?.verdict === 'unfair') return of(ab, 'a');
  if (ba?.verdict === 'unfair') return of(ba, 'b');
  if (!ab || !ba) return null;
  if (ab.verdict === 'ambiguous-unfair') return of(ab, 'a');
  if (ba.verdict === 'ambiguous-unfair') return of(ba, 'b');
  // Both directions fair: report the tighter one (the smaller margin), ambiguous if either is.
  const binding = ab.estimate <= ba.estimate ? ab : ba;
  const ambiguous = ab.verdict === 'ambiguous-fair' || ba.verdict === 'ambiguous-fair';
  return { ...of(binding, null), verdict: ambiguous ? 'ambiguous-fair' : 'fair' };
}

function undecided(
  n: number,
  rateA: number,
  rateB: number,
  stoppedBy: 'max-samples' | 'budget',
): VerifyOutcome {
  return {
    verdict: 'undecided',
    disadvantaged: null,
    samples: n,
    rateA,
    rateB,
    estimate: null,
    epsilon: null,
    stoppedBy,
  };
}
