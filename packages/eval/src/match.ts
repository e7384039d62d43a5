import { type Dataset, type DiscriminatoryPair, memberMask, type SubgroupFinding } from '@fb/core';
import { type BiasedSubgroup, biasedSubgroups, type TruthView } from './truth.js';

/** Probabilities closer than this are the same treatment (floating-point noise, not bias). */
const SAME_PROBABILITY = 1e-9;

/**
 * Why the model's decision flips on a pair, by the generator's truth:
 * - `injected`: the true probabilities differ and the two inputs carry different injected bias;
 * - `structural`: the true probabilities differ without injected bias (protected attributes enter the
 *   generator's base outcome);
 * - `model-error`: the generator treats both inputs alike; the flip is the model's own.
 */
export type PairVerdict = 'injected' | 'structural' | 'model-error';

export interface PairMatch {
  verdict: PairVerdict;
  /** True probability of the sample and of its counterfactual. */
  probabilities: [number, number];
  /** Ids of injected pairs whose biased subgroup holds exactly one side of the pair (injected verdicts only). */
  groups: number[];
}

/** Total injected bias of the row at `x[off..]` and the biased subgroups it belongs to. */
function biasAt(
  subgroups: readonly BiasedSubgroup[],
  x: ArrayLike<number>,
  off: number,
  into: Uint8Array,
): number {
  let total = 0;
  for (let k = 0; k < subgroups.length; k++) {
    const inside = subgroups[k]!.matches(x, off);
    into[k] = inside ? 1 : 0;
    if (inside) total += subgroups[k]!.bias;
  }
  return total;
}

/**
 * The matcher for individual findings: each discriminatory pair is judged exactly with the
 * generator's probabilities of its two inputs (one batch query for all pairs) and placed in the
 * injected groups whose bias separates its two sides.
 */
export function matchPairs(
  pairs: readonly DiscriminatoryPair[],
  dataset: Dataset,
  truth: TruthView,
): PairMatch[] {
  const d = dataset.d;
  const n = pairs.length;
  if (n === 0) return [];
  const rows = new Float64Array(2 * n * d);
  pairs.forEach((p, i) => {
    rows.set(p.sample, 2 * i * d);
    rows.set(p.counterfactual, (2 * i + 1) * d);
  });
  const prob = truth.probabilityOf(rows);
  const subgroups = biasedSubgroups(truth, dataset.schema);
  const inS = new Uint8Array(subgroups.length);
  const inC = new Uint8Array(subgroups.length);
  const out: PairMatch[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const pS = prob[2 * i]!;
    const pC = prob[2 * i + 1]!;
    const bS = biasAt(subgroups, rows, 2 * i * d, inS);
    const bC = biasAt(subgroups, rows, (2 * i + 1) * d, inC);
    const differs = Math.abs(pS - pC) > SAME_PROBABILITY;
    const verdict: PairVerdict = !differs ? 'model-error' : bS !== bC ? 'injected' : 'structural';
    const groups: number[] = [];
    if (verdict === 'injected') {
      for (let k = 0; k < subgroups.length; k++) {
        const g = subgroups[k]!.pair;
        if (inS[k] !== inC[k] && !groups.includes(g)) groups.push(g);
      }
    }
    out[i] = { verdict, probabilities: [pS, pC], groups };
  }
  return out;
}

/** Overlap of a finding's members with one injected subgroup's members. */
export interface MemberOverlap {
  jaccard: number;
  /** Share of the finding's members inside the injected subgroup. */
  precision: number;
  /** Share of the injected subgroup's members inside the finding. */
  recall: number;
}

export interface SubgroupMatch extends MemberOverlap {
  rank: number;
  /** The injected pair and side of the best-overlapping biased subgroup (null without any). */
  pair: number | null;
  side: 0 | 1 | null;
  /** Whether the overlap reaches the Jaccard threshold. */
  hit: boolean;
}

/** Jaccard index of two 0/1 masks (0 when both are empty). */
export function jaccard(a: Uint8Array, b: Uint8Array): number {
  return overlap(a, b).jaccard;
}

/** Jaccard, precision (share of `found` in `target`) and recall (share of `target` in `found`). */
export function overlap(found: Uint8Array, target: Uint8Array): MemberOverlap {
  let inter = 0;
  let nf = 0;
  let nt = 0;
  for (let i = 0; i < found.length; i++) {
    inter += found[i]! & target[i]!;
    nf += found[i]!;
    nt += target[i]!;
  }
  const union = nf + nt - inter;
  return {
    jaccard: union === 0 ? 0 : inter / union,
    precision: nf === 0 ? 0 : inter / nf,
    recall: nt === 0 ? 0 : inter / nt,
  };
}

/**
 * The matcher for subgroup findings: each finding's member set (its conditions on the dataset) is
 * compared with every biased injected subgroup's member set, and matched to the one with the highest
 * Jaccard index; it is a hit when that index reaches `threshold`.
 */
export function matchSubgroups(
  findings: readonly SubgroupFinding[],
  dataset: Dataset,
  truth: TruthView,
  threshold = 0.5,
): SubgroupMatch[] {
  const targets = biasedSubgroups(truth, dataset.schema).map((s) => ({
    s,
    mask: memberMask(dataset, s.conditions),
  }));
  return findings.map((f) => {
    const mask = memberMask(dataset, f.conditions);
    let best: SubgroupMatch = {
      rank: f.rank,
      jaccard: 0,
      precision: 0,
      recall: 0,
      pair: null,
      side: null,
      hit: false,
    };
    for (const t of targets) {
      const o = overlap(mask, t.mask);
      if (best.pair === null || o.jaccard > best.jaccard) {
        best = { rank: f.rank, ...o, pair: t.s.pair, side: t.s.side, hit: o.jaccard >= threshold };
      }
    }
    return best;
  });
}
