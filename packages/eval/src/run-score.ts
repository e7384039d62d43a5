import type { Dataset, DiscoveryResult } from '@fb/core';
import type { QueryClock, Stamp } from './clock.js';
import { type MemberOverlap, matchPairs, matchSubgroups, type PairVerdict } from './match.js';
import type { GroupFactors, TruthView } from './truth.js';

/** Work spent until a recall level was reached. */
export interface Effort {
  seconds: number;
  /** Distinct model queries (0 for data-only methods). */
  queries: number;
  /** Findings inspected: pairs in discovery order, or subgroups in rank order. */
  findings: number;
}

/** One point of a run's efficiency curve. */
export interface CurvePoint extends Effort {
  trueFindings: number;
  groupsFound: number;
}

/** Whether one injected group was found in a run, with its factors (the unit of the factor analysis). */
export interface GroupOutcome {
  id: number;
  found: boolean;
  factors: GroupFactors;
}

export interface RunScore {
  kind: 'individual' | 'subgroup';
  findings: number;
  /** Individual: pairs judged `injected`; subgroup: findings whose Jaccard reaches the threshold. */
  trueFindings: number;
  /** trueFindings / findings (null without findings). */
  precision: number | null;
  /** Injected groups carrying bias (0 on a data set without bias). */
  biasedGroups: number;
  groupsFound: number;
  /** groupsFound / biasedGroups (null without biased groups). */
  recall: number | null;
  groups: GroupOutcome[];
  /** Individual only: pairs per verdict. */
  verdicts: Record<PairVerdict, number> | null;
  /** Subgroup only: the rank-1 finding's overlap, and the best overlap over all findings. */
  topOverlap: MemberOverlap | null;
  bestOverlap: MemberOverlap | null;
  /** The method's own decision that something is there (see `alarmOf`). */
  alarm: boolean;
  /** The method's strength of evidence, thresholded against runs without bias for detection power. */
  alarmScore: number;
  /** Effort until the first true finding, and until half and 90% of the biased groups were found. */
  firstTrue: Effort | null;
  effort50: Effort | null;
  effort90: Effort | null;
  curve: CurvePoint[];
}

export interface ScoreOptions {
  /** Jaccard index from which a subgroup finding counts as finding an injected subgroup (default 0.5). */
  jaccardThreshold?: number;
  /** The clock the model was wrapped in during the run: stamps each pair with its discovery time. */
  clock?: QueryClock;
  /** Significance level for a subgroup method's alarm when it reports p-values (default 0.05). */
  alpha?: number;
  /** Largest number of points kept on the efficiency curve (default 48). */
  curvePoints?: number;
}

/**
 * A run's alarm: an individual method raises one with any discriminatory pair, a subgroup method
 * with any finding, or, when it reports p-values, with any finding significant at `alpha`. The score
 * is SUR (individual) or the rank-1 finding's 1 − p (its own score without p-values).
 */
export function alarmOf(result: DiscoveryResult, alpha = 0.05): { alarm: boolean; score: number } {
  const f = result.findings;
  if (f.kind === 'individual') return { alarm: f.pairs.length > 0, score: result.metrics.sur };
  const top = f.subgroups.find((s) => s.rank === 1) ?? f.subgroups[0];
  if (!top) return { alarm: false, score: 0 };
  const withP = f.subgroups.filter((s) => s.pValue !== null);
  const alarm = withP.length > 0 ? withP.some((s) => s.pValue! <= alpha) : true;
  return { alarm, score: top.pValue !== null ? 1 - top.pValue : top.score };
}

interface Event {
  stamp: Stamp;
  isTrue: boolean;
  groups: readonly number[];
}

