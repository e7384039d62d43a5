import type { Dataset, DiscoveryResult } from '@fb/core';
import { wilsonInterval } from '@fb/eval';
import { type AuditRow, aequitasAudit, type Confusion, confusionByGroup, subgroupsOf } from '@fb/metrics';
import { UsageError } from './errors.js';
import { type AuditMethod, DEFAULT_METHODS } from './methods.js';
import type { PreparedModel } from './models.js';

/** A rate with its 95% Wilson interval, and the counts it comes from. */
export interface Rate {
  readonly value: number | null;
  readonly lo: number | null;
  readonly hi: number | null;
  readonly k: number;
  readonly n: number;
}

export interface GroupRow {
  /** `sex=Female|race=Black` style key in the data's labels. */
  readonly group: string;
  readonly size: number;
  /** Share of rows given the positive label. */
  readonly selectionRate: Rate;
  /** Share of actual positives given the positive label. */
  readonly tpr: Rate;
  /** Share of actual negatives given the positive label. */
  readonly fpr: Rate;
  /** Share of actual positives not given the positive label. */
  readonly fnr: Rate;
  /** Share of rows whose decision is right: given the positive label exactly when it is their outcome. */
  readonly accuracy: Rate;
  /** Precision (positive predictive value): share of the rows given the positive label whose outcome it is. */
  readonly precision: Rate;
}

/** The metrics `--metric` can name for the summary's lead. */
export const LEAD_METRICS = ['selection-rate', 'fpr', 'fnr', 'accuracy', 'precision'] as const;
export type LeadMetric = (typeof LEAD_METRICS)[number];

/** `--metric name`, checked: an unknown name is a `UsageError` naming the allowed ones. */
export function leadMetric(name: string): LeadMetric {
  if (!(LEAD_METRICS as readonly string[]).includes(name)) {
    throw new UsageError(`--metric: unknown metric "${name}" (allowed: ${LEAD_METRICS.join(', ')})`, {
      option: '--metric',
      value: name,
      allowed: [...LEAD_METRICS],
    });
  }
  return name as LeadMetric;
}

/**
 * A group of one protected attribute that fares worse than the attribute's reference group on a
 * rate, each rate with its 95% interval, the two intervals apart.
 */
export interface Disadvantage {
  readonly attribute: string;
  readonly group: string;
  readonly reference: string;
  /** The rate compared, with the positive label of the tables. */
  readonly metric: ComparedMetric;
  /** Why a higher or lower value is worse for the people in the group. */
  readonly worse: 'higher' | 'lower';
  readonly rate: Rate;
  readonly referenceRate: Rate;
  /** rate / reference rate. */
  readonly ratio: number | null;
  readonly size: number;
}

/** The names the summary gives the rates it compares. */
export type ComparedMetric = 'selection rate' | 'FPR' | 'FNR' | 'accuracy' | 'precision';

export interface GroupMetrics {
  /** The outcome label counted as positive in every rate. */
  readonly positive: string;
  /**
   * What `disadvantaged` compares: the metric `--metric` named (`given`), or by default the selection
   * rate and the error that goes against a person.
   */
  readonly lead: { readonly given: LeadMetric | null; readonly metrics: readonly ComparedMetric[] };
  readonly attributes: string[];
  readonly overall: GroupRow;
  /** Intersections of the protected attributes (MetricFrame's by_group). */
  readonly byGroup: GroupRow[];
  /** Groups smaller than this are listed but left out of `summary` (their rates are too noisy to compare). */
  readonly minGroupSize: number;
  /** fairlearn's difference (max − min over groups) and ratio (min / max), per rate. */
  readonly summary: Record<
    'selectionRate' | 'tpr' | 'fpr' | 'fnr' | 'accuracy' | 'precision',
    { difference: number | null; ratio: number | null }
  >;
  /**
   * The reference group of each protected attribute in the Aequitas table (disparity = group /
   * reference): the value given (`--reference`), else the largest group.
   */
  readonly references: readonly GroupReference[];
  /** Aequitas's audit table, one protected attribute at a time, with the same positive label. */
  readonly aequitas: AuditRow[];
  /** Each protected attribute's groups on their own (`race=Black`), with the same rates. */
  readonly byAttribute: (GroupRow & { attribute: string; value: string })[];
  /**
   * The groups (of at least `minGroupSize` rows) that fare worse than their reference: a lower
   * favourable-decision rate, or more of the error that goes against a person (denied though the
   * outcome was favourable), with the two 95% intervals apart. Largest gap first.
   */
  readonly disadvantaged: Disadvantage[];
}

