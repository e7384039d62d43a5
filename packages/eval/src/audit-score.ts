import {
  type Classifier,
  type Dataset,
  type DiscoveryResult,
  memberMask,
  type SubgroupFinding,
} from '@fb/core';
import type { QueryClock, Stamp } from './clock.js';
import { type MemberOverlap, overlap } from './match.js';
import { favourableDecisions, injectedBias, type ModelTruth, modelTruth } from './model-truth.js';
import type { Effort } from './run-score.js';
import { biasedSubgroups, type GroupFactors, type TruthView } from './truth.js';

/**
 * Where the planted bias lives, and so what a method is asked:
 * - `data`: in the labels; residual methods compare them with a model that cannot hold the bias;
 * - `model`: in a model trained on the biased labels; the truth is the model's own behaviour;
 * - `model-output`: in a model's log-odds only (labels without bias), the CBS paper's design.
 */
export type Question = 'data' | 'model' | 'model-output';

/**
 * Where an individual method's pair lies against the planted subgroups (the audited model's
 * decisions and the generator's injected bias β); whether the bias caused it is a separate question,
 * answered with the twin model (`AuditScoreOptions.twinModel`, `AuditScore.truePairs`):
 * - `planted`: the two inputs carry different β and the model's decision moves the way β moves the
 *   true probability;
 * - `reversed`: different β, but the model moves the other way;
 * - `unplanted`: the same β: a difference the generator did not plant (spurious);
 * - `unconfirmed`: the model gives both inputs the same decision (a probability-gap finding).
 */
export type AuditVerdict = 'planted' | 'reversed' | 'unplanted' | 'unconfirmed';

/** One planted subgroup's result in one run. */
export interface GroupScore {
  pair: number;
  side: 0 | 1;
  bias: number;
  /** Audited rows inside the planted subgroup. */
  size: number;
  factors: GroupFactors;
  /** Individual: share of members the model discriminates in the planted direction. */
  learned: number | null;
  /** Individual: members the method reached (see `coverage`). */
  covered: number | null;
  /**
   * Individual: share of members whose discrimination the method demonstrated: a member is covered
   * when the model discriminates it in the planted direction and the method reported a planted pair
   * whose side inside the subgroup has the member's non-protected values.
   */
  coverage: number | null;
  /** Subgroup: the best overlap of the top-k findings with the subgroup's members. */
  overlap: MemberOverlap | null;
  /** Individual: at least one member covered; subgroup: best Jaccard at or above the threshold. */
  found: boolean;
  /**
   * Individual, with the twin model: the method showed a true (bias-caused) pair with one input
   * meeting the subgroup's conditions and the other not (any inputs: no audited row need match).
   * Null without the twin model and for subgroup findings.
   */
  reached: boolean | null;
}

