import {
  type AuditScore,
  type Comparison,
  type Discrimination,
  discrimination,
  type FactorLevel,
  type FactorName,
  factorTable,
  type MeanInterval,
  meanInterval,
  pairedComparisons,
  quantile,
} from '@fb/eval';
import { TUNING_LABEL } from '../plan/cells.js';
import type { Question } from '../plan/config.js';
import type { CellRecord } from '../run/record.js';
import { headlineMeasure, type Measure, measureValues } from '../score/measures.js';

/** Done cells on synthetic data with planted bias, on its no-bias twin, and on real data. */
export function partition(records: readonly CellRecord[]) {
  const done = records.filter((r) => r.status === 'done');
  return {
    done,
    biased: done.filter((r) => r.dataset.kind === 'synthetic' && !r.dataset.null && r.score),
    null: done.filter((r) => r.dataset.kind === 'synthetic' && r.dataset.null),
    real: done.filter((r) => r.dataset.kind === 'real'),
    failed: records.filter((r) => r.status === 'failed'),
  };
}

/** Labels in first-seen order (records come in the study's plan order). */
export function labelsOf(records: readonly CellRecord[]): string[] {
  return [...new Set(records.map((r) => r.plan.label))];
}

export function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const t of items) {
    const k = key(t);
    if (!m.has(k)) m.set(k, []);
    m.get(k)!.push(t);
  }
  return m;
}

/** Mean and interval of rates, clipped to [0, 1]. */
const rateInterval = (xs: number[]) => meanInterval(xs, 0.95, [0, 1]);

const finite = (xs: (number | null | undefined)[]): number[] =>
  xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const median = (xs: number[]) => (xs.length ? quantile(xs, 0.5) : Number.NaN);

export const questions: Question[] = ['data', 'model', 'model-output'];

/** What a question asks, in words, for the report. */
export const questionText: Record<Question, string> = {
  data: 'bias planted in the labels; residual methods compare the labels with a reference model that cannot hold it (a protected-blind logistic regression, or the generator’s bias-free σ(η))',
  model:
    'a model trained on the biased labels; the truth is the model’s own counterfactual behaviour inside the planted subgroups',
  'model-output':
    'the planted bias in a model’s log-odds only, σ(η + β), with labels drawn without bias (the CBS paper’s design)',
};

/** The measures of one method on one question, scenario and model, beside their chance level. */
export interface EffectivenessRow {
  question: Question;
  scenario: string;
  model: string;
  label: string;
  family: string;
  runs: number;
  /** Individual: mean planted-subgroup coverage; subgroup: share of planted subgroups found. */
  recall: MeanInterval;
  /** The same findings' measure on the no-bias twin, scored against this scenario's subgroups. */
  chanceRecall: MeanInterval;
  precision: MeanInterval;
  chancePrecision: MeanInterval;
  /** Subgroup: mean best Jaccard of the top-k findings with the planted subgroups. */
  localisation: MeanInterval;
  chanceLocalisation: MeanInterval;
  /** Individual: the share of the planted subgroups' members the audited model discriminates. */
  learned: MeanInterval;
  chanceLearned: MeanInterval;
  /** Null-calibrated alarm: the method's own score on this scenario against its no-bias twin. */
  detection: Discrimination | null;
}

/** The chance scores of no-bias runs against one scenario, matched by question, model and plan. */
function chanceScores(
  nulls: readonly CellRecord[],
  rs: readonly CellRecord[],
  scenario: string,
): AuditScore[] {
  const r0 = rs[0]!;
  return nulls
    .filter((n) => n.question === r0.question && n.model === r0.model && n.plan.label === r0.plan.label)
    .flatMap((n) => n.chance.filter((c) => c.scenario === scenario).map((c) => c.score));
}