export interface GroupReference {
  readonly attribute: string;
  readonly value: string;
  /** True when the value was given, false when it is the largest group. */
  readonly given: boolean;
}

/**
 * The reference group of every protected attribute of `ds`: the value `given` names, else the largest
 * group (the first of equal ones, as Aequitas's `maj`). A given attribute that is not protected, or a
 * value with no row, is a `UsageError` naming what exists.
 */
export function referenceGroups(ds: Dataset, given: Readonly<Record<string, string>> = {}): GroupReference[] {
  const names = ds.schema.attributes.filter((a) => a.protected).map((a) => a.name);
  for (const attribute of Object.keys(given)) {
    if (!names.includes(attribute)) {
      throw new UsageError(
        `--reference: "${attribute}" is not a protected attribute (protected: ${names.join(', ')})`,
        { option: '--reference', attribute, attributes: names },
      );
    }
  }
  return names.map((attribute) => {
    const groups = subgroupsOf(ds, [attribute]);
    const values = groups.keys.map((k) => k.slice(attribute.length + 1));
    const wanted = Object.hasOwn(given, attribute) ? given[attribute] : undefined;
    if (wanted !== undefined) {
      if (!values.includes(wanted)) {
        throw new UsageError(
          `--reference ${attribute}=${wanted}: "${wanted}" is not a value of "${attribute}" in the audited rows (values: ${values.join(', ')})`,
          { option: '--reference', attribute, value: wanted, values },
        );
      }
      return { attribute, value: wanted, given: true };
    }
    let largest = 0;
    groups.sizes.forEach((size, g) => {
      if (size > groups.sizes[largest]!) largest = g;
    });
    return { attribute, value: values[largest]!, given: false };
  });
}

function rate(k: number, n: number): Rate {
  if (n === 0) return { value: null, lo: null, hi: null, k, n };
  const w = wilsonInterval(k, n);
  return { value: w.rate, lo: w.lo, hi: w.hi, k, n };
}

/** A group's row of the table from its confusion counts (@fb/metrics), the positive label as "positive". */
function rowOf(group: string, c: Confusion): GroupRow {
  const n = c.tp + c.fp + c.tn + c.fn;
  return {
    group,
    size: n,
    selectionRate: rate(c.tp + c.fp, n),
    tpr: rate(c.tp, c.tp + c.fn),
    fpr: rate(c.fp, c.fp + c.tn),
    fnr: rate(c.fn, c.tp + c.fn),
    accuracy: rate(c.tp + c.tn, n),
    precision: rate(c.tp, c.tp + c.fp),
  };
}

/** One row per group of `groups` (keys and row codes), counted by @fb/metrics' `confusionByGroup`. */
function rowsOf(
  groups: { readonly keys: readonly string[]; readonly codes: Int32Array },
  y: Int32Array,
  pred: Int32Array,
  positive: number,
): { rows: GroupRow[]; total: Confusion } {
  const { counts, total } = confusionByGroup(y, pred, groups.codes, groups.keys.length, positive);
  return { rows: groups.keys.map((key, g) => rowOf(key, counts[g]!)), total };
}

const MIN_GROUP_SIZE = 30;

/**
 * Group metrics of the decisions on `ds`, with `positive` (an outcome code) as the positive label and
 * `reference` (attribute -> value label) as the reference groups of the Aequitas table (default: the
 * largest group of each attribute), and `lead` the metric on which `disadvantaged` compares the groups
 * (default: the selection rate and the error that goes against a person).
 */
