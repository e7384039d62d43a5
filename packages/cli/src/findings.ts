import {
  type Condition,
  DataSupport,
  type Dataset,
  type DiscoveryResult,
  describeSubgroup,
  memberMask,
  type SubgroupFinding,
} from '@fb/core';
import { jaccard } from '@fb/eval';
import type { MethodRun } from './audit.js';

/** Subgroups whose member sets overlap at least this much (Jaccard) are one finding. */
export const MERGE_JACCARD = 0.8;
/** A clause is dropped from a description when it changes the membership by less than this share. */
export const CLAUSE_TOLERANCE = 0.01;
/** Candidates taken from each method before merging, and subgroups listed after. */
const CANDIDATES_PER_METHOD = 10;
const LISTED = 15;
/** Subgroups with fewer rows are not listed (as groups below this size are not compared). */
export const MIN_SUBGROUP_ROWS = 30;

/** A subgroup as the report lists it: simplified, merged with the ones it duplicates. */
export interface ShownSubgroup {
  readonly methodId: string;
  readonly methodTitle: string;
  /** The finding with its simplified conditions and its size on them. */
  readonly finding: SubgroupFinding;
  readonly label: string;
  /** Clauses dropped from the method's own description, in the data's labels. */
  readonly droppedClauses: readonly string[];
  /** Other findings with (nearly) the same members: method, description, Jaccard with this one. */
  readonly alsoFound: readonly { method: string; subgroup: string; jaccard: number }[];
  /** Member rows of the audited data (ascending). */
  readonly members: readonly number[];
}

function count(mask: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) n += mask[i]!;
  return n;
}

/**
 * The conjunction with every clause dropped whose removal adds fewer than `tolerance` × |members| rows
 * (removing a clause can only add rows): clauses are tried from the one adding fewest rows, one at a
 * time, and each test is against the members of the original conjunction, so the dropped clauses
 * together change the membership by less than `tolerance` of it.
 */
export function simplifyConditions(
  ds: Dataset,
  conditions: readonly Condition[],
  tolerance = CLAUSE_TOLERANCE,
): { conditions: Condition[]; dropped: Condition[] } {
  const original = memberMask(ds, conditions);
  const size = count(original);
  let kept = [...conditions];
  const dropped: Condition[] = [];
  for (;;) {
    if (kept.length <= 1) break;
    let best = -1;
    let bestAdded = Number.POSITIVE_INFINITY;
    kept.forEach((_, k) => {
      const added = count(memberMask(ds, [...kept.slice(0, k), ...kept.slice(k + 1)])) - size;
      if (added < bestAdded) {
        bestAdded = added;
        best = k;
      }
    });
    if (!(bestAdded < tolerance * size)) break;
    dropped.push(kept[best]!);
    kept = [...kept.slice(0, best), ...kept.slice(best + 1)];
  }
  return { conditions: kept, dropped };
}

/**
 * The subgroups to list: each method's first findings, interleaved by rank, each description
 * simplified (`simplifyConditions`), then merged: a subgroup whose members overlap a listed one's at
 * Jaccard >= `MERGE_JACCARD` is not listed again but named under it (`alsoFound`). No two listed
 * subgroups overlap that much.
 */