/** Every question, scenario, model and method: its measures, their chance level and detection. */
export function effectiveness(records: readonly CellRecord[]): EffectivenessRow[] {
  const { biased, null: nulls } = partition(records);
  const rows: EffectivenessRow[] = [];
  const key = (r: CellRecord) => [r.question, r.dataset.label, r.model, r.plan.label].join('\u0000');
  for (const rs of groupBy(biased, key).values()) {
    const r0 = rs[0]!;
    const own = rs.map((r) => r.score!);
    const chance = chanceScores(nulls, rs, r0.dataset.label);
    // The scenario's own twin only (the no-bias data set whose rows it shares), never pooled nulls.
    const nullRuns = nulls.filter(
      (n) =>
        n.question === r0.question &&
        n.model === r0.model &&
        n.plan.label === r0.plan.label &&
        n.score &&
        n.chance.some((c) => c.scenario === r0.dataset.label),
    );
    const pick = (xs: AuditScore[], f: (s: AuditScore) => number | null) => rateInterval(finite(xs.map(f)));
    rows.push({
      question: r0.question,
      scenario: r0.dataset.label,
      model: r0.model,
      label: r0.plan.label,
      family: r0.family ?? '',
      runs: rs.length,
      recall: pick(own, (s) => s.recall),
      chanceRecall: pick(chance, (s) => s.recall),
      precision: pick(own, (s) => s.precision),
      chancePrecision: pick(chance, (s) => s.precision),
      localisation: pick(own, (s) => s.localisation),
      chanceLocalisation: pick(chance, (s) => s.localisation),
      learned: pick(own, (s) => s.model?.learned ?? null),
      chanceLearned: pick(chance, (s) => s.model?.learned ?? null),
      detection: discrimination(
        nullRuns.map((n) => n.score!.alarmScore),
        own.map((s) => s.alarmScore),
        0.05,
      ),
    });
  }
  return rows;
}

/** A table whose every cell sits at its floor or its ceiling says nothing: report it as such. */
export function saturated(values: readonly number[]): 'floor' | 'ceiling' | null {
  const xs = values.filter((v) => Number.isFinite(v));
  if (xs.length === 0) return null;
  if (xs.every((v) => v === 0)) return 'floor';
  if (xs.every((v) => v === 1)) return 'ceiling';
  return null;
}

/** One table of paired comparisons: the methods of one family, question, scenario and model. */
export interface ComparisonTable {
  question: Question;
  family: string;
  scenario: string;
  model: string;
  /** The family's headline measure, which the tests compare. */
  measure: Measure;
  tests: Comparison[];
  /** Seeds (the independent unit) both methods of a comparison may share. */
  seeds: number;
}

/**
 * Paired comparisons of the family's headline measure between the methods of one family on one
 * question, scenario and model,
 * with the seed as the independent unit: scenarios that share rows and models trained on the same
 * data are never separate blocks of one test. Only tables with enough seeds to reject at all are
 * tested (an exact two-sided signed-rank test on n seeds cannot go below 2 / 2^n).
 */
export function comparisons(records: readonly CellRecord[], alpha = 0.05): ComparisonTable[] {
  const { biased } = partition(records);
  const out: ComparisonTable[] = [];
  const key = (r: CellRecord) => [r.question, r.family, r.dataset.label, r.model].join('\u0000');
  // The study's plans only: tuning grids and their seeds have a table of their own.
  const planned = biased.filter((r) => !r.plan.tuned && r.dataset.label !== TUNING_LABEL);
  for (const rs of groupBy(planned, key).values()) {
    const r0 = rs[0]!;
    const measure = headlineMeasure[r0.family === 'individual' ? 'individual' : 'subgroup'];
    const tests = pairedComparisons(
      rs.map((r) => ({
        method: r.plan.label,
        block: String(r.seed),
        value: measureValues(r.score!)[measure] ?? Number.NaN,
      })),
      alpha,
    );
    out.push({
      question: r0.question,
      family: r0.family ?? '',
      scenario: r0.dataset.label,
      model: r0.model,
      measure,
      tests,
      seeds: new Set(rs.map((r) => r.seed)).size,
    });
  }
  return out;
}

export interface EfficiencyRow {
  label: string;
  runs: number;
  tsn: number;
  dsn: number;
  sur: number;
  queries: number;
  wallSeconds: number;
  /** Individual: share of runs with a planted pair, and the median effort to the first one. */
  firstTrueShare: number;
  firstTrueSeconds: number;
  firstTrueQueries: number;
  /** Share of runs the seconds cap stopped (their results depend on the machine's speed and load). */
  timeCapped: number;
}

/** Cost per method on the planted data sets (every question). */
export function efficiency(records: readonly CellRecord[]): EfficiencyRow[] {
  const { biased } = partition(records);
  return [...groupBy(biased, (r) => r.plan.label)].map(([label, rs]) => {
    const reached = rs.map((r) => r.score!.firstTrue).filter((e) => e !== null);
    return {
      label,
      runs: rs.length,
      tsn: mean(rs.map((r) => r.metrics!.tsn)),
      dsn: mean(rs.map((r) => r.metrics!.dsn)),
      sur: mean(rs.map((r) => r.metrics!.sur)),
      queries: mean(rs.map((r) => r.metrics!.distinctQueries)),
      wallSeconds: mean(rs.map((r) => r.wallSeconds)),
      firstTrueShare: rs[0]!.family === 'individual' ? reached.length / rs.length : Number.NaN,
      firstTrueSeconds: median(reached.map((e) => e.seconds)),
      firstTrueQueries: median(reached.map((e) => e.queries)),
      timeCapped: rs.filter((r) => r.stopReason === 'time-budget').length / rs.length,
    };
  });
}