export interface AuditScore {
  kind: 'individual' | 'subgroup';
  findings: number;
  /** Individual: pairs per verdict. */
  verdicts: Record<AuditVerdict, number> | null;
  /**
   * Individual, with the twin model: share of the distinct reported pairs that are true (`truePairs` over them,
   * caused by the planted bias); individual without the twin model: share of pairs judged `planted`
   * (the measure before the twin model, now also `localisation`); subgroup: share of the top-k
   * findings whose best Jaccard with a planted subgroup reaches the threshold. Null without findings.
   */
  precision: number | null;
  /**
   * Individual: mean member coverage over planted subgroups (it favours methods that start from the
   * audited rows: a member counts only when a pair has its exact non-protected values); subgroup:
   * share of planted subgroups found.
   */
  recall: number | null;
  /**
   * Individual: share of the distinct reported pairs judged `planted` (crossing a planted subgroup in the
   * planted direction: inside a planted subgroup, whatever caused it); subgroup: mean over planted
   * subgroups of the best Jaccard among the top-k findings. Null without findings (individual).
   */
  localisation: number | null;
  /**
   * Individual, with the twin model: distinct reported pairs that are true (a pair reported twice, in
   * either order, counts once), i.e. the audited model's
   * decisions on the two inputs differ and the twin model's are equal. Null otherwise.
   */
  truePairs: number | null;
  /**
   * Individual, with the twin model: individuals (distinct non-protected values) with at least one
   * true pair. Null otherwise.
   */
  trueIndividuals: number | null;
  /**
   * Individual, with the twin model: share of the planted subgroups that are `reached` (see
   * `GroupScore.reached`). Null otherwise, and without planted subgroups.
   */
  reach: number | null;
  /**
   * Individual: the inputs the run is charged for: the larger of the result's distinct queries and
   * the distinct inputs among the reported pairs (samples and counterfactuals), so that pairs listed
   * without asking the model are paid for. Null for subgroup findings.
   */
  queriesCharged: number | null;
  /**
   * Individual, with the twin model: `1000 · trueIndividuals / queriesCharged`: individuals shown
   * discriminated by the bias per 1,000 inputs charged. Counted per individual, not per pair: the
   * inputs of one individual (its protected variants) hold many more pairs than a check reports, so a
   * pair count would reward listing pairs among the same few inputs. Null otherwise, and when
   * nothing is charged.
   */
  truePerKQueries: number | null;
  /**
   * Individual, with the twin model and the query clock: the run as it stood after each of
   * `AuditScoreOptions.anytimeQueries` distinct queries (pairs known by then). A run that ended on
   * its own (`completed`) keeps its final state at later checkpoints, and one ended by its query
   * budget up to that budget; a checkpoint beyond a time budget or an abort is left out (what the
   * method would have found is unknown). Null otherwise.
   */
  anytime: AnytimePoint[] | null;
  /** Subgroup: the rank-1 finding's overlap with the planted subgroup it overlaps most. */
  top: MemberOverlap | null;
  /** Subgroup: planted subgroups found as the Jaccard threshold rises. */
  hitCurve: { threshold: number; found: number }[] | null;
  groups: GroupScore[];
  /** The method's own evidence that something is there (thresholded against null runs). */
  alarmScore: number;
  /** Individual: the audited model's own behaviour (shares of the audited rows). */
  model: {
    discriminated: number;
    spurious: number;
    /** Mean over planted subgroups of the share of members discriminated in the planted direction. */
    learned: number | null;
  } | null;
  /**
   * Individual: effort until the first true pair with the twin model (else the first `planted` pair),
   * pairs in the order the model was asked.
   */
  firstTrue: Effort | null;
}

/** An individual run's true findings once a given number of distinct queries had been asked. */
export interface AnytimePoint {
  queries: number;
  /** Distinct true pairs known by then. */
  truePairs: number;
  /** Individuals with a true pair known by then. */
  trueIndividuals: number;
  /** Share of the planted subgroups with a true pair across their boundary known by then. */
  reach: number | null;
}

export interface AuditScoreOptions {
  /** Jaccard index from which a subgroup finding counts as finding a planted subgroup (default 0.5). */
  jaccardThreshold?: number;
  /** Findings of a subgroup method inspected per run (default 5). */
  topK?: number;
  /** The audited model itself (not a counting wrapper): needed to score individual findings. */
  model?: Classifier;
  /**
   * The same model specification trained on the no-bias twin's labels (same rows, split, seed and
   * options): a reported pair is true when `model`'s favourable decisions on its two inputs differ
   * and this model's are equal. Pass `model` itself on a run without bias (no pair is then true).
   * Without it, `truePairs`, `reach` and `truePerKQueries` are null and `precision` is the share of
   * `planted` pairs.
   */
  twinModel?: Classifier;
  /** The model truth, when computed once for several runs on the same model and rows. */
  modelTruth?: ModelTruth;
  /** The clock the model was wrapped in during the run: stamps each pair with its discovery time. */
  clock?: QueryClock;
  /** Distinct-query checkpoints of `AuditScore.anytime` (needs the clock and the twin model). */
  anytimeQueries?: readonly number[];
}

const HIT_THRESHOLDS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/**
 * The method's own evidence: SUR for an individual method (discriminatory samples per tested one);
 * for a subgroup method, the rank-1 finding's 1 − p when it reports p-values, else its score (0 when
 * it reports nothing). Never "found anything": an alarm comes from thresholding this on null runs.
 */
export function alarmScoreOf(result: DiscoveryResult): number {
  const f = result.findings;
  if (f.kind === 'individual') return result.metrics.sur;
  const top = f.subgroups.find((s) => s.rank === 1) ?? f.subgroups[0];
  if (!top) return 0;
  return top.pValue !== null ? 1 - top.pValue : top.score;
}

