import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type DiscoveryResult, resultToCsv, toCsv } from '@fb/core';
import type { GroupMetrics } from '../audit.js';
import { type Chart, groupRateChart, subgroupChart } from './charts.js';
import { type AuditReport, renderHtml, topSubgroups } from './html.js';

function groupCsv(g: GroupMetrics): string {
  const header = ['group', 'rows', 'positive_label'];
  for (const m of ['selection_rate', 'tpr', 'fpr']) header.push(m, `${m}_lo`, `${m}_hi`);
  const rows = [g.overall, ...g.byGroup].map((r) => [
    r.group,
    r.size,
    g.positive,
    ...[r.selectionRate, r.tpr, r.fpr].flatMap((x) => [x.value, x.lo, x.hi]),
  ]);
  return toCsv(header, rows);
}

function aequitasCsv(g: GroupMetrics): string {
  const header = [...new Set(g.aequitas.flatMap((r) => Object.keys(r)))];
  return toCsv(
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

/** Render the charts, then write report.html, report.json and the labelled CSVs into `dir`. Returns the file names. */
export async function writeReport(
  dir: string,
  base: Omit<AuditReport, 'charts' | 'files'>,
): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const charts: Chart[] = [];
  if (base.groups) charts.push(await groupRateChart(base.groups));
  const top = topSubgroups(base);
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
  for (const { id, result } of results) {
    csvs.push([`findings-${id}.csv`, resultToCsv(result, base.schema, { labels: true })]);
  }
  files.push(...csvs.map(([name]) => name));
  const report: AuditReport = { ...base, charts, files };
  for (const [name, text] of csvs) writeFileSync(path.join(dir, name), text);
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
    topSubgroups: top.map((s) => ({ method: s.methodId, subgroup: s.label, ...s.finding })),
    results: results.map((r) => r.result),
  };
  writeFileSync(path.join(dir, 'report.json'), `${JSON.stringify(json, null, 1)}\n`);
  writeFileSync(path.join(dir, 'report.html'), renderHtml(report));
  return files;
}