/** Each factor in words (short: they head figure columns 130 pixels wide). */
export const factorWords: Record<FactorName, string> = {
  biasMagnitude: 'planted bias |β|',
  gap: 'outcome-rate gap',
  granularity: 'granularity',
  intersectionality: 'intersectionality',
  similarity: 'pair similarity',
  size: 'size (rows)',
  uncertainty: 'uncertainty σ',
};

export const factorNames: FactorName[] = [
  'biasMagnitude',
  'granularity',
  'intersectionality',
  'similarity',
  'size',
  'uncertainty',
  'gap',
];

const outcomes = (scores: readonly AuditScore[]) =>
  scores.flatMap((s) => s.groups.map((g) => ({ id: g.pair, found: g.found, factors: g.factors })));

/**
 * Detection rate of planted subgroups by factor, per question and method (single-level factors left
 * out), with the chance rate per level: the no-bias twins' findings against the same subgroups (the
 * same subgroups and factor values, so the same levels).
 */
export function factors(records: readonly CellRecord[]): {
  question: Question;
  factor: FactorName;
  label: string;
  levels: (FactorLevel & { chance: number })[];
}[] {
  const { biased, null: nulls } = partition(records);
  const out: ReturnType<typeof factors> = [];
  for (const factor of factorNames) {
    for (const rs of groupBy(biased, (r) => `${r.question}\u0000${r.plan.label}`).values()) {
      const r0 = rs[0]!;
      const levels = factorTable(outcomes(rs.map((r) => r.score!)), factor);
      if (levels.length < 2) continue;
      const chance = new Map(
        factorTable(
          outcomes(
            nulls
              .filter((n) => n.question === r0.question && n.plan.label === r0.plan.label)
              .flatMap((n) => n.chance.map((c) => c.score)),
          ),
          factor,
        ).map((l) => [l.level, l.rate]),
      );
      out.push({
        question: r0.question,
        factor,
        label: r0.plan.label,
        levels: levels.map((l) => ({ ...l, chance: chance.get(l.level) ?? Number.NaN })),
      });
    }
  }
  return out;
}

/** A scenario's planted bias level: its `bias` factor (a number, or a min/max range) and the rest. */
function biasLevelOf(r: CellRecord): { label: string; size: number; rest: string } | null {
  const { bias, ...rest } = r.dataset.factors as Record<string, unknown>;
  if (bias === undefined) return null;
  let label: string;
  let size: number;
  if (typeof bias === 'number') {
    label = String(bias);
    size = Math.abs(bias);
  } else if (bias && typeof bias === 'object' && 'minBias' in bias && 'maxBias' in bias) {
    const { minBias, maxBias } = bias as { minBias: number; maxBias: number };
    label = `${minBias}–${maxBias}`;
    size = (Math.abs(minBias) + Math.abs(maxBias)) / 2;
  } else return null;
  const keys = Object.keys(rest).sort();
  return { label, size, rest: JSON.stringify(keys.map((k) => [k, rest[k]])) };
}

/**
 * The CBS paper's Figure 1 in this study: the subgroup methods' mean Jaccard (best of the top k) by
 * planted bias, with the bias in the model's log-odds (separation: the model-output question) or in
 * the labels audited against σ(η) (sufficiency: the data question with the bias-free reference).
 * The scenarios are those that differ only in their bias (the set of other factor levels with the
 * most bias levels: the base scenario of a one-at-a-time design), in order of bias; their no-bias
 * twin gives the level at zero bias (its findings against each scenario's subgroups).
 */
