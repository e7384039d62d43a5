import {
  clopperPearson,
  detectionPower,
  holm,
  type MeanInterval,
  meanInterval,
  pairedConcordance,
  wilcoxonSignedRank,
  wilsonInterval,
} from '@fb/eval';
import { TUNING_LABEL } from '../plan/cells.js';
import type { Question } from '../plan/config.js';
import type { CellRecord } from '../run/record.js';
import { type FloorName, floorMethods } from '../score/floors.js';
import { headlineMeasure, isRate, type Measure, measuresOf, measureValues } from '../score/measures.js';
import { groupBy } from './analysis.js';

/** Methods whose rows are outputs that know nothing (blind to labels and model): ranked, flagged. */
export const trivialMethods: ReadonlySet<string> = new Set([
  'random-finder',
  'largest-protected-cells',
  'whole-population',
  'size-matched-random',
  'every-variant-unasked',
]);

/** Methods whose rows are floors that ask the model (matched samplers), not published methods. */
export const samplerFloors: ReadonlySet<string> = new Set(['uniform-domain']);

/** Own null runs needed before a false-positive-controlled alarm rate is reported (5% level). */
export const MIN_NULLS_FOR_FPR = 40;

/** Family-wise level of the seed-level tests. */
export const ALPHA = 0.05;

/** One floor of a row: its mean over the row's seeds. */
export interface FloorValue {
  name: FloorName;
  value: MeanInterval;
}

/** A method's alarm against its own no-bias twin, paired by seed. */
export interface OwnTwinAlarm {
  /** Share of seeds whose planted run's alarm exceeds its own twin's (ties half): the paired AUC. */
  auc: number;
  lo: number;
  hi: number;
  seeds: number;
  /** Exact sign test of "the alarm does not react to the bias". */
  pValue: number;
  /**
   * With at least `MIN_NULLS_FOR_FPR` own null runs: the rate of planted runs above the threshold set
   * on the first half of the nulls, and the false-positive rate that threshold gives on the other
   * half (held out). Null with fewer nulls.
   */
  controlled: { tpr: number; tprLo: number; tprHi: number; fpr: number; fprLo: number; fprHi: number } | null;
}

/** One method (or baseline) on one question, scenario, model and measure, against its floors. */
export interface SkillRow {
  question: Question;
  scenario: string;
  model: string;
  family: 'individual' | 'subgroup';
  measure: Measure;
  label: string;
  method: string;
  /** A trivial output (blind to labels and model) or a floor method, rather than a published method. */
  baseline: 'trivial' | 'floor' | 'baseline' | null;
  /** Why the method is outside the ranking (it answers another question), or null (see the study). */
  unranked: string | null;
  /** Seeds with both the method's value and every floor's. */
  seeds: number;
  value: MeanInterval;
  floors: FloorValue[];
  /** The floor with the highest mean over these seeds: the one the excess is measured from. */
  strongest: FloorName | null;
  /** Per seed: value minus the strongest floor's value; mean with its Student t interval. */
  excess: MeanInterval;
  /** One-sided exact Wilcoxon signed-rank p-value of "the excess is positive", over seeds. */
  p: number | null;
  /**
   * Holm-adjusted over the methods of the same question, family, scenario, model and measure (trivial
   * outputs and floors are adjusted among themselves).
   */
  pHolm: number | null;
  /** Positive mean excess with Holm-adjusted p below `ALPHA`. */
  finds: boolean;
  /** The same method on the scenario's own no-bias twin, scored against its subgroups. */
  twin: MeanInterval;
  /** Null where the twin's alarm cannot fail (individual methods on σ(η + β): σ(η) never flips). */
  alarm: OwnTwinAlarm | null;
}

/** What a method is besides a published method: a trivial output, a floor, the exhaustive baseline, or null. */
export function baselineKind(method: string): SkillRow['baseline'] {
  if (trivialMethods.has(method)) return 'trivial';
  if (floorMethods.has(method) || samplerFloors.has(method)) return 'floor';
  return method === 'exhaustive-counterfactual' ? 'baseline' : null;
}

/** Rows that are outputs that know nothing or floors, not methods. */
export const isFloorLike = (r: Pick<SkillRow, 'baseline'>) =>
  r.baseline === 'trivial' || r.baseline === 'floor';