/** Walk the findings in discovery order, recording effort levels and the efficiency curve. */
function walk(events: readonly Event[], biasedGroups: number, end: Stamp, maxPoints: number) {
  const found = new Set<number>();
  let trueFindings = 0;
  let firstTrue: Effort | null = null;
  let effort50: Effort | null = null;
  let effort90: Effort | null = null;
  const curve: CurvePoint[] = [];
  const every = Math.max(1, Math.ceil(events.length / maxPoints));
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const before = found.size;
    for (const g of e.groups) found.add(g);
    const effort: Effort = { seconds: e.stamp.seconds, queries: e.stamp.queries, findings: i + 1 };
    if (e.isTrue) {
      trueFindings++;
      firstTrue ??= effort;
    }
    if (biasedGroups > 0) {
      if (!effort50 && found.size >= 0.5 * biasedGroups) effort50 = effort;
      if (!effort90 && found.size >= 0.9 * biasedGroups) effort90 = effort;
    }
    if (found.size > before || i % every === every - 1) {
      curve.push({ ...effort, trueFindings, groupsFound: found.size });
    }
  }
  curve.push({
    seconds: end.seconds,
    queries: end.queries,
    findings: events.length,
    trueFindings,
    groupsFound: found.size,
  });
  return { found, trueFindings, firstTrue, effort50, effort90, curve };
}

/** Score one run against the truth: the study's per-run metrics. */
export function scoreRun(
  result: DiscoveryResult,
  dataset: Dataset,
  truth: TruthView,
  options: ScoreOptions = {},
): RunScore {
  const threshold = options.jaccardThreshold ?? 0.5;
  const biasedGroups = truth.pairs.length;
  const end: Stamp = { seconds: result.run.wallSeconds, queries: result.metrics.distinctQueries };
  const { alarm, score } = alarmOf(result, options.alpha);
  let events: Event[];
  let verdicts: RunScore['verdicts'] = null;
  let topOverlap: MemberOverlap | null = null;
  let bestOverlap: MemberOverlap | null = null;
  if (result.findings.kind === 'individual') {
    const pairs = result.findings.pairs;
    const matches = matchPairs(pairs, dataset, truth);
    verdicts = { injected: 0, structural: 0, 'model-error': 0 };
    for (const m of matches) verdicts[m.verdict]++;
    const clock = options.clock;
    events = matches.map((m, i) => ({
      // Without a clock the order is known but not the time: every pair is stamped at the run's end.
      stamp: clock?.stampOfPair(pairs[i]!.sample, pairs[i]!.counterfactual) ?? end,
      isTrue: m.verdict === 'injected',
      groups: m.groups,
    }));
    events.sort((a, b) => a.stamp.queries - b.stamp.queries);
  } else {
    const subgroups = [...result.findings.subgroups].sort((a, b) => a.rank - b.rank);
    const matches = matchSubgroups(subgroups, dataset, truth, threshold);
    const view = (m: MemberOverlap): MemberOverlap => ({
      jaccard: m.jaccard,
      precision: m.precision,
      recall: m.recall,
    });
    if (matches.length > 0) {
      topOverlap = view(matches[0]!);
      bestOverlap = view(matches.reduce((a, b) => (b.jaccard > a.jaccard ? b : a)));
    }
    events = matches.map((m) => ({
      stamp: end,
      isTrue: m.hit,
      groups: m.hit && m.pair !== null ? [m.pair] : [],
    }));
  }
  const w = walk(events, biasedGroups, end, options.curvePoints ?? 48);
  return {
    kind: result.findings.kind,
    findings: events.length,
    trueFindings: w.trueFindings,
    precision: events.length ? w.trueFindings / events.length : null,
    biasedGroups,
    groupsFound: w.found.size,
    recall: biasedGroups ? w.found.size / biasedGroups : null,
    groups: truth.pairs.map((p) => ({ id: p.id, found: w.found.has(p.id), factors: p.factors })),
    verdicts,
    topOverlap,
    bestOverlap,
    alarm,
    alarmScore: score,
    firstTrue: w.firstTrue,
    effort50: w.effort50,
    effort90: w.effort90,
    curve: w.curve,
  };
}
