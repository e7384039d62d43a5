import type { CellRecord } from './store.js';
import type { Study } from './study.js';

const fmt = (v: number | null, digits = 3) => (v === null || !Number.isFinite(v) ? '–' : v.toFixed(digits));
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

/** Mean over seeds per (scenario, method), as a Markdown table. */
export function resultsTable(study: Study, records: readonly CellRecord[]): string {
  const header =
    '| scenario | method | cells | hit rate | quality | TSN | DSN | SUR | DSS (s) | stop | model acc. |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|';
  const lines = [header];
  for (const scenario of study.scenarios) {
    for (const plan of study.methods) {
      const rs = records.filter((r) => r.scenario === scenario.label && r.label === plan.label);
      if (rs.length === 0) continue;
      const quality = rs.map((r) => r.quality).filter((q): q is number => q !== null);
      const dss = rs.map((r) => r.metrics.dss).filter((q): q is number => q !== null);
      const stops = [...new Set(rs.map((r) => r.stopReason))].join(', ');
      lines.push(
        `| ${scenario.label} | ${plan.label} | ${rs.length} | ${fmt(mean(rs.map((r) => (r.hit ? 1 : 0))), 2)} | ${
          quality.length ? `${fmt(mean(quality))} (${rs[0]!.qualityName})` : '–'
        } | ${fmt(mean(rs.map((r) => r.metrics.tsn)), 0)} | ${fmt(mean(rs.map((r) => r.metrics.dsn)), 0)} | ${fmt(
          mean(rs.map((r) => r.metrics.sur)),
        )} | ${dss.length ? fmt(mean(dss), 4) : '–'} | ${stops} | ${fmt(mean(rs.map((r) => r.modelAccuracy)))} |`,
      );
    }
  }
  return lines.join('\n');
}

export function reportMarkdown(study: Study, records: readonly CellRecord[]): string {
  return [
    `# fairbench study: ${study.name}`,
    '',
    study.description,
    '',
    `Seeds: ${study.seeds.join(', ')}. Budget per cell: ${JSON.stringify(study.budget)}. Model: ${study.model.kind} (l2 = ${study.model.l2}).`,
    '',
    resultsTable(study, records),
    '',
    'Hit: an individual method reports a pair whose two sides fall in the two planted subgroups; a subgroup',
    'method reports a subgroup whose members overlap the disadvantaged subgroup with Jaccard ≥ 0.5.',
    'Quality: for individual methods, the share of reported pairs whose sample the generator itself treats',
    'differently by protected value (precision); for subgroup methods, the best Jaccard overlap.',
    '',
  ].join('\n');
}