function factorsOf(truth: TruthView, pair: number): GroupFactors {
  const p = truth.pairs.find((q) => q.id === pair);
  if (!p) throw new Error(`planted pair ${pair} is not in the truth`);
  return p.factors;
}

/**
 * Key of a row's values at `columns`; on the non-protected columns, the same individual whatever its
 * protected values.
 */
function keyOf(x: ArrayLike<number>, off: number, columns: readonly number[]): string {
  let s = '';
  for (const j of columns) s += `${x[off + j]},`;
  return s;
}

/** Distinct rows among the first `n` rows of `x` (n x d, row-major). */
function distinctRows(x: Float64Array, d: number, n: number): number {
  const all = Array.from({ length: d }, (_, j) => j);
  const seen = new Set<string>();
  for (let i = 0; i < n; i++) seen.add(keyOf(x, i * d, all));
  return seen.size;
}

/**
 * The distinct pairs of a result, first occurrence kept: a pair reported twice (in either order, e.g.
 * from two audited rows with the same values) is one finding, so no measure counts it twice.
 */
function distinctPairs<P extends { sample: readonly number[]; counterfactual: readonly number[] }>(
  pairs: readonly P[],
): P[] {
  const seen = new Set<string>();
  return pairs.filter((p) => {
    const a = p.sample.join(',');
    const b = p.counterfactual.join(',');
    const key = a < b ? `${a}|${b}` : `${b}|${a}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The true findings known after each checkpoint of distinct queries (see `AuditScore.anytime`).
 * `events` hold each distinct pair's stamp, its individual when true, and the subgroups it shows.
 */
function anytimePoints(
  events: readonly { stamp: Stamp; individual: string | null; shows: readonly number[] }[],
  checkpoints: readonly number[],
  result: DiscoveryResult,
  nSubgroups: number,
): AnytimePoint[] {
  // What the run's state stands for: every query count up to what it asked; any count when it ended
  // on its own; up to its budget when the query budget ended it (the last step it could not pay
  // would have crossed the budget). Beyond a time budget or an abort: unknown.
  const stop = result.run.stopReason;
  const known =
    stop === 'completed'
      ? Infinity
      : stop === 'query-budget'
        ? Math.max(result.metrics.distinctQueries, result.budget?.maxQueries ?? 0)
        : result.metrics.distinctQueries;
  const out: AnytimePoint[] = [];
  for (const q of [...checkpoints].sort((a, b) => a - b)) {
    if (q > known) break;
    const individuals = new Set<string>();
    const shown = new Set<number>();
    let truePairs = 0;
    for (const e of events) {
      if (e.individual === null || e.stamp.queries > q) continue;
      truePairs++;
      individuals.add(e.individual);
      for (const k of e.shows) shown.add(k);
    }
    out.push({
      queries: q,
      truePairs,
      trueIndividuals: individuals.size,
      reach: nSubgroups ? shown.size / nSubgroups : null,
    });
  }
  return out;
}

function scoreIndividual(
  result: DiscoveryResult & { findings: { kind: 'individual' } },
  dataset: Dataset,
  truth: TruthView,
  options: AuditScoreOptions,
) {
  const model = options.model;
  if (!model) throw new Error('scoring individual findings needs the audited model (options.model)');
  const mt = options.modelTruth ?? modelTruth(model, dataset, truth);
  const { schema, d } = dataset;
  const subgroups = biasedSubgroups(truth, schema);
  const pairs = distinctPairs(result.findings.pairs);
  const n = pairs.length;
  const rows = new Float64Array(2 * n * d);
  pairs.forEach((p, i) => {
    rows.set(p.sample, 2 * i * d);
    rows.set(p.counterfactual, (2 * i + 1) * d);
  });
  // One batch per model: both inputs of every pair.
  const decisionsOf = (m: Classifier) =>
    n ? favourableDecisions(schema, m.predict(rows)) : new Uint8Array(0);
  const decisions = decisionsOf(model);
  const twin = options.twinModel;
  if (twin && twin.nFeatures !== model.nFeatures) {
    throw new Error(`the twin model takes ${twin.nFeatures} features, the audited model ${model.nFeatures}`);
  }
  const twinDecisions = twin ? decisionsOf(twin) : null;
  const beta = injectedBias(subgroups, rows, d, 2 * n);
  const free = schema.attributes.flatMap((a, j) => (a.protected ? [] : [j]));
  const reached = subgroups.map(() => new Set<string>());
  const shown = subgroups.map(() => false);
  let truePairs = 0;
  // Individuals (non-protected values) shown discriminated by the bias: the unit of `truePerKQueries`.
  const trueIndividuals = new Set<string>();
  const verdicts: Record<AuditVerdict, number> = { planted: 0, reversed: 0, unplanted: 0, unconfirmed: 0 };
  const events: { stamp: Stamp; isTrue: boolean; individual: string | null; shows: number[] }[] = [];
  const end: Stamp = { seconds: result.run.wallSeconds, queries: result.metrics.distinctQueries };
  for (let i = 0; i < n; i++) {
    const s = 2 * i;
    const c = s + 1;
    const move = decisions[c]! - decisions[s]!;
    const planted = Math.sign(beta[c]! - beta[s]!);
    const verdict: AuditVerdict =
      move === 0 ? 'unconfirmed' : planted === 0 ? 'unplanted' : planted === move ? 'planted' : 'reversed';
    verdicts[verdict]++;
    const isTrue = twinDecisions !== null && move !== 0 && twinDecisions[s] === twinDecisions[c];
    const individual = isTrue ? keyOf(rows, s * d, free) : null;
    if (individual !== null) {
      truePairs++;
      trueIndividuals.add(individual);
    }
    const shows: number[] = [];
    if (verdict === 'planted' || isTrue) {
      for (let k = 0; k < subgroups.length; k++) {
        const inS = subgroups[k]!.matches(rows, s * d);
        const inC = subgroups[k]!.matches(rows, c * d);
        if (inS === inC) continue;
        if (verdict === 'planted') reached[k]!.add(keyOf(rows, (inS ? s : c) * d, free));
        if (isTrue) {
          shown[k] = true;
          shows.push(k);
        }
      }
    }
    const stamp = options.clock?.stampOfPair(pairs[i]!.sample, pairs[i]!.counterfactual) ?? end;
    events.push({ stamp, isTrue: twin ? isTrue : verdict === 'planted', individual, shows });
  }
  const groupScores: GroupScore[] = mt.groups.map((g, k) => {
    let covered = 0;
    for (let r = 0; r < dataset.n; r++) {
      if (g.learned[r] && reached[k]!.has(keyOf(dataset.x, r * d, free))) covered++;
    }
    return {
      pair: g.pair,
      side: g.side,
      bias: g.bias,
      size: g.size,
      factors: factorsOf(truth, g.pair),
      learned: g.size ? g.learnedCount / g.size : null,
      covered,
      coverage: g.size ? covered / g.size : null,
      overlap: null,
      found: covered > 0,
      reached: twin ? shown[k]! : null,
    };
  });
  let first: { stamp: Stamp } | null = null;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (e.isTrue && (!first || e.stamp.queries < first.stamp.queries)) first = { stamp: e.stamp };
  }
  const coverages = groupScores.map((g) => g.coverage).filter((c): c is number => c !== null);
  const learnedShares = groupScores.map((g) => g.learned).filter((c): c is number => c !== null);
  const queriesCharged = Math.max(result.metrics.distinctQueries, distinctRows(rows, d, 2 * n));
  return {
    verdicts,
    precision: n ? (twin ? truePairs : verdicts.planted) / n : null,
    localisation: n ? verdicts.planted / n : null,
    truePairs: twin ? truePairs : null,
    trueIndividuals: twin ? trueIndividuals.size : null,
    reach: twin && subgroups.length ? shown.filter(Boolean).length / subgroups.length : null,
    queriesCharged,
    truePerKQueries: twin && queriesCharged ? (1000 * trueIndividuals.size) / queriesCharged : null,
    anytime:
      twin && options.clock && options.anytimeQueries
        ? anytimePoints(events, options.anytimeQueries, result, subgroups.length)
        : null,
    recall: coverages.length ? coverages.reduce((a, b) => a + b, 0) / coverages.length : null,
    groups: groupScores,
    model: {
      discriminated: dataset.n ? mt.discriminatedCount / dataset.n : 0,
      spurious: dataset.n ? mt.spuriousCount / dataset.n : 0,
      learned: learnedShares.length ? learnedShares.reduce((a, b) => a + b, 0) / learnedShares.length : null,
    },
    firstTrue: first
      ? {
          seconds: first.stamp.seconds,
          queries: first.stamp.queries,
          findings: events.filter((e) => e.stamp.queries <= first!.stamp.queries).length,
        }
      : null,
  };
}

/**
 * A finding's members on the audited rows: its explicit member rows when it gives them (groups that
 * are not a conjunction of conditions, result schema 1.1.0), else the rows meeting its conditions.
 */
function membersOf(f: SubgroupFinding, dataset: Dataset): Uint8Array {
  const members = (f as SubgroupFinding & { members?: readonly number[] }).members;
  if (!members) return memberMask(dataset, f.conditions);
  const mask = new Uint8Array(dataset.n);
  for (const i of members) if (i >= 0 && i < dataset.n) mask[i] = 1;
  return mask;
}

function scoreSubgroups(
  findings: readonly SubgroupFinding[],
  dataset: Dataset,
  truth: TruthView,
  options: AuditScoreOptions,
) {
  const threshold = options.jaccardThreshold ?? 0.5;
  const topK = options.topK ?? 5;
  const ranked = [...findings].sort((a, b) => a.rank - b.rank).slice(0, topK);
  const masks = ranked.map((f) => membersOf(f, dataset));
  const targets = biasedSubgroups(truth, dataset.schema).map((s) => ({
    s,
    mask: memberMask(dataset, s.conditions),
  }));
  // overlaps[f][t]
  const overlaps = masks.map((m) => targets.map((t) => overlap(m, t.mask)));
  const groups: GroupScore[] = targets.map((t, k) => {
    let best: MemberOverlap = { jaccard: 0, precision: 0, recall: 0 };
    for (const row of overlaps) if (row[k]!.jaccard > best.jaccard) best = row[k]!;
    let size = 0;
    for (let i = 0; i < t.mask.length; i++) size += t.mask[i]!;
    return {
      pair: t.s.pair,
      side: t.s.side,
      bias: t.s.bias,
      size,
      factors: factorsOf(truth, t.s.pair),
      learned: null,
      covered: null,
      coverage: null,
      overlap: best,
      found: best.jaccard >= threshold,
      reached: null,
    };
  });
  const bestOf = (row: MemberOverlap[]) =>
    row.reduce<MemberOverlap>((a, b) => (b.jaccard > a.jaccard ? b : a), {
      jaccard: 0,
      precision: 0,
      recall: 0,
    });
  const hits = overlaps.filter((row) => bestOf(row).jaccard >= threshold).length;
  const found = groups.filter((g) => g.found).length;
  return {
    precision: ranked.length ? hits / ranked.length : null,
    recall: groups.length ? found / groups.length : null,
    localisation: groups.length ? groups.reduce((a, g) => a + g.overlap!.jaccard, 0) / groups.length : null,
    top: overlaps.length ? bestOf(overlaps[0]!) : null,
    hitCurve: HIT_THRESHOLDS.map((h) => ({
      threshold: h,
      found: groups.filter((g) => g.overlap!.jaccard >= h).length,
    })),
    groups,
  };
}

/**
 * Score one run against the planted truth of the audited rows. Individual findings are judged by
 * the audited model's own decisions (`options.model`) and the generator's injected bias, and, with
 * `options.twinModel`, by whether the bias caused them (the twin model treats both inputs alike); subgroup
 * findings by their member sets against the planted subgroups' members. Scoring the findings of a
 * run on data without bias against the planted subgroups of the same rows gives the chance level.
 */
export function scoreAudit(
  result: DiscoveryResult,
  dataset: Dataset,
  truth: TruthView,
  options: AuditScoreOptions = {},
): AuditScore {
  const alarmScore = alarmScoreOf(result);
  if (result.findings.kind === 'individual') {
    const s = scoreIndividual(
      result as DiscoveryResult & { findings: { kind: 'individual' } },
      dataset,
      truth,
      options,
    );
    return {
      kind: 'individual',
      findings: result.findings.pairs.length,
      top: null,
      hitCurve: null,
      alarmScore,
      ...s,
    };
  }
  const s = scoreSubgroups(result.findings.subgroups, dataset, truth, options);
  return {
    kind: 'subgroup',
    findings: result.findings.subgroups.length,
    verdicts: null,
    model: null,
    alarmScore,
    firstTrue: null,
    truePairs: null,
    trueIndividuals: null,
    reach: null,
    queriesCharged: null,
    truePerKQueries: null,
    anytime: null,
    ...s,
  };
}