/** Rows of published methods that enter the ranking (not floors, not methods answering another question). */
export const isRanked = (r: Pick<SkillRow, 'baseline' | 'unranked'>) =>
  !isFloorLike(r) && r.unranked === null;

const key = (...parts: (string | number)[]) => parts.join('\u0000');

/** Measures that do not apply to a question: individual precision on σ(η + β) is 1 by construction. */
export function measuresFor(question: Question, family: 'individual' | 'subgroup'): readonly Measure[] {
  const all = measuresOf[family];
  return question === 'model-output' && family === 'individual' ? all.filter((m) => m !== 'precision') : all;
}

/** Per seed, every floor's value of one record on one measure (the block's floor cells included). */
function floorsOf(
  r: CellRecord,
  measure: Measure,
  blockFloors: readonly CellRecord[],
): Map<FloorName, number> {
  const out = new Map<FloorName, number>();
  for (const f of r.floors ?? []) {
    const v = f.measures[measure];
    if (typeof v === 'number' && Number.isFinite(v)) out.set(f.name, v);
  }
  for (const b of blockFloors) {
    const name = floorMethods.get(b.plan.method)!;
    if (b.plan.method === r.plan.method || !b.score) continue;
    const v = measureValues(b.score)[measure];
    if (typeof v === 'number' && Number.isFinite(v)) out.set(name, v);
  }
  return out;
}

/**
 * Interval of a measure's mean over seeds. Shares of planted subgroups (reach; subgroups found) use
 * Clopper-Pearson over the pooled subgroup counts, so that 0 of 30 is not [0, 0]; the rest Student t.
 */
function valueInterval(rs: readonly CellRecord[], measure: Measure, values: number[]): MeanInterval {
  const t = meanInterval(values, 0.95, isRate(measure) ? [0, Infinity] : [0, 1]);
  const counted =
    (measure === 'reach' && rs[0]!.family === 'individual') ||
    (measure === 'recall' && rs[0]!.family === 'subgroup');
  if (!counted) return t;
  let k = 0;
  let n = 0;
  for (const r of rs) {
    for (const g of r.score!.groups) {
      n++;
      if (measure === 'reach' ? g.reached : g.found) k++;
    }
  }
  if (n === 0) return t;
  const cp = clopperPearson(k, n);
  return { n: values.length, mean: t.mean, lo: cp.lo, hi: cp.hi };
}

function ownTwinAlarm(
  planted: readonly CellRecord[],
  twins: ReadonlyMap<number, CellRecord>,
): OwnTwinAlarm | null {
  const a: number[] = [];
  const b: number[] = [];
  for (const r of planted) {
    const t = twins.get(r.seed);
    if (!t?.score) continue;
    a.push(r.score!.alarmScore);
    b.push(t.score.alarmScore);
  }
  if (a.length === 0) return null;
  const c = pairedConcordance(a, b);
  let controlled: OwnTwinAlarm['controlled'] = null;
  if (b.length >= MIN_NULLS_FOR_FPR) {
    // Calibrate on the first half of the nulls (seed order), measure the rate on the other half.
    const half = Math.floor(b.length / 2);
    const power = detectionPower(b.slice(0, half), a, 0.05)!;
    const heldOut = b.slice(half);
    const falseAlarms = heldOut.filter((v) => v > power.threshold).length;
    const hits = a.filter((v) => v > power.threshold).length;
    const tpr = wilsonInterval(hits, a.length);
    const fpr = wilsonInterval(falseAlarms, heldOut.length);
    controlled = { tpr: tpr.rate, tprLo: tpr.lo, tprHi: tpr.hi, fpr: fpr.rate, fprLo: fpr.lo, fprHi: fpr.hi };
  }
  return { auc: c.auc, lo: c.lo, hi: c.hi, seeds: c.n, pValue: c.pValue, controlled };
}

/**
 * Every method against its floors, per question, family, scenario, model and measure, with the seed as
 * the independent unit: per seed the method's value, each floor's value matched to that run, and the
 * excess over the floor that is strongest on average; a one-sided signed-rank test of the excess over
 * seeds, Holm-adjusted across the methods of the table. The floor cells (the per-value scan) are
 * floors of the other methods of their block. Only records of data with planted bias that carry
 * floors enter; the twin's runs give the "does it react" column and the paired alarm.
 */
