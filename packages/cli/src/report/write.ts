import type { DiscoveryResult } from '@fb/core';
import type { GroupMetrics } from '../audit.js';
import { type Chart, groupRateChart, subgroupChart } from './charts.js';
import { findingsCsv, safeCsv } from './csv.js';
import { type AuditReport, listedSubgroups, renderHtml } from './html.js';
import { writeOutput } from './output.js';

function groupCsv(g: GroupMetrics): string {
  const header = ['group', 'rows', 'positive_label'];
  for (const m of ['selection_rate', 'tpr', 'fpr', 'fnr', 'accuracy', 'precision']) {
    header.push(m, `${m}_lo`, `${m}_hi`);
  }
  const rows = [g.overall, ...g.byGroup].map((r) => [
    r.group,
    r.size,
    g.positive,
    ...[r.selectionRate, r.tpr, r.fpr, r.fnr, r.accuracy, r.precision].flatMap((x) => [x.value, x.lo, x.hi]),
  ]);
  return safeCsv(header, rows);
}

function aequitasCsv(g: GroupMetrics): string {
  const header = [...new Set(g.aequitas.flatMap((r) => Object.keys(r)))];
  return safeCsv(
    header,
    g.aequitas.map((r) =>
      header.map((h) => {
        const v = r[h];
        return v === undefined || v === null ? null : typeof v === 'boolean' ? String(v) : v;
      }),
    ),
  );
}

/** Pairs kept in the report files per method; the run metrics still count them all. */
export const MAX_PAIRS = 1000;

/** The result with at most `MAX_PAIRS` pairs, saying so in its extras. */
function trimmed(result: DiscoveryResult): DiscoveryResult {
  const f = result.findings;
  if (f.kind !== 'individual' || f.pairs.length <= MAX_PAIRS) return result;
  return {
    ...result,
    findings: { ...f, pairs: f.pairs.slice(0, MAX_PAIRS) },
    extras: { ...result.extras, pairsInReport: { kept: MAX_PAIRS, found: f.pairs.length } },
  };
}

/**
 * Render the charts, then write report.html, report.json and the labelled CSVs into `dir`, with a
 * manifest listing them. `dir` must be new, empty, or hold only an earlier report's files (which are
 * replaced), and hold none of `inputs` (see `claimOutput`). Returns the file names.
 */
export async function writeReport(
  dir: string,
  base: Omit<AuditReport, 'charts' | 'files'>,
  inputs: readonly string[] = [],
): Promise<string[]> {
  const charts: Chart[] = [];
  if (base.groups) charts.push(await groupRateChart(base.groups));
  const top = listedSubgroups(base);
  const bars = top
    .filter((s) => s.finding.effect !== null)
    .map((s) => ({ label: s.label, method: s.methodId, effect: s.finding.effect! }));
  if (bars.length > 0) charts.push(await subgroupChart(bars));
  const files: string[] = ['report.html', 'report.json'];
  const csvs: [string, string][] = [];
  if (base.groups) {
    csvs.push(['group-metrics.csv', groupCsv(base.groups)], ['aequitas-table.csv', aequitasCsv(base.groups)]);
  }
  const results = base.runs
    .filter((r) => r.result)
    .map((r) => ({ id: r.method.id, result: trimmed(r.result!) }));
  const renames = new Map<string, string>();
  for (const { id, result } of results) {
    const { csv, renamed } = findingsCsv(result, base.schema);
    for (const [from, to] of renamed) renames.set(from, to);
    csvs.push([`findings-${id}.csv`, csv]);
  }
  files.push(...csvs.map(([name]) => name));
  const notes = [
    ...base.data.notes,
    ...[...renames].map(
      ([from, to]) =>
        `column "${from}" is written as "${to}" in the findings CSVs: their layout has a "${from}" column of its own`,
    ),
  ];
  const report: AuditReport = { ...base, data: { ...base.data, notes }, charts, files };
  const json = {
    title: report.title,
    command: report.command,
    createdAt: report.createdAt,
    partial: report.partial,
    data: report.data,
    schema: report.schema,
    model: report.model,
    groupMetrics: report.groups,
    methods: report.runs.map((r) => ({
      id: r.method.id,
      family: r.method.family,
      status: r.status,
      reason: r.reason,
    })),
    topSubgroups: top.map((s) => ({
      method: s.methodId,
      subgroup: s.label,
      ...s.finding,
      members: s.members,
      droppedClauses: s.droppedClauses,
      alsoFound: s.alsoFound,
    })),
    realism: report.realism ?? null,
    results: results.map((r) => r.result),
  };
  writeOutput(
    dir,
    [['report.html', renderHtml(report)], ['report.json', `${JSON.stringify(json, null, 1)}\n`], ...csvs],
    inputs,
    report.command,
  );
  return files;
}