export function shownSubgroups(
  ds: Dataset,
  runs: readonly MethodRun[],
  listed = LISTED,
  minSize = MIN_SUBGROUP_ROWS,
): ShownSubgroup[] {
  const lists = runs
    .filter((r) => r.result?.findings.kind === 'subgroup')
    .map((r) =>
      (r.result!.findings as { subgroups: SubgroupFinding[] }).subgroups
        .filter((s) => s.conditions.length > 0 || (s.members?.length ?? 0) > 0)
        .slice(0, CANDIDATES_PER_METHOD)
        .map((finding) => ({ run: r, finding })),
    );
  const ranked: { run: MethodRun; finding: SubgroupFinding }[] = [];
  for (let k = 0; k < CANDIDATES_PER_METHOD; k++) for (const l of lists) if (l[k]) ranked.push(l[k]);
  const shown: (ShownSubgroup & { mask: Uint8Array })[] = [];
  for (const { run, finding } of ranked) {
    let conditions = finding.conditions;
    let dropped: Condition[] = [];
    let mask: Uint8Array;
    if (finding.members && finding.members.length > 0) {
      mask = new Uint8Array(ds.n);
      for (const i of finding.members) mask[i] = 1;
    } else {
      ({ conditions, dropped } = simplifyConditions(ds, finding.conditions));
      mask = memberMask(ds, conditions);
    }
    // A handful of rows is no group a rate can be read from.
    if (count(mask) < minSize) continue;
    const label = finding.rule ?? describeSubgroup(ds.schema, conditions);
    const twin = shown.find((s) => jaccard(s.mask, mask) >= MERGE_JACCARD);
    if (twin) {
      (twin.alsoFound as { method: string; subgroup: string; jaccard: number }[]).push({
        method: run.method.id,
        subgroup: label,
        jaccard: jaccard(twin.mask, mask),
      });
      continue;
    }
    if (shown.length >= listed) continue;
    const members: number[] = [];
    for (let i = 0; i < mask.length; i++) if (mask[i]) members.push(i);
    shown.push({
      methodId: run.method.id,
      methodTitle: run.method.title,
      finding: { ...finding, conditions: [...conditions], size: members.length },
      label,
      droppedClauses: dropped.map((c) => describeSubgroup(ds.schema, [c])),
      alsoFound: [],
      members,
      mask,
    });
  }
  return shown.map(({ mask: _mask, ...s }) => s);
}

/** A rule the data's rows obey: attribute `from` determines attribute `to` (`education` -> `education-num`). */
/** Per individual method: which stored pairs are on realistic inputs. */
export interface PairRealism {
  readonly method: string;
  readonly realistic: number;
  readonly checked: number;
  /** One flag per stored pair, in order. */
  readonly flags: readonly boolean[];
}

export function pairRealism(
  ds: Dataset,
  runs: readonly MethodRun[],
): { rule: string; methods: PairRealism[] } {
  // Realistic: in the support of the audited rows (every value one they hold, their functional
  // dependencies kept: education Preschool never with education-num 12).
  const support = new DataSupport(ds);
  const methods = runs
    .filter((r) => r.result?.findings.kind === 'individual')
    .map((r) => {
      const pairs = (r.result as DiscoveryResult<'individual'>).findings.pairs;
      const flags = pairs.map((p) => support.contains(p.sample) && support.contains(p.counterfactual));
      return { method: r.method.id, realistic: flags.filter(Boolean).length, checked: flags.length, flags };
    });
  const names = ds.schema.attributes.map((a) => a.name);
  const deps = support.dependencies.map((dep) => `${names[dep.from]} -> ${names[dep.to]}`);
  return {
    rule: `an input is realistic when each of its values is one the audited rows hold (continuous values within their range)${deps.length ? ` and it keeps the rows' functional dependencies (${deps.join(', ')})` : ''}`,
    methods,
  };
}

/**
 * The subgroup findings with their error names in terms of the group metrics' positive label. The
 * subgroup detectors count with the favourable label as positive; with a two-label outcome whose
 * positive label is the other one, their "false positive" is a false negative of the positive label
 * (and the reverse), so the names are swapped and `details.positiveLabel` says which label they use.
 */
export function inPositiveTerms(
  runs: readonly MethodRun[],
  positiveLabel: string,
  swap: boolean,
): MethodRun[] {
  const rename: Record<string, string> = swap
    ? {
        fpr: 'fnr',
        fnr: 'fpr',
        'false-positive': 'false-negative',
        'false-negative': 'false-positive',
        'positive-rate': 'favourable-decision-rate',
      }
    : {};
  return runs.map((run) => {
    if (run.result?.findings.kind !== 'subgroup') return run;
    const subgroups = run.result.findings.subgroups.map((s) => {
      const details: SubgroupFinding['details'] = { ...s.details, positiveLabel };
      for (const key of ['metric', 'errorType']) {
        const v = details[key];
        if (typeof v === 'string' && Object.hasOwn(rename, v)) details[key] = rename[v]!;
      }
      return { ...s, details };
    });
    return { ...run, result: { ...run.result, findings: { kind: 'subgroup' as const, subgroups } } };
  });
}
