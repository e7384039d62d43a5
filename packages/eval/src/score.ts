import { conditionMatcher, type Dataset, type DiscoveryResult, memberMask } from '@fb/core';
import type { GroundTruth } from '@fb/synth';

/** How an individual method's pairs relate to the planted truth. */
export interface IndividualScore {
  pairs: number;
  /** Pairs whose two sides fall in the two planted subgroups (in either order). */
  pairsOnPlantedPair: number;
  /** Pairs whose sample the generator itself treats differently by protected value alone. */
  pairsTrulyBiased: number;
  /** pairsTrulyBiased / pairs (null without pairs). */
  precision: number | null;
  /** Whether any pair lands on the planted pair. */
  hit: boolean;
}

/** How a subgroup method's findings relate to the planted truth. */
export interface SubgroupScore {
  findings: number;
  /** Best Jaccard index between a finding's members and the disadvantaged subgroup's members. */
  bestJaccard: number;
  /** Rank of the finding achieving bestJaccard (null without findings). */
  bestRank: number | null;
  /** Whether some finding reaches the Jaccard threshold. */
  hit: boolean;
  threshold: number;
}

/** Score the discriminatory pairs of an individual result against the planted pair. */
export function scoreIndividual(
  result: DiscoveryResult,
  dataset: Dataset,
  truth: GroundTruth,
): IndividualScore {
  if (result.findings.kind !== 'individual')
    throw new TypeError('scoreIndividual needs an individual result');
  const inA = conditionMatcher(dataset.schema, truth.pair.disadvantaged);
  const inB = conditionMatcher(dataset.schema, truth.pair.reference);
  let onPair = 0;
  let biased = 0;
  for (const p of result.findings.pairs) {
    const { sample, counterfactual } = p;
    if ((inA(sample, 0) && inB(counterfactual, 0)) || (inB(sample, 0) && inA(counterfactual, 0))) onPair++;
    if (truth.isBiasedInput(Float64Array.from(sample), 0)) biased++;
  }
  const n = result.findings.pairs.length;
  return {
    pairs: n,
    pairsOnPlantedPair: onPair,
    pairsTrulyBiased: biased,
    precision: n ? biased / n : null,
    hit: onPair > 0,
  };
}

/** Jaccard index of two 0/1 masks (0 when both are empty). */
export function jaccard(a: Uint8Array, b: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    inter += a[i]! & b[i]!;
    union += a[i]! | b[i]!;
  }
  return union === 0 ? 0 : inter / union;
}

/** Score the subgroups of a subgroup result by member overlap with the disadvantaged subgroup. */
export function scoreSubgroup(
  result: DiscoveryResult,
  dataset: Dataset,
  truth: GroundTruth,
  threshold = 0.5,
): SubgroupScore {
  if (result.findings.kind !== 'subgroup') throw new TypeError('scoreSubgroup needs a subgroup result');
  const planted = truth.membership.map((m) => (m === 1 ? 1 : 0));
  let best = 0;
  let bestRank: number | null = null;
  for (const s of result.findings.subgroups) {
    const j = jaccard(memberMask(dataset, s.conditions), planted);
    if (j > best) {
      best = j;
      bestRank = s.rank;
    }
  }
  return {
    findings: result.findings.subgroups.length,
    bestJaccard: best,
    bestRank,
    hit: best >= threshold,
    threshold,
  };
}