export function groupMetrics(
  ds: Dataset,
  predictions: Int32Array,
  positive: number,
  reference: Readonly<Record<string, string>> = {},
  lead?: LeadMetric,
): GroupMetrics {
  const references = referenceGroups(ds, reference);
  const { rows: byGroup, total } = rowsOf(subgroupsOf(ds), ds.y, predictions, positive);
  const overall = rowOf('all rows', total);
  const summarise = (pick: (r: GroupRow) => Rate) => {
    const values = byGroup
      .filter((r) => r.size >= MIN_GROUP_SIZE)
      .map((r) => pick(r).value)
      .filter((v): v is number => v !== null);
    if (values.length === 0) return { difference: null, ratio: null };
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    return { difference: hi - lo, ratio: hi > 0 ? lo / hi : null };
  };
  const protectedNames = ds.schema.attributes.filter((a) => a.protected).map((a) => a.name);
  const byAttribute = protectedNames.flatMap((attribute) =>
    rowsOf(subgroupsOf(ds, [attribute]), ds.y, predictions, positive).rows.map((row) => ({
      ...row,
      attribute,
      value: row.group.slice(attribute.length + 1),
    })),
  );
  const checks = comparisons(lead, positive === ds.schema.outcome.favorable);
  const disadvantaged = worseOff(byAttribute, references, checks);
  return {
    positive: ds.schema.outcome.labels[positive]!,
    lead: { given: lead ?? null, metrics: checks.map(([metric]) => metric) },
    attributes: protectedNames,
    overall,
    byGroup,
    minGroupSize: MIN_GROUP_SIZE,
    summary: {
      selectionRate: summarise((r) => r.selectionRate),
      tpr: summarise((r) => r.tpr),
      fpr: summarise((r) => r.fpr),
      fnr: summarise((r) => r.fnr),
      accuracy: summarise((r) => r.accuracy),
      precision: summarise((r) => r.precision),
    },
    references,
    byAttribute,
    disadvantaged,
    aequitas: aequitasAudit(ds, predictions, {
      positive,
      referenceGroups: Object.fromEntries(references.map((r) => [r.attribute, r.value])),
    }),
  };
}

type Comparison = readonly [ComparedMetric, (r: GroupRow) => Rate, 'higher' | 'lower'];

/**
 * The rates `disadvantaged` compares, each with the side that is worse for the people in the group.
 * It follows from which label is favourable: with the favourable label positive, a lower selection
 * rate, a higher FNR (deserving people denied), a lower FPR and a higher precision (fewer of the
 * favourable decisions' errors, a stricter bar); with the other label positive, each the other way
 * round. A lower accuracy is worse whichever label is positive. Without `lead`: the selection rate and
 * the error that goes against a person (FNR with the favourable label positive, FPR otherwise).
 */
function comparisons(lead: LeadMetric | undefined, positiveIsFavourable: boolean): Comparison[] {
  const against = (favourableSide: 'higher' | 'lower') =>
    positiveIsFavourable ? favourableSide : favourableSide === 'higher' ? 'lower' : 'higher';
  const all: Record<LeadMetric, Comparison> = {
    'selection-rate': ['selection rate', (r) => r.selectionRate, against('lower')],
    fnr: ['FNR', (r) => r.fnr, against('higher')],
    fpr: ['FPR', (r) => r.fpr, against('lower')],
    precision: ['precision', (r) => r.precision, against('higher')],
    accuracy: ['accuracy', (r) => r.accuracy, 'lower'],
  };
  if (lead !== undefined) return [all[lead]];
  return [all['selection-rate'], positiveIsFavourable ? all.fnr : all.fpr];
}

/**
 * The groups that fare worse than their attribute's reference on the `checks` (see
 * `GroupMetrics.disadvantaged`). Groups below `MIN_GROUP_SIZE` rows are not compared.
 */