export function skill(records: readonly CellRecord[]): SkillRow[] {
  // The tuning grids have a table of their own (`tunedSkill`).
  return skillOf(records.filter((r) => !r.plan.tuned && r.dataset.label !== TUNING_LABEL));
}

/** One method's tuning: the grid point its tuning seeds chose, per question, family and model. */
export interface TuningChoice {
  question: Question;
  family: 'individual' | 'subgroup';
  model: string;
  entry: string;
  /** The chosen plan's label, option and value. */
  label: string;
  option: string;
  value: unknown;
  /** Mean excess over the strongest floor on the tuning seeds, per grid point, in grid order. */
  grid: { value: unknown; excess: number | null }[];
}

/**
 * The tuned table: each method's grid point chosen on the tuning seeds (the largest mean excess over
 * the strongest floor on its family's headline measure; ties to the default, then the smaller value), then scored on
 * the base scenario's evaluation seeds, which took no part in the choice, with the floors and tests
 * of `skill` (Holm over the tuned methods of each table).
 */
export function tunedSkill(records: readonly CellRecord[]): { choices: TuningChoice[]; rows: SkillRow[] } {
  const onGrid = (r: CellRecord) => r.plan.tuned !== undefined || r.plan.gridDefault === true;
  const tuning = skillOf(records.filter((r) => r.dataset.label === TUNING_LABEL && onGrid(r)));
  const choices: TuningChoice[] = [];
  const tables = groupBy(
    // Each grid is chosen on its family's headline measure.
    tuning.filter((r) => r.measure === headlineMeasure[r.family]),
    (r) => key(r.question, r.family, r.model),
  );
  const planOf = new Map(records.filter(onGrid).map((r) => [r.plan.label, r.plan]));
  const pointOf = (plan: CellRecord['plan']) => plan.tuned ?? { option: 'default', value: 'default' };
  for (const rows of tables.values()) {
    for (const grid of groupBy(rows, (r) => planOf.get(r.label)!.entry).values()) {
      const points = grid
        .map((r) => ({ r, plan: planOf.get(r.label)! }))
        .sort((a, b) => gridIndex(a.plan) - gridIndex(b.plan));
      let best = points[0]!;
      for (const p of points) if (p.r.excess.mean > best.r.excess.mean) best = p;
      choices.push({
        question: best.r.question,
        family: best.r.family,
        model: best.r.model,
        entry: best.plan.entry,
        label: best.plan.label,
        option: pointOf(points.find((p) => p.plan.tuned)?.plan ?? best.plan).option,
        value: pointOf(best.plan).value,
        grid: points.map((p) => ({
          value: pointOf(p.plan).value,
          excess: Number.isFinite(p.r.excess.mean) ? p.r.excess.mean : null,
        })),
      });
    }
  }
  const chosen = new Set(choices.map((c) => key(c.question, c.model, c.label)));
  // The evaluation seeds: those the grid points ran on (the default point runs on more).
  const seeds = new Set(records.filter((r) => r.plan.tuned && r.dataset.label === 'base').map((r) => r.seed));
  const evaluation = records.filter(
    (r) =>
      r.dataset.label === 'base' &&
      seeds.has(r.seed) &&
      (onGrid(r) ? chosen.has(key(r.question, r.model, r.plan.label)) : floorMethods.has(r.plan.method)),
  );
  return { choices, rows: skillOf(evaluation) };
}

/** A plan's order in its entry's grid: the default first, then the values (non-numeric keep their order). */
function gridIndex(plan: CellRecord['plan']): number {
  if (!plan.tuned) return Number.NEGATIVE_INFINITY;
  const v = plan.tuned.value;
  return typeof v === 'number' ? v : 0;
}