export function biasTrend(records: readonly CellRecord[]) {
  const { biased, null: nulls } = partition(records);
  const levels = new Map<string, { label: string; size: number; rest: string }>();
  for (const r of biased) {
    const l = biasLevelOf(r);
    if (l) levels.set(r.dataset.label, l);
  }
  // The other factors' levels under which the bias varies most.
  const spread = new Map<string, Set<string>>();
  for (const l of levels.values()) spread.set(l.rest, (spread.get(l.rest) ?? new Set()).add(l.label));
  let base: string | null = null;
  for (const [rest, ls] of spread) if (base === null || ls.size > spread.get(base)!.size) base = rest;
  const scenarios = new Map(
    [...levels].filter(([, l]) => l.rest === base).sort((a, b) => a[1].size - b[1].size),
  );
  const variants = [
    { name: 'separation', question: 'model-output' as Question, model: 'σ(η + β)' },
    { name: 'sufficiency', question: 'data' as Question, model: 'σ(η)' },
  ];
  const rows: {
    variant: string;
    label: string;
    scenario: string;
    level: string;
    bias: number;
    jaccard: MeanInterval;
    runs: number;
  }[] = [];
  for (const v of variants) {
    const rs = biased.filter(
      (r) =>
        r.question === v.question &&
        r.model === v.model &&
        r.family === 'subgroup' &&
        scenarios.has(r.dataset.label),
    );
    for (const [label, mine] of groupBy(rs, (r) => r.plan.label)) {
      const zero = nulls
        .filter(
          (n) =>
            n.question === v.question &&
            n.plan.label === label &&
            (v.question === 'model-output' || n.model === v.model),
        )
        // One value per twin run (its seed): the mean over the scenarios it was scored against, so that
        // a twin shared by several bias levels is counted once, not once per level.
        .map((n) =>
          mean(finite(n.chance.filter((c) => scenarios.has(c.scenario)).map((c) => c.score.localisation))),
        );
      rows.push({
        variant: v.name,
        label,
        scenario: 'no bias',
        level: '0',
        bias: 0,
        jaccard: rateInterval(finite(zero)),
        runs: zero.length,
      });
      for (const [scenario, l] of scenarios) {
        const sc = mine.filter((r) => r.dataset.label === scenario);
        if (sc.length === 0) continue;
        rows.push({
          variant: v.name,
          label,
          scenario,
          level: l.label,
          bias: l.size,
          jaccard: rateInterval(finite(sc.map((r) => r.score!.localisation))),
          runs: sc.length,
        });
      }
    }
  }
  return rows;
}

export interface SensitivityRow {
  question: Question;
  entry: string;
  option: string;
  value: string;
  runs: number;
  recall: MeanInterval;
  /** The same plan's recall on the no-bias twins against the same planted subgroups. */
  chanceRecall: number;
  dsn: number;
  wallSeconds: number;
}

/** Recall and cost by value of each varied method option, per question, with its chance level. */
export function sensitivity(records: readonly CellRecord[]): SensitivityRow[] {
  const { biased, null: nulls } = partition(records);
  const varied = biased.filter((r) => r.plan.varied);
  return [
    ...groupBy(
      varied,
      (r) =>
        `${r.question}\u0000${r.plan.entry}\u0000${r.plan.varied!.option}\u0000${JSON.stringify(r.plan.varied!.value)}`,
    ).values(),
  ].map((rs) => {
    const r0 = rs[0]!;
    return {
      question: r0.question,
      entry: r0.plan.entry,
      option: r0.plan.varied!.option,
      value: JSON.stringify(r0.plan.varied!.value),
      runs: rs.length,
      recall: rateInterval(finite(rs.map((r) => r.score!.recall))),
      chanceRecall: mean(
        finite(
          nulls
            .filter((n) => n.question === r0.question && n.plan.label === r0.plan.label)
            .flatMap((n) => n.chance.map((c) => c.score.recall)),
        ),
      ),
      dsn: mean(rs.map((r) => r.metrics!.dsn)),
      wallSeconds: mean(rs.map((r) => r.wallSeconds)),
    };
  });
}

export interface RealRow {
  dataset: string;
  model: string;
  label: string;
  family: CellRecord['family'];
  runs: number;
  dsn: number;
  tsn: number;
  sur: number;
  wallSeconds: number;
  implicated: string;
}

/** Real data sets: what each method reports (no planted truth there). */
export function realData(records: readonly CellRecord[]): RealRow[] {
  const { real } = partition(records);
  return [...groupBy(real, (r) => `${r.dataset.label}\u0000${r.model}\u0000${r.plan.label}`).values()].map(
    (rs) => {
      const counts = new Map<string, number>();
      for (const r of rs) for (const v of r.implicated) counts.set(v, (counts.get(v) ?? 0) + 1);
      return {
        dataset: rs[0]!.dataset.label,
        model: rs[0]!.model,
        label: rs[0]!.plan.label,
        family: rs[0]!.family,
        runs: rs.length,
        dsn: mean(rs.map((r) => r.metrics!.dsn)),
        tsn: mean(rs.map((r) => r.metrics!.tsn)),
        sur: mean(rs.map((r) => r.metrics!.sur)),
        wallSeconds: mean(rs.map((r) => r.wallSeconds)),
        implicated: [...counts]
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .slice(0, 4)
          .map(([v]) => v)
          .join(', '),
      };
    },
  );
}

