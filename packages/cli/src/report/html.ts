import {
  type DiscoveryResult,
  describeSubgroup,
  labelRow,
  outcomeLabel,
  type Schema,
  type SubgroupFinding,
} from '@fb/core';
import type { GroupMetrics, MethodRun, Rate } from '../audit.js';
import type { PairRealism, ShownSubgroup } from '../findings.js';
import type { Chart } from './charts.js';

/** Everything the report shows. */
export interface AuditReport {
  readonly title: string;
  readonly command: string;
  readonly createdAt: string;
  /** True when the audit was interrupted: some methods did not finish. */
  readonly partial: boolean;
  readonly data: {
    readonly file: string;
    readonly rowsRead: number;
    /** The `--where` filter and the rows it kept of `rowsRead`. */
    readonly filter?: { readonly where: string; readonly rowsKept: number } | null;
    readonly rowsAudited: number;
    readonly notes: readonly string[];
    /** `--dataset`: the named dataset, its documented row set and the verified files. */
    readonly dataset?: {
      readonly name: string;
      readonly rowSet: string;
      readonly provenance: readonly string[];
    };
  };
  /** The subgroups listed: simplified and merged (see `shownSubgroups`); else each method's first five. */
  readonly subgroups?: readonly ShownSubgroup[];
  /** Which pairs of each individual method are on realistic inputs, and the rule. */
  readonly realism?: { readonly rule: string; readonly methods: readonly PairRealism[] };
  readonly schema: Schema;
  readonly model: {
    readonly description: string;
    readonly facts: readonly string[];
    readonly caveats: readonly string[];
  };
  readonly groups: GroupMetrics | null;
  readonly runs: readonly MethodRun[];
  readonly charts: readonly Chart[];
  readonly files: readonly string[];
}

const esc = (s: unknown): string =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const fmt = (v: number | null | undefined, digits = 3): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '–' : Number(v.toFixed(digits)).toString();

function pFmt(p: number | null): string {
  if (p === null) return '–';
  return p < 0.001 ? p.toExponential(1) : fmt(p, 3);
}

function rateCell(r: Rate): string {
  if (r.value === null) return '<td>–</td>';
  return `<td>${fmt(r.value)} <span class="ci">[${fmt(r.lo)}, ${fmt(r.hi)}]</span></td>`;
}

