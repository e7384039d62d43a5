import type { Dataset, DiscoveryResult } from '@fb/core';
import { wilsonInterval } from '@fb/eval';
import { type AuditRow, aequitasAudit, subgroupsOf } from '@fb/metrics';
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
}

/**
 * A group of one protected attribute that fares worse than the attribute's reference group on a
 * rate, each rate with its 95% interval, the two intervals apart.
 */
export interface Disadvantage {
  readonly attribute: string;
  readonly group: string;
  readonly reference: string;
  /** `selection rate`, `FPR` or `FNR`, all with the positive label of the tables. */
  readonly metric: 'selection rate' | 'FPR' | 'FNR';
  /** Why a higher or lower value is worse for the people in the group. */
  readonly worse: 'higher' | 'lower';
  readonly rate: Rate;
  readonly referenceRate: Rate;
  /** rate / reference rate. */
  readonly ratio: number | null;
  readonly size: number;
}

export interface GroupMetrics {
  /** The outcome label counted as positive in every rate. */
  readonly positive: string;
  readonly attributes: string[];
  readonly overall: GroupRow;
  /** Intersections of the protected attributes (MetricFrame's by_group). */
  readonly byGroup: GroupRow[];
  /** Groups smaller than this are listed but left out of `summary` (their rates are too noisy to compare). */
  readonly minGroupSize: number;
  /** fairlearn's difference (max − min over groups) and ratio (min / max), per rate. */
  readonly summary: Record<
    'selectionRate' | 'tpr' | 'fpr' | 'fnr',
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

function rowOf(
  group: string,
  rows: ArrayLike<number>,
  y: Int32Array,
  pred: Int32Array,
  positive: number,
): GroupRow {
  let pp = 0;
  let p = 0;
  let tp = 0;
  let fp = 0;
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r]!;
    const predPos = pred[i] === positive;
    const truePos = y[i] === positive;
    if (predPos) pp++;
    if (truePos) {
      p++;
      if (predPos) tp++;
    } else if (predPos) fp++;
  }
  const n = rows.length;
  return {
    group,
    size: n,
    selectionRate: rate(pp, n),
    tpr: rate(tp, p),
    fpr: rate(fp, n - p),
    fnr: rate(p - tp, p),
  };
}

const MIN_GROUP_SIZE = 30;

/**
 * Group metrics of the decisions on `ds`, with `positive` (an outcome code) as the positive label and
 * `reference` (attribute -> value label) as the reference groups of the Aequitas table (default: the
 * largest group of each attribute).
 */
export function groupMetrics(
  ds: Dataset,
  predictions: Int32Array,
  positive: number,
  reference: Readonly<Record<string, string>> = {},
): GroupMetrics {
  const references = referenceGroups(ds, reference);
  const groups = subgroupsOf(ds);
  const members: number[][] = groups.keys.map(() => []);
  for (let i = 0; i < ds.n; i++) members[groups.codes[i]!]!.push(i);
  const all = Int32Array.from({ length: ds.n }, (_, i) => i);
  const overall = rowOf('all rows', all, ds.y, predictions, positive);
  const byGroup = groups.keys.map((key, g) => rowOf(key, members[g]!, ds.y, predictions, positive));
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
  const byAttribute = protectedNames.flatMap((attribute) => {
    const one = subgroupsOf(ds, [attribute]);
    const rows: number[][] = one.keys.map(() => []);
    for (let i = 0; i < ds.n; i++) rows[one.codes[i]!]!.push(i);
    return one.keys.map((key, g) => ({
      ...rowOf(key, rows[g]!, ds.y, predictions, positive),
      attribute,
      value: key.slice(attribute.length + 1),
    }));
  });
  const disadvantaged = worseOff(byAttribute, references, positive, ds.schema.outcome.favorable);
  return {
    positive: ds.schema.outcome.labels[positive]!,
    attributes: protectedNames,
    overall,
    byGroup,
    minGroupSize: MIN_GROUP_SIZE,
    summary: {
      selectionRate: summarise((r) => r.selectionRate),
      tpr: summarise((r) => r.tpr),
      fpr: summarise((r) => r.fpr),
      fnr: summarise((r) => r.fnr),
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

/**
 * The groups that fare worse than their attribute's reference (see `GroupMetrics.disadvantaged`).
 * What is worse follows from which label is favourable: with the favourable label positive, a lower
 * selection rate and a higher FNR (deserving people denied); with the other label positive, a higher
 * selection rate and a higher FPR. Groups below `MIN_GROUP_SIZE` rows are not compared.
 */
function worseOff(
  rows: readonly (GroupRow & { attribute: string; value: string })[],
  references: readonly GroupReference[],
  positive: number,
  favourable: number,
): Disadvantage[] {
  const positiveIsFavourable = positive === favourable;
  const checks: [Disadvantage['metric'], (r: GroupRow) => Rate, 'higher' | 'lower'][] = [
    ['selection rate', (r) => r.selectionRate, positiveIsFavourable ? 'lower' : 'higher'],
    positiveIsFavourable ? ['FNR', (r) => r.fnr, 'higher'] : ['FPR', (r) => r.fpr, 'higher'],
  ];
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