function worseOff(
  rows: readonly (GroupRow & { attribute: string; value: string })[],
  references: readonly GroupReference[],
  checks: readonly Comparison[],
): Disadvantage[] {
  const out: Disadvantage[] = [];
  for (const ref of references) {
    const base = rows.find((r) => r.attribute === ref.attribute && r.value === ref.value);
    if (!base) continue;
    for (const row of rows) {
      if (row.attribute !== ref.attribute || row === base || row.size < MIN_GROUP_SIZE) continue;
      for (const [metric, pick, worse] of checks) {
        const a = pick(row);
        const b = pick(base);
        if (a.value === null || b.value === null || a.lo === null || b.hi === null) continue;
        const apart = worse === 'higher' ? a.lo! > b.hi! : a.hi! < b.lo!;
        if (!apart) continue;
        out.push({
          attribute: ref.attribute,
          group: row.value,
          reference: ref.value,
          metric,
          worse,
          rate: a,
          referenceRate: b,
          ratio: b.value > 0 ? a.value / b.value : null,
          size: row.size,
        });
      }
    }
  }
  return out.sort(
    (p, q) =>
      Math.abs(q.rate.value! - q.referenceRate.value!) - Math.abs(p.rate.value! - p.referenceRate.value!),
  );
}

export interface MethodRun {
  readonly method: AuditMethod;
  readonly status: 'done' | 'skipped' | 'failed' | 'interrupted';
  /** Why it was skipped or failed. */
  readonly reason: string | null;
  readonly result: DiscoveryResult | null;
}

export interface DetectorProgress {
  start(method: AuditMethod, index: number, total: number, seconds: number): void;
  update(method: AuditMethod, fraction: number | null, found: number): void;
  end(run: MethodRun): void;
}

/**
 * Run the default detectors one after another under one time budget: each gets an equal share of what
 * is left. An abort (Ctrl-C) stops the running detector, which returns what it found so far, and skips
 * the rest.
 */
export async function runDetectors(
  prepared: PreparedModel,
  options: {
    seconds: number;
    seed: number;
    signal: AbortSignal;
    progress: DetectorProgress;
    only?: string[];
  },
): Promise<MethodRun[]> {
  const runs: MethodRun[] = [];
  const methods = DEFAULT_METHODS.filter((m) => !options.only || options.only.includes(m.id));
  const runnable = methods.filter((m) => skipReason(m, prepared) === null);
  const started = Date.now();
  let left = runnable.length;
  for (const [index, method] of methods.entries()) {
    const skip = skipReason(method, prepared);
    if (skip !== null || options.signal.aborted) {
      const run: MethodRun = {
        method,
        status: skip !== null ? 'skipped' : 'interrupted',
        reason: skip ?? 'interrupted before it started',
        result: null,
      };
      runs.push(run);
      options.progress.end(run);
      continue;
    }
    const remaining = options.seconds - (Date.now() - started) / 1000;
    const seconds = Math.max(1, remaining / left);
    left--;
    options.progress.start(method, index, methods.length, seconds);
    try {
      const result = await method.detector.run(
        { dataset: prepared.dataset, model: prepared.model },
        method.options,
        {
          seed: options.seed,
          budget: { maxSeconds: seconds },
          signal: options.signal,
          onProgress: (p) =>
            options.progress.update(
              method,
              p.total ? (p.done ?? 0) / p.total : Math.min(1, p.elapsedSeconds / seconds),
              p.discriminatory,
            ),
        },
      );
      const run: MethodRun = {
        method,
        status: result.run.aborted ? 'interrupted' : 'done',
        reason: result.run.aborted ? 'interrupted: the findings so far are reported' : null,
        result,
      };
      runs.push(run);
      options.progress.end(run);
    } catch (e) {
      // An interrupt that ended a wait for the model leaves nothing of this method to report.
      const run: MethodRun = options.signal.aborted
        ? {
            method,
            status: 'interrupted',
            reason: `interrupted before it returned (${(e as Error).message}): nothing of this method is reported`,
            result: null,
          }
        : { method, status: 'failed', reason: (e as Error).message, result: null };
      runs.push(run);
      options.progress.end(run);
    }
  }
  return runs;
}

function skipReason(method: AuditMethod, prepared: PreparedModel): string | null {
  if (method.needsNewInputs && !prepared.answersNewInputs) {
    return 'needs a model it can query on new inputs; recorded decisions cover only the rows of the data';
  }
  if (method.needsProba && typeof prepared.model.predictProba !== 'function') {
    return 'needs predicted probabilities (give --scores, or a model with probabilities)';
  }
  return null;
}