export function jaccardOf<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number | null {
  const union = new Set([...a, ...b]);
  if (union.size === 0) return null;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / union.size;
}

export interface AgreementRow {
  a: string;
  b: string;
  blocks: number;
  /** Mean Jaccard of the protected values both point at (all data). */
  implicated: number;
  /** Mean Jaccard of the planted subgroups both found (synthetic data with bias). */
  groups: number;
}

/** Agreement between every two methods over the blocks both ran on (labels in plan order). */
export function agreement(records: readonly CellRecord[]): AgreementRow[] {
  const { done } = partition(records);
  const byLabel = groupBy(done, (r) => r.plan.label);
  const labels = [...byLabel.keys()];
  const rows: AgreementRow[] = [];
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      const a = new Map(byLabel.get(labels[i]!)!.map((r) => [r.block, r]));
      const imp: number[] = [];
      const grp: number[] = [];
      let blocks = 0;
      for (const rb of byLabel.get(labels[j]!)!) {
        const ra = a.get(rb.block);
        if (!ra) continue;
        blocks++;
        const ji = jaccardOf(new Set(ra.implicated), new Set(rb.implicated));
        if (ji !== null) imp.push(ji);
        if (ra.score && rb.score && ra.score.groups.length > 0) {
          const found = (r: CellRecord) => new Set(r.score!.groups.filter((g) => g.found).map((g) => g.pair));
          grp.push(jaccardOf(found(ra), found(rb)) ?? 1);
        }
      }
      if (blocks > 0)
        rows.push({ a: labels[i]!, b: labels[j]!, blocks, implicated: mean(imp), groups: mean(grp) });
    }
  }
  return rows;
}

/** Blocks whose methods did not all audit the same model (should be none). */
export function modelMismatches(records: readonly CellRecord[]): string[] {
  const { done } = partition(records);
  return [...groupBy(done, (r) => r.block).values()]
    .filter((rs) => new Set(rs.map((r) => r.modelFingerprint)).size > 1)
    .map((rs) => rs[0]!.blockLabel);
}

/** Mean accuracy of each audited model on the held-out rows, per question. */
export function modelAccuracy(records: readonly CellRecord[]) {
  const { done } = partition(records);
  return [...groupBy(done, (r) => `${r.question}\u0000${r.model}\u0000${r.dataset.label}`).values()].map(
    (rs) => ({
      question: rs[0]!.question,
      model: rs[0]!.model,
      dataset: rs[0]!.dataset.label,
      accuracy: mean([...new Map(rs.map((r) => [r.block, r.modelAccuracy ?? Number.NaN])).values()]),
    }),
  );
}

/** Thresholds of the hit-curve table. */
export const hitThresholds = [0.1, 0.3, 0.5, 0.7, 0.9];

/**
 * Subgroup methods: the share of planted subgroups found as the Jaccard threshold rises, beside the
 * same share for the no-bias twin's findings (chance), per question, scenario, model and method.
 */
export function hitCurves(records: readonly CellRecord[]) {
  const { biased, null: nulls } = partition(records);
  const rows: {
    question: Question;
    scenario: string;
    model: string;
    label: string;
    found: number[];
    chance: number[];
  }[] = [];
  const key = (r: CellRecord) => [r.question, r.dataset.label, r.model, r.plan.label].join('\u0000');
  const share = (scores: AuditScore[], h: number) => {
    let found = 0;
    let total = 0;
    for (const s of scores) {
      for (const g of s.groups) {
        total++;
        if ((g.overlap?.jaccard ?? 0) >= h) found++;
      }
    }
    return total ? found / total : Number.NaN;
  };
  for (const rs of groupBy(
    biased.filter((r) => r.family === 'subgroup'),
    key,
  ).values()) {
    const r0 = rs[0]!;
    const own = rs.map((r) => r.score!);
    const chance = chanceScores(nulls, rs, r0.dataset.label);
    rows.push({
      question: r0.question,
      scenario: r0.dataset.label,
      model: r0.model,
      label: r0.plan.label,
      found: hitThresholds.map((h) => share(own, h)),
      chance: hitThresholds.map((h) => share(chance, h)),
    });
  }
  return rows;
}
