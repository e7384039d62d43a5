import { type Condition, conditionMatcher, countMembers, type Dataset, type Schema } from '@fb/core';

/** One injected subgroup: its defining constraints and the logit shift its members receive. */
export interface InjectedSubgroup {
  conditions: readonly Condition[];
  /** Injected bias (0 for a side without bias). */
  bias: number;
}

/** What makes an injected group easy or hard to find: the study's factors, per group. */
export interface GroupFactors {
  /** Share of defining values the two subgroups have in common (null when not recorded). */
  similarity: number | null;
  /** Non-protected defining attributes. */
  granularity: number;
  /** Protected defining attributes. */
  intersectionality: number;
  /** Largest absolute injected bias of the two subgroups. */
  biasMagnitude: number;
  /** Members of the smaller subgroup in the dataset. */
  size: number;
  /** Mean epistemic plus aleatoric sigma of the members (null when not recorded). */
  uncertainty: number | null;
  /** Realised gap in favourable-outcome rate between the two subgroups (null when not recorded). */
  gap: number | null;
}

/** An injected group: a pair of comparable subgroups, at least one of which carries bias. */
export interface InjectedPair {
  id: number;
  subgroups: readonly [InjectedSubgroup, InjectedSubgroup];
  factors: GroupFactors;
}

/**
 * The ground truth the matcher needs, whichever generator produced it: the injected pairs (none on
 * a data set without bias) and the generator's true probability of the favourable outcome for any
 * inputs (n x d row-major, the dataset's schema order).
 */
export interface TruthView {
  pairs: readonly InjectedPair[];
  probabilityOf(x: Float64Array): Float64Array;
}

/** The truth of `generatePlantedPair` from `@fb/synth` (one pair, bias on its first subgroup). */
export interface PlantedPairTruthLike {
  pair: { disadvantaged: Condition[]; reference: Condition[]; bias: number };
  membership: Uint8Array;
  probability(x: Float64Array): Float64Array;
}

/** One side of a pair as the full generator of `@fb/synth` records it (fields read structurally). */
export interface GeneratorSubgroupLike {
  conditions: readonly Condition[];
  bias: number;
  /** Rows generated for the subgroup. */
  size?: number;
  aleatoricSigma?: number;
  meanEpistemicSigma?: number;
}

/** One pair of the full generator: its two subgroups and the factors it records. */
export interface GeneratorPairLike {
  id?: number;
  a: GeneratorSubgroupLike;
  b: GeneratorSubgroupLike;
  similarity?: number;
  granularity?: number;
  intersectionality?: number;
  realisedGap?: number;
  expectedGap?: number;
}

/** The truth of the full generator: pairs plus `probabilityOf` on arbitrary inputs. */
export interface GeneratorTruthLike {
  pairs: readonly GeneratorPairLike[];
  probabilityOf(x: Float64Array): Float64Array;
}

function protectedCount(schema: Schema, conditions: readonly Condition[]): number {
  const isProtected = new Map(schema.attributes.map((a) => [a.name, a.protected]));
  return conditions.filter((c) => isProtected.get(c.attribute)).length;
}

function constraintKey(c: Condition): string {
  return 'values' in c
    ? `${c.attribute}=${[...c.values].sort((a, b) => a - b).join(',')}`
    : `${c.attribute}@${c.min},${c.max},${c.maxInclusive}`;
}

/** Share of defining constraints (over both subgroups' attributes) that are identical in both. */
export function constraintSimilarity(a: readonly Condition[], b: readonly Condition[]): number {
  const attrs = new Set([...a, ...b].map((c) => c.attribute));
  if (attrs.size === 0) return 1;
  const keysB = new Set(b.map(constraintKey));
  const same = a.filter((c) => keysB.has(constraintKey(c))).length;
  return same / attrs.size;
}

/** Factors of a pair computed from its conditions and the dataset, overridden by recorded ones. */
function pairFactors(
  dataset: Dataset,
  a: readonly Condition[],
  b: readonly Condition[],
  biases: readonly [number, number],
  recorded: Partial<GroundFactorsInput> = {},
): GroupFactors {
  const protectedA = protectedCount(dataset.schema, a);
  return {
    similarity: recorded.similarity ?? constraintSimilarity(a, b),
    granularity: recorded.granularity ?? a.length - protectedA,
    intersectionality: recorded.intersectionality ?? protectedA,
    biasMagnitude: Math.max(Math.abs(biases[0]), Math.abs(biases[1])),
    size: recorded.sizes
      ? Math.min(recorded.sizes[0], recorded.sizes[1])
      : Math.min(countMembers(dataset, a), countMembers(dataset, b)),
    uncertainty: recorded.uncertainty ?? null,
    gap: recorded.gap ?? null,
  };
}