function table(head: string[], rows: string[][], cls = ''): string {
  return `<table${cls ? ` class="${cls}"` : ''}><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** A subgroup finding with its method, for the combined list. */
export interface RankedSubgroup {
  readonly methodId: string;
  readonly methodTitle: string;
  readonly finding: SubgroupFinding;
  readonly label: string;
}

/** The subgroups to show first: each method's findings in its own order, interleaved by rank. */
export function topSubgroups(report: Pick<AuditReport, 'runs' | 'schema'>, perMethod = 5): RankedSubgroup[] {
  const lists = report.runs
    .filter((r) => r.result?.findings.kind === 'subgroup')
    .map((r) =>
      (r.result!.findings as { subgroups: SubgroupFinding[] }).subgroups
        .filter((s) => s.conditions.length > 0)
        .slice(0, perMethod)
        .map((finding) => ({
          methodId: r.method.id,
          methodTitle: r.method.title,
          finding,
          label: describeSubgroup(report.schema, finding.conditions),
        })),
    );
  const out: RankedSubgroup[] = [];
  for (let k = 0; k < perMethod; k++) for (const l of lists) if (l[k]) out.push(l[k]);
  return out;
}

/** The subgroups the report lists (merged and simplified when the audit computed them). */
export function listedSubgroups(r: Pick<AuditReport, 'runs' | 'schema' | 'subgroups'>): ShownSubgroup[] {
  if (r.subgroups) return [...r.subgroups];
  return topSubgroups(r).map((s) => ({ ...s, droppedClauses: [], alsoFound: [], members: [] }));
}

const pct = (v: number | null) => (v === null ? '–' : `${fmt(100 * v, 1)}%`);
const rateText = (x: Rate) => `${pct(x.value)} [${pct(x.lo)}, ${pct(x.hi)}]`;

/** The summary's lead: which groups fare worse, on which rate, against which reference. */
function disadvantageItems(g: GroupMetrics): string {
  const list = g.disadvantaged ?? [];
  const on = g.lead?.given
    ? ` on ${esc(g.lead.metrics.join(', '))} (<code>--metric ${esc(g.lead.given)}</code>)`
    : '';
  const head = `Groups that fare worse than their reference${on} (positive label "${esc(g.positive)}"; 95% Wilson intervals that do not overlap; groups of fewer than ${g.minGroupSize} rows not compared):`;
  if (list.length === 0) {
    return `<li class="lead">${head} <b>none</b>: no group's interval lies on the worse side of its reference's.</li>`;
  }
  return `<li class="lead">${head}<ul class="disadvantaged">${list
    .map(
      (x) =>
        `<li><b class="group">${esc(x.attribute)} = ${esc(x.group)}</b> (${x.size} rows): ${esc(x.metric)} ${rateText(x.rate)} against ${esc(x.attribute)} = ${esc(x.reference)} ${rateText(x.referenceRate)}${x.ratio !== null ? `, ratio ${fmt(x.ratio, 2)}` : ''} (${x.worse} is worse)</li>`,
    )
    .join('')}</ul></li>`;
}

function dataSection(r: AuditReport): string {
  const attrs = r.schema.attributes.map((a) => [
    `<td>${esc(a.name)}</td>`,
    `<td>${a.protected ? '<b>protected</b>' : ''}</td>`,
    `<td>${esc(a.kind)}</td>`,
    `<td>${esc(a.categories ? a.categories.join(', ') : `${a.min} .. ${a.max}`)}</td>`,
  ]);
  const o = r.schema.outcome;
  return `<section id="data"><h2>Data</h2>
<p><b>${esc(r.data.file)}</b>: ${r.data.rowsRead} rows read${r.data.filter ? `, ${r.data.filter.rowsKept} of them kept by the filter <code>--where ${esc(r.data.filter.where)}</code>` : ''}, ${r.data.rowsAudited} audited. Outcome <b>${esc(o.name)}</b>
(${o.labels.map(esc).join(', ')}); favourable: <b>${esc(o.labels[o.favorable])}</b>.</p>
${r.data.dataset ? `<p class="rowset">Row set of <code>--dataset ${esc(r.data.dataset.name)}</code>: ${esc(r.data.dataset.rowSet)}. Codes are shown with the dataset's codebook labels.</p><ul class="small">${r.data.dataset.provenance.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>` : ''}
${r.data.notes.length ? `<ul class="notes">${r.data.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
<details><summary>Schema (${r.schema.attributes.length} attributes)</summary>${table(['attribute', '', 'kind', 'values'], attrs)}</details>
</section>`;
}

function modelSection(r: AuditReport): string {
  return `<section id="model"><h2>Model</h2><p><code>${esc(r.model.description)}</code></p>
<ul>${r.model.facts.map((f) => `<li>${esc(f)}</li>`).join('')}</ul>
${r.model.caveats.map((c) => `<p class="caveat">${esc(c)}</p>`).join('')}</section>`;
}

/** The group table's rates, in its column order. */
const RATE_NAMES = {
  selectionRate: 'selection rate',
  tpr: 'true positive rate',
  fpr: 'false positive rate',
  fnr: 'false negative rate',
  accuracy: 'accuracy',
  precision: 'precision',
} as const;

function groupSection(r: AuditReport): string {
  const g = r.groups;
  if (!g) return '';
  const rows = [g.overall, ...g.byGroup].map((row) => [
    `<td>${esc(row.group)}</td>`,
    `<td>${row.size}</td>`,
    rateCell(row.selectionRate),
    rateCell(row.tpr),
    rateCell(row.fpr),
    row.fnr ? rateCell(row.fnr) : '<td>–</td>',
    row.accuracy ? rateCell(row.accuracy) : '<td>–</td>',
    row.precision ? rateCell(row.precision) : '<td>–</td>',
  ]);
  const summary = (['selectionRate', 'tpr', 'fpr', 'fnr', 'accuracy', 'precision'] as const).map((m) => [
    `<td>${RATE_NAMES[m]}</td>`,
    `<td>${fmt(g.summary[m]?.difference)}</td>`,
    `<td>${fmt(g.summary[m]?.ratio)}</td>`,
  ]);
  const aeqCols = [
    'attribute_name',
    'attribute_value',
    'group_size',
    'pprev',
    'fpr',
    'fnr',
    'pprev_disparity',
    'fpr_disparity',
    'fnr_disparity',
    'Statistical Parity',
    'FPR Parity',
    'FNR Parity',
  ];
  const aeq = g.aequitas.map((row) =>
    aeqCols.map((c) => `<td>${typeof row[c] === 'number' ? fmt(row[c] as number) : esc(row[c] ?? '–')}</td>`),
  );
  return `<section id="groups"><h2>Group metrics</h2>
<p>Positive label in every rate: <b>${esc(g.positive)}</b>. Groups are the combinations of ${g.attributes.map(esc).join(', ')} present in the audited rows; intervals are 95% Wilson intervals of each rate. Accuracy is the share of rows whose decision is right (the positive label given exactly to the rows whose outcome it is); precision, the share of the rows given the positive label whose outcome it is.</p>
${table(['group', 'rows', ...Object.values(RATE_NAMES)], rows)}
<h3>Between groups (fairlearn's MetricFrame: difference = max − min, ratio = min / max, over the groups of at least ${g.minGroupSize} rows)</h3>
${table(['rate', 'difference', 'ratio'], summary)}
<h3>Aequitas table (one attribute at a time, disparity = group / reference, parity band [0.8, 1.25])</h3>
<p>Reference groups: ${(g.references ?? []).map((ref) => `${esc(ref.attribute)} = <b>${esc(ref.value)}</b> (${ref.given ? 'given' : 'the largest group'})`).join('; ')}.</p>
${table(aeqCols.map(esc), aeq, 'small')}
</section>`;
}

function subgroupSection(r: AuditReport): string {
  const top = listedSubgroups(r);
  const rows = top.map((s, i) => [
    `<td>${i + 1}</td>`,
    `<td class="subgroup">${esc(s.label)}${s.droppedClauses.length ? `<div class="small dropped">without ${s.droppedClauses.map(esc).join('; ')} (each changes the members by less than 1%)</div>` : ''}${s.alsoFound.length ? `<div class="small also">also found: ${s.alsoFound.map((a) => `${esc(a.method)}: ${esc(a.subgroup)} (Jaccard ${fmt(a.jaccard, 2)})`).join('; ')}</div>` : ''}</td>`,
    `<td>${esc(s.methodId)}</td>`,
    `<td>${s.finding.size}</td>`,
    `<td>${fmt(s.finding.effect)}</td>`,
    `<td>${pFmt(s.finding.pValue)}</td>`,
    `<td>${esc(s.finding.direction ?? '–')}</td>`,
    `<td class="small">${esc(subgroupDetail(s))}</td>`,
  ]);
  const meanings = r.runs
    .filter((run) => run.method.family === 'subgroup' && run.result)
    .map(
      (run) =>
        `<li><b>${esc(run.method.id)}</b>: effect = ${esc(run.method.effect)}; p-value: ${esc(run.method.pValue)}</li>`,
    );
  return `<section id="subgroups"><h2>Subgroups</h2>
<p class="small">Each method's first findings, interleaved by rank. Subgroups of fewer than 30 rows are not listed. A subgroup whose members overlap an earlier one's at Jaccard 0.8 or more is not listed again but named under it ("also found"); a clause that changes the members by less than 1% is left out of the description. Sizes count the members of the description shown.</p>
${top.length ? table(['#', 'subgroup', 'method', 'rows', 'effect', 'p-value', 'direction', 'details'], rows, 'subgroups') : '<p>No subgroup was reported.</p>'}
<ul class="meanings">${meanings.join('')}</ul></section>`;
}

function subgroupDetail(s: Pick<RankedSubgroup, 'finding'>): string {
  const d = s.finding.details;
  const keys = ['metric', 'errorType', 'positiveLabel', 'observed', 'expected', 'averageError', 't'].filter(
    (k) => d[k] !== undefined && d[k] !== null,
  );
  return keys.map((k) => `${k} ${typeof d[k] === 'number' ? fmt(d[k] as number) : String(d[k])}`).join(', ');
}

function pairSection(r: AuditReport): string {
  const runs = r.runs.filter((run) => run.result?.findings.kind === 'individual');
  if (runs.length === 0) return '';
  return `<section id="pairs"><h2>Individual discrimination: example pairs</h2>
${r.realism ? `<p class="small">Realistic inputs: ${esc(r.realism.rule)}. Only pairs whose two inputs are both realistic are shown as examples.</p>` : ''}${runs
  .map((run) => {
    const res = run.result as DiscoveryResult;
    const all = res.findings.kind === 'individual' ? res.findings.pairs : [];
    const realism = r.realism?.methods.find((m) => m.method === run.method.id);
    const compared = (res.extras['compared'] ?? []) as {
      caseId: number;
      attribute: string;
      from: number;
      to: number;
    }[];
    // One pair per tested input first, so the examples are not ten variants of one sample.
    const seen = new Set<string>();
    const pairs = all
      .filter((p, k) => {
        if (realism && !realism.flags[k]) return false;
        const key = p.sample.join(',');
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .slice(0, 10);
    const m = res.metrics;
    const share = realism
      ? ` Of the ${realism.checked} pairs kept, <b class="realistic-share">${realism.realistic} (${fmt(realism.checked ? (100 * realism.realistic) / realism.checked : 0, 1)}%) are on realistic inputs</b>.`
      : '';
    const head = `<p><b>${esc(run.method.id)}</b>: ${m.dsn} discriminatory inputs among ${m.tsn} tested (${fmt(100 * m.sur, 2)}%), ${m.pairs} pairs, ${m.queries} model queries.${share}</p>`;
    if (pairs.length === 0) {
      return `${head}<p>${all.length ? 'No pair on realistic inputs to show.' : 'No pair found within the budget.'}</p>`;
    }
    const rows = pairs.map((p) => {
      const a = shortLabels(r.schema, p.sample);
      const b = shortLabels(r.schema, p.counterfactual);
      const changed = r.schema.attributes.filter((at) => a[at.name] !== b[at.name]).map((at) => at.name);
      const rest = r.schema.attributes
        .filter((at) => !changed.includes(at.name))
        .map((at) => `${at.name} = ${a[at.name]}`)
        .join(', ');
      const real = (c: string) => {
        const v = compared.find((x) => x.caseId === p.caseId && x.attribute === c);
        return v ? ` (real values ${fmt(v.from, 4)} → ${fmt(v.to, 4)})` : '';
      };
      return [
        `<td class="pair">${changed.map((c) => `${esc(c)}: ${esc(a[c])} → ${esc(b[c])}${esc(real(c))}`).join('<br>')}</td>`,
        `<td>${esc(outcomeLabel(r.schema, p.sampleOutcome))}</td>`,
        `<td>${esc(outcomeLabel(r.schema, p.counterfactualOutcome))}</td>`,
        `<td class="small">${esc(rest)}</td>`,
      ];
    });
    return (
      head +
      table(
        ['protected change', 'decision before', 'decision after', 'everything else (same in both)'],
        rows,
        `pairs-${run.method.id}`,
      )
    );
  })
  .join('')}</section>`;
}

/** A row's labels, numbers to four significant digits (generated inputs carry long fractions). */
function shortLabels(schema: Schema, row: readonly number[]): Record<string, string> {
  const out = labelRow(schema, row);
  schema.attributes.forEach((a, j) => {
    if (!a.categories) out[a.name] = String(Number(row[j]!.toPrecision(4)));
  });
  return out;
}

function methodsSection(r: AuditReport): string {
  const rows = r.runs.map((run) => [
    `<td>${esc(run.method.title)}</td>`,
    `<td>${esc(run.method.family)}</td>`,
    `<td>${esc(run.status)}${run.reason ? `: ${esc(run.reason)}` : ''}</td>`,
    `<td>${run.result ? `${fmt(run.result.run.wallSeconds, 1)} s, ${esc(run.result.run.stopReason)}` : '–'}</td>`,
    `<td class="small"><b>Sees:</b> ${esc(run.method.sees)}<br><b>Cannot see:</b> ${esc(run.method.cannotSee)}</td>`,
  ]);
  return `<section id="methods"><h2>Methods and their limits</h2>${table(['method', 'family', 'status', 'time', 'what it can and cannot see'], rows)}</section>`;
}

function chartsSection(r: AuditReport): string {
  return r.charts
    .map(
      (c, i) => `<figure><figcaption>${esc(c.title)}</figcaption>${c.svg}
<script type="application/json" id="vega-lite-spec-${i}">${JSON.stringify(c.spec).replace(/</g, '\\u003c')}</script></figure>`,
    )
    .join('');
}

const STYLE = `body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.8em}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ddd;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f3f5f7}.ci{color:#777;font-size:.9em}.small{font-size:.85em}.caveat{background:#fff8e1;padding:.4em .7em;border-left:3px solid #e0b000}
.partial{background:#fdecea;padding:.6em;border-left:4px solid #c62828}.subgroup{font-weight:600}code{background:#f3f3f3;padding:0 .3em}
figure{margin:1em 0}figcaption{font-weight:600;margin-bottom:.3em}`;

/** The report as one HTML file: inline style, charts as inline SVG, no script to run and nothing to fetch. */
export function renderHtml(r: AuditReport): string {
  const top = listedSubgroups(r);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(r.title)}</title><style>${STYLE}</style></head><body>
<h1>${esc(r.title)}</h1>
<p class="small">${esc(r.createdAt)} · <code>${esc(r.command)}</code></p>
${r.partial ? '<p class="partial">This audit was interrupted: the methods that did not finish report what they had found, or nothing.</p>' : ''}
<section id="summary"><h2>Summary</h2><ul>
${r.groups ? disadvantageItems(r.groups) : ''}
${r.groups ? `<li>Selection rate of "${esc(r.groups.positive)}" ranges over ${fmt(r.groups.summary.selectionRate.difference)} between the intersectional groups of at least ${r.groups.minGroupSize} rows (ratio ${fmt(r.groups.summary.selectionRate.ratio)}).</li>` : ''}
${top
  .filter((s, i) => top.findIndex((t) => t.methodId === s.methodId) === i)
  .map(
    (s) =>
      `<li>Top subgroup of ${esc(s.methodId)}: <b class="subgroup">${esc(s.label)}</b>, ${s.finding.size} rows, effect ${fmt(s.finding.effect)}${s.finding.pValue !== null ? `, p = ${pFmt(s.finding.pValue)}` : ''}.</li>`,
  )
  .join('')}
${r.runs
  .filter((run) => run.result?.findings.kind === 'individual')
  .map((run) => {
    const realism = r.realism?.methods.find((m) => m.method === run.method.id);
    return `<li>${esc(run.method.id)}: ${run.result!.metrics.pairs} discriminatory pairs found among ${run.result!.metrics.tsn} tested inputs${realism ? `; of the ${realism.checked} kept, ${realism.realistic} on realistic inputs` : ''}.</li>`;
  })
  .join('')}
</ul></section>
${dataSection(r)}${modelSection(r)}${groupSection(r)}${chartsSection(r)}${subgroupSection(r)}${pairSection(r)}${methodsSection(r)}
<section id="files"><h2>Files</h2><ul>${r.files.map((f) => `<li>${esc(f)}</li>`).join('')}</ul></section>
</body></html>
`;
}
