import { ProtectedVariants, type Schema } from '@fb/core';

/**
 * The study's one rule for sizing an individual method's phases under a budget of distinct model
 * queries: the phase that looks for starting points (AEQUITAS's and KOSEI's uniform draws, ADF's
 * clustered seeds, SG's and ExpGA's explained seeds, LIMI's boundary samples) may spend at most
 * `globalShare` of the budget; the search from those points spends the rest, and no tested-sample or
 * iteration cap of the method's own ends the run before the query budget does.
 */
export interface PhaseRule {
  /** Share of the query budget the starting-point phase may spend (0 < share < 1). */
  globalShare: number;
}

/** What a method's phases are sized from. */
export interface PhaseInputs {
  /** The run's budget of distinct model queries. */
  maxQueries: number;
  /** Distinct queries one tested input costs: itself and its protected variants. */
  perTested: number;
}

/** The inputs of the rule for a data set's schema (every combination of protected values). */
export function phaseInputs(schema: Schema, maxQueries: number): PhaseInputs {
  return { maxQueries, perTested: new ProtectedVariants(schema, 'all-combinations').perInput + 1 };
}

/** A count of at least 1 from a share of queries and a cost per unit. */
const units = (queries: number, cost: number): number => Math.max(1, Math.floor(queries / cost));

type Sizer = (options: Record<string, unknown>, share: number, p: PhaseInputs) => Record<string, unknown>;

const num = (options: Record<string, unknown>, name: string, fallback: number): number => {
  const v = options[name];
  return typeof v === 'number' ? v : fallback;
};

/**
 * Each individual method's options under the rule, by method id: the option of its starting-point
 * phase from the share, and its own caps on the whole search lifted to the query budget (a cap the
 * budget reaches first never binds). LIME-based methods pay `limeSamples` queries per explained seed.
 */
const SIZERS: Record<string, Sizer> = {
  // Global phase: uniform draws, each one tested input.
  aequitas: (_o, s, p) => ({ globalIterations: units(s * p.maxQueries, p.perTested) }),
  kosei: (_o, s, p) => ({ globalIterations: units(s * p.maxQueries, p.perTested) }),
  // Global phase: seeds, each checked up to maxIter + 1 times along its gradient walk.
  adf: (o, s, p) => ({ maxGlobal: units(s * p.maxQueries, p.perTested * (num(o, 'maxIter', 10) + 1)) }),
  // Seeds explained by LIME, each explanation one batch of limeSamples queries; the paper's limit of
  // 1,000 test cases lifted to the budget.
  sg: (o, s, p) => ({
    seeds: units(s * p.maxQueries, num(o, 'limeSamples', 5000) + p.perTested),
    sampleLimit: p.maxQueries,
  }),
  // Candidates explained in the seed phase; the genetic algorithm runs until the budget ends.
  expga: (o, s, p) => ({
    globalSamples: units(s * p.maxQueries, num(o, 'limeSamples', 5000) + p.perTested),
    generations: p.maxQueries,
  }),
  // Latent samples decoded and labelled for the surrogate boundary, one query each; probing runs
  // until the budget ends, or, where the generator only repeats inputs it has tested, after as many
  // latent vectors as the budget has queries (the original's other cap, a million, scaled: a vector
  // that gives a new input spends at least one query).
  limi: (_o, s, p) => ({
    boundarySamples: units(s * p.maxQueries, 1),
    maxTested: p.maxQueries,
    maxLatentVectors: p.maxQueries,
  }),
};

/** Whether the rule sizes this method's phases (FlipTest and the baselines have none to size). */
export function sizedByRule(method: string): boolean {
  return method in SIZERS;
}

/**
 * A plan's options under the rule: the rule's values, then the plan's own options over them (a study
 * that sets an option explicitly keeps it). Methods without phases to size keep their options.
 */
export function phaseOptions(
  method: string,
  options: Record<string, unknown>,
  rule: PhaseRule,
  inputs: PhaseInputs,
): Record<string, unknown> {
  const sizer = SIZERS[method];
  if (!sizer) return options;
  return { ...sizer(options, rule.globalShare, inputs), ...options };
}