interface GroundFactorsInput {
  similarity: number;
  granularity: number;
  intersectionality: number;
  sizes: readonly [number, number];
  uncertainty: number | null;
  gap: number | null;
}

/** View the planted-pair generator's truth through the matcher's interface. */
export function plantedPairTruth(truth: PlantedPairTruthLike, dataset: Dataset): TruthView {
  const { disadvantaged, reference, bias } = truth.pair;
  const gap = outcomeGap(dataset, truth.membership);
  const pairs: InjectedPair[] =
    bias === 0
      ? []
      : [
          {
            id: 0,
            subgroups: [
              { conditions: disadvantaged, bias },
              { conditions: reference, bias: 0 },
            ],
            factors: pairFactors(dataset, disadvantaged, reference, [bias, 0], { gap }),
          },
        ];
  return { pairs, probabilityOf: (x) => truth.probability(x) };
}

/** Favourable rate of membership code 1 minus that of code 2 (null when either is empty). */
function outcomeGap(dataset: Dataset, membership: Uint8Array): number | null {
  const fav = dataset.schema.outcome.favorable ?? 1;
  const n = [0, 0];
  const f = [0, 0];
  for (let i = 0; i < dataset.n; i++) {
    const m = membership[i]!;
    if (m === 0) continue;
    n[m - 1]!++;
    if (dataset.y[i] === fav) f[m - 1]!++;
  }
  return n[0] && n[1] ? f[0]! / n[0]! - f[1]! / n[1]! : null;
}

/** Mean of the two subgroups' uncertainty (epistemic plus aleatoric sigma) when both are recorded. */
function pairUncertainty(p: GeneratorPairLike): number | null {
  const side = (s: GeneratorSubgroupLike) =>
    s.meanEpistemicSigma === undefined && s.aleatoricSigma === undefined
      ? null
      : (s.meanEpistemicSigma ?? 0) + (s.aleatoricSigma ?? 0);
  const a = side(p.a);
  const b = side(p.b);
  return a === null || b === null ? null : (a + b) / 2;
}

/** View the full generator's truth through the matcher's interface (pairs without bias are dropped). */
export function generatorTruth(truth: GeneratorTruthLike, dataset: Dataset): TruthView {
  const pairs: InjectedPair[] = [];
  truth.pairs.forEach((p, index) => {
    if (p.a.bias === 0 && p.b.bias === 0) return;
    const recorded: Partial<GroundFactorsInput> = {
      gap: p.realisedGap ?? p.expectedGap ?? null,
      uncertainty: pairUncertainty(p),
    };
    if (p.similarity !== undefined) recorded.similarity = p.similarity;
    if (p.granularity !== undefined) recorded.granularity = p.granularity;
    if (p.intersectionality !== undefined) recorded.intersectionality = p.intersectionality;
    if (p.a.size !== undefined && p.b.size !== undefined) recorded.sizes = [p.a.size, p.b.size];
    pairs.push({
      id: p.id ?? index,
      subgroups: [
        { conditions: p.a.conditions, bias: p.a.bias },
        { conditions: p.b.conditions, bias: p.b.bias },
      ],
      factors: pairFactors(dataset, p.a.conditions, p.b.conditions, [p.a.bias, p.b.bias], recorded),
    });
  });
  return { pairs, probabilityOf: (x) => truth.probabilityOf(x) };
}

/** Whichever generator produced it: `{ pair, membership, probability }` or `{ pairs, probabilityOf }`. */
export function truthView(truth: PlantedPairTruthLike | GeneratorTruthLike, dataset: Dataset): TruthView {
  return 'pairs' in truth ? generatorTruth(truth, dataset) : plantedPairTruth(truth, dataset);
}

/** A flat list of the injected subgroups that carry bias, with their pair and membership tests. */
export interface BiasedSubgroup {
  pair: number;
  side: 0 | 1;
  bias: number;
  conditions: readonly Condition[];
  matches: (x: ArrayLike<number>, off: number) => boolean;
}

export function biasedSubgroups(truth: TruthView, schema: Schema): BiasedSubgroup[] {
  const out: BiasedSubgroup[] = [];
  for (const p of truth.pairs) {
    p.subgroups.forEach((s, side) => {
      if (s.bias === 0) return;
      out.push({
        pair: p.id,
        side: side as 0 | 1,
        bias: s.bias,
        conditions: s.conditions,
        matches: conditionMatcher(schema, s.conditions),
      });
    });
  }
  return out;
}