function skillOf(records: readonly CellRecord[]): SkillRow[] {
  const done = records.filter((r) => r.status === 'done' && r.dataset.kind === 'synthetic');
  const planted = done.filter((r) => !r.dataset.null && r.score && r.floors && r.family);
  const nulls = done.filter((r) => r.dataset.null && r.score);
  const floorCells = groupBy(
    planted.filter((r) => floorMethods.has(r.plan.method)),
    (r) => r.block,
  );
  // A twin run is the twin of every scenario it was scored against (its `chance` entries).
  const twinOf = new Map<string, CellRecord>();
  for (const n of nulls) {
    for (const c of n.chance) twinOf.set(key(n.question, n.model, n.plan.label, c.scenario, n.seed), n);
  }
  const rows: SkillRow[] = [];
  const tables = groupBy(planted, (r) => key(r.question, r.family!, r.dataset.label, r.model));
  for (const rs of tables.values()) {
    const r0 = rs[0]!;
    const family = r0.family as 'individual' | 'subgroup';
    for (const measure of measuresFor(r0.question, family)) {
      const table: SkillRow[] = [];
      for (const mine of groupBy(rs, (r) => r.plan.label).values()) {
        const row = skillRow(mine, measure, floorCells, twinOf);
        if (row) table.push(row);
      }
      // Holm's family: the ranked methods of the table; trivial outputs and floors form a family of
      // their own (they are checked, never claimed), and so do methods outside the ranking.
      for (const family of [
        table.filter(isRanked),
        table.filter(isFloorLike),
        table.filter((t) => !isFloorLike(t) && t.unranked !== null),
      ]) {
        const tested = family.filter((t) => t.p !== null);
        const adjusted = holm(tested.map((t) => t.p!));
        tested.forEach((t, i) => {
          t.pHolm = adjusted[i]!;
          t.finds = t.excess.mean > 0 && adjusted[i]! < ALPHA;
        });
      }
      table.sort((a, b) => (b.excess.mean || 0) - (a.excess.mean || 0));
      rows.push(...table);
    }
  }
  return rows;
}

function skillRow(
  mine: readonly CellRecord[],
  measure: Measure,
  floorCells: ReadonlyMap<string, CellRecord[]>,
  twinOf: ReadonlyMap<string, CellRecord>,
): SkillRow | null {
  const r0 = mine[0]!;
  // Per seed: the method's value and its floors; seeds missing any floor the others have are left out.
  const perSeed = mine
    .map((r) => ({
      r,
      v: measureValues(r.score!)[measure],
      f: floorsOf(r, measure, floorCells.get(r.block) ?? []),
    }))
    .filter((s): s is typeof s & { v: number } => typeof s.v === 'number' && Number.isFinite(s.v));
  if (perSeed.length === 0) return null;
  const names = [...new Set(perSeed.flatMap((s) => [...s.f.keys()]))].filter((n) =>
    perSeed.every((s) => s.f.has(n)),
  );
  const floors: FloorValue[] = names.map((name) => ({
    name,
    value: meanInterval(
      perSeed.map((s) => s.f.get(name)!),
      0.95,
      isRate(measure) ? [0, Infinity] : [0, 1],
    ),
  }));
  const strongest = floors.reduce<FloorValue | null>(
    (a, b) => (a && a.value.mean >= b.value.mean ? a : b),
    null,
  );
  const values = perSeed.map((s) => s.v);
  const floorValues = strongest ? perSeed.map((s) => s.f.get(strongest.name)!) : values.map(() => 0);
  const excess = meanInterval(values.map((v, i) => v - floorValues[i]!));
  const test = strongest && values.length > 0 ? wilcoxonSignedRank(values, floorValues) : null;
  const twins = new Map<number, CellRecord>();
  for (const r of mine) {
    const t = twinOf.get(key(r.question, r.model, r.plan.label, r.dataset.label, r.seed));
    if (t) twins.set(r.seed, t);
  }
  const twinValues = [...twins.values()].flatMap((t) => {
    const c = t.chance.find((x) => x.scenario === r0.dataset.label);
    const v = c ? measureValues(c.score)[measure] : null;
    return typeof v === 'number' && Number.isFinite(v) ? [v] : [];
  });
  const family = r0.family as 'individual' | 'subgroup';
  const alarmFails = !(family === 'individual' && r0.question === 'model-output');
  return {
    question: r0.question,
    scenario: r0.dataset.label,
    model: r0.model,
    family,
    measure,
    label: r0.plan.label,
    method: r0.plan.method,
    baseline: baselineKind(r0.plan.method),
    unranked: r0.plan.unranked ?? null,
    seeds: perSeed.length,
    value: valueInterval(
      perSeed.map((s) => s.r),
      measure,
      values,
    ),
    floors,
    strongest: strongest?.name ?? null,
    excess,
    p: test ? test.pGreater : null,
    pHolm: null,
    finds: false,
    twin: meanInterval(twinValues, 0.95, isRate(measure) ? [0, Infinity] : [0, 1]),
    alarm: alarmFails ? ownTwinAlarm(mine, twins) : null,
  };
}
