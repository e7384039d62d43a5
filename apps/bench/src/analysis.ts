import {
  type Comparison,
  type DetectionPower,
  detectionPower,
  type FactorLevel,
  type FactorName,
  factorTable,
  type MeanInterval,
  meanInterval,
  pairedComparisons,
  quantile,
} from '@fb/eval';
import type { CellRecord } from './record.js';

/** Done cells on synthetic data with injected bias, without it, and on real data. */
export function partition(records: readonly CellRecord[]) {
  const done = records.filter((r) => r.status === 'done');
  return {
    done,
    biased: done.filter((r) => r.dataset.kind === 'synthetic' && !r.dataset.null && r.score),
    null: done.filter((r) => r.dataset.kind === 'synthetic' && r.dataset.null && r.score),
    real: done.filter((r) => r.dataset.kind === 'real'),
    failed: records.filter((r) => r.status === 'failed'),
  };
}

/** Labels in first-seen order. */
export function labelsOf(records: readonly CellRecord[]): string[] {
  return [...new Set(records.map((r) => r.plan.label))];
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
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

export interface EffectivenessRow {
  dataset: string;
  label: string;
  family: string;
  runs: number;
  recall: MeanInterval;
  precision: MeanInterval;
  /** Share of runs that found at least one injected group. */
  hitRate: number;
}

/** Recall and precision per data set and method, mean and t interval over seeds. */
export function effectiveness(records: readonly CellRecord[]): EffectivenessRow[] {
  const { biased } = partition(records);
  const rows: EffectivenessRow[] = [];
  for (const [k, rs] of groupBy(biased, (r) => `${r.dataset.label}\u0000${r.plan.label}`)) {
    const [dataset, label] = k.split('\u0000') as [string, string];
    rows.push({
      dataset,
      label,
      family: rs[0]!.family ?? '',
      runs: rs.length,
      recall: rateInterval(finite(rs.map((r) => r.score!.recall))),
      precision: rateInterval(finite(rs.map((r) => r.score!.precision))),
      hitRate: rs.filter((r) => r.score!.groupsFound > 0).length / rs.length,
    });
  }
  return rows;
}

/** Recall over every biased scenario, per method and per family (mean and interval over blocks). */
export function effectivenessOverall(records: readonly CellRecord[]) {
  const { biased } = partition(records);
  const per = (key: (r: CellRecord) => string) =>
    [...groupBy(biased, key)].map(([name, rs]) => ({
      name,
      family: rs[0]!.family ?? '',
      runs: rs.length,
      recall: rateInterval(finite(rs.map((r) => r.score!.recall))),
      precision: rateInterval(finite(rs.map((r) => r.score!.precision))),
    }));
  return { methods: per((r) => r.plan.label), families: per((r) => r.family ?? '') };
}

export interface PowerRow {
  label: string;
  nullRuns: number;
  /** Share of runs without bias in which the method raised its own alarm. */
  falseAlarmRate: number;
  /** Share of runs with bias in which it raised its alarm. */
  alarmRate: number;
  /** Power at the controlled false-positive rate (null without null runs). */
  controlled: DetectionPower | null;
}

/** False alarms on data without bias, and detection power at a controlled false-positive rate. */
export function power(records: readonly CellRecord[], fpr = 0.05): PowerRow[] {
  const { biased, null: nulls } = partition(records);
  return labelsOf([...biased, ...nulls]).map((label) => {
    const b = biased.filter((r) => r.plan.label === label);
    const n = nulls.filter((r) => r.plan.label === label);
    return {
      label,
      nullRuns: n.length,
      falseAlarmRate: n.length ? n.filter((r) => r.score!.alarm).length / n.length : Number.NaN,
      alarmRate: b.length ? b.filter((r) => r.score!.alarm).length / b.length : Number.NaN,
      controlled: detectionPower(
        n.map((r) => r.score!.alarmScore),
        b.map((r) => r.score!.alarmScore),
        fpr,
      ),
    };
  });
}

/** Paired comparisons of recall between methods over the blocks (data set, seed, model) they share. */
export function comparisons(records: readonly CellRecord[], alpha = 0.05): Comparison[] {
  const { biased } = partition(records);
  return pairedComparisons(
    biased.map((r) => ({ method: r.plan.label, block: r.block, value: r.score!.recall ?? Number.NaN })),
    alpha,
  );
}

export interface EfficiencyRow {
  label: string;
  runs: number;
  tsn: number;
  dsn: number;
  sur: number;
  dss: number;
  queries: number;
  wallSeconds: number;
  /** Share of runs with a true finding, and the median effort to the first one among them. */
  firstTrueShare: number;
  firstTrueSeconds: number;
  firstTrueQueries: number;
  effort50Share: number;
  effort50Seconds: number;
  effort50Queries: number;
  effort90Share: number;
  effort90Seconds: number;
  effort90Queries: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const median = (xs: number[]) => (xs.length ? quantile(xs, 0.5) : Number.NaN);

/** DSN, TSN, SUR, DSS, queries and the effort to the first true finding and to 50% / 90% recall. */
export function efficiency(records: readonly CellRecord[]): EfficiencyRow[] {
  const { biased } = partition(records);
  return [...groupBy(biased, (r) => r.plan.label)].map(([label, rs]) => {
    const effort = (pick: (r: CellRecord) => { seconds: number; queries: number } | null) => {
      const reached = rs.map(pick).filter((e) => e !== null);
      return {
        share: reached.length / rs.length,
        seconds: median(reached.map((e) => e.seconds)),
        queries: median(reached.map((e) => e.queries)),
      };
    };
    const first = effort((r) => r.score!.firstTrue);
    const e50 = effort((r) => r.score!.effort50);
    const e90 = effort((r) => r.score!.effort90);
    return {
      label,
      runs: rs.length,
      tsn: mean(rs.map((r) => r.metrics!.tsn)),
      dsn: mean(rs.map((r) => r.metrics!.dsn)),
      sur: mean(rs.map((r) => r.metrics!.sur)),
      dss: mean(finite(rs.map((r) => r.metrics!.dss))),
      queries: mean(rs.map((r) => r.metrics!.distinctQueries)),
      wallSeconds: mean(rs.map((r) => r.wallSeconds)),
      firstTrueShare: first.share,
      firstTrueSeconds: first.seconds,
      firstTrueQueries: first.queries,
      effort50Share: e50.share,
      effort50Seconds: e50.seconds,
      effort50Queries: e50.queries,
      effort90Share: e90.share,
      effort90Seconds: e90.seconds,
      effort90Queries: e90.queries,
    };
  });
}

/** The efficiency curves of every biased run, flattened for plotting. */
export function curves(records: readonly CellRecord[]) {
  const { biased } = partition(records);
  return biased.flatMap((r) =>
    r.score!.curve.map((p) => ({
      label: r.plan.label,
      run: r.key,
      seconds: p.seconds,
      queries: p.queries,
      trueFindings: p.trueFindings,
      recall: r.score!.biasedGroups ? p.groupsFound / r.score!.biasedGroups : 0,
    })),
  );
}

export const factorNames: FactorName[] = [
  'biasMagnitude',
  'granularity',
  'intersectionality',
  'similarity',
  'size',
  'uncertainty',
  'gap',
];

/** Detection rate of injected groups by factor, per method (factors with a single level are left out). */
export function factors(
  records: readonly CellRecord[],
): { factor: FactorName; label: string; levels: FactorLevel[] }[] {
  const { biased } = partition(records);
  const out: { factor: FactorName; label: string; levels: FactorLevel[] }[] = [];
  for (const factor of factorNames) {
    for (const [label, rs] of groupBy(biased, (r) => r.plan.label)) {
      const levels = factorTable(
        rs.flatMap((r) => r.score!.groups),
        factor,
      );
      if (levels.length > 1) out.push({ factor, label, levels });
    }
  }
  return out;
}

export interface SensitivityRow {
  entry: string;
  option: string;
  value: string;
  runs: number;
  recall: MeanInterval;
  precision: MeanInterval;
  dsn: number;
  wallSeconds: number;
}

/** Recall and cost by value of each varied method option. */
export function sensitivity(records: readonly CellRecord[]): SensitivityRow[] {
  const { biased } = partition(records);
  const varied = biased.filter((r) => r.plan.varied);
  return [
    ...groupBy(
      varied,
      (r) => `${r.plan.entry}\u0000${r.plan.varied!.option}\u0000${String(r.plan.varied!.value)}`,
    ),
  ].map(([k, rs]) => {
    const [entry, option, value] = k.split('\u0000') as [string, string, string];
    return {
      entry,
      option,
      value,
      runs: rs.length,
      recall: rateInterval(finite(rs.map((r) => r.score!.recall))),
      precision: rateInterval(finite(rs.map((r) => r.score!.precision))),
      dsn: mean(rs.map((r) => r.metrics!.dsn)),
      wallSeconds: mean(rs.map((r) => r.wallSeconds)),
    };
  });
}

export interface RealRow {
  dataset: string;
  label: string;
  runs: number;
  dsn: number;
  tsn: number;
  sur: number;
  wallSeconds: number;
  implicated: string;
  /** The same method's mean SUR on the synthetic data with bias, for comparison. */
  syntheticSur: number;
}

/** Real data sets alongside the synthetic ones. */
export function realData(records: readonly CellRecord[]): RealRow[] {
  const { real, biased } = partition(records);
  return [...groupBy(real, (r) => `${r.dataset.label}\u0000${r.plan.label}`)].map(([k, rs]) => {
    const [dataset, label] = k.split('\u0000') as [string, string];
    const counts = new Map<string, number>();
    for (const r of rs) for (const v of r.implicated) counts.set(v, (counts.get(v) ?? 0) + 1);
    return {
      dataset,
      label,
      runs: rs.length,
      dsn: mean(rs.map((r) => r.metrics!.dsn)),
      tsn: mean(rs.map((r) => r.metrics!.tsn)),
      sur: mean(rs.map((r) => r.metrics!.sur)),
      wallSeconds: mean(rs.map((r) => r.wallSeconds)),
      implicated: [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([v]) => v)
        .join(', '),
      syntheticSur: mean(biased.filter((r) => r.plan.label === label).map((r) => r.metrics!.sur)),
    };
  });
}

function jaccardOf<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number | null {
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
  /** Mean Jaccard of the injected groups both found (synthetic data with bias). */
  groups: number;
}

/** Agreement between every two methods over the blocks both ran on. */
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
        if (ra.score && rb.score && ra.score.biasedGroups > 0) {
          const found = (r: CellRecord) => new Set(r.score!.groups.filter((g) => g.found).map((g) => g.id));
          const jg = jaccardOf(found(ra), found(rb));
          grp.push(jg ?? 1);
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
  return [...groupBy(done, (r) => r.block)]
    .filter(([, rs]) => new Set(rs.map((r) => r.modelFingerprint)).size > 1)
    .map(([block]) => block);
}
