import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  agreement,
  comparisons,
  curves,
  effectiveness,
  effectivenessOverall,
  efficiency,
  factors,
  modelMismatches,
  partition,
  power,
  realData,
  sensitivity,
} from './analysis.js';
import type { Study } from './config.js';
import {
  agreementFigure,
  effectivenessFigure,
  efficiencyFigure,
  type FigureSpec,
  factorFigure,
  realFigure,
  render,
  sensitivityFigure,
} from './figures.js';
import type { CellRecord } from './record.js';
import { latex, markdown, num, type Table, withInterval } from './tables.js';

export interface Report {
  markdown: string;
  tables: Table[];
  figures: { name: string; svg: string }[];
}

const FPR = 0.05;

const pct = (v: number) => (Number.isFinite(v) ? `${(100 * v).toFixed(0)}%` : '–');

/** Build the report of a study from its stored records: Markdown, LaTeX tables and SVG figures. */
export async function buildReport(study: Study, records: readonly CellRecord[]): Promise<Report> {
  const parts = partition(records);
  const tables: Table[] = [];
  const figures: { name: string; svg: string }[] = [];
  const md: string[] = [];
  const addTable = (t: Table) => {
    tables.push(t);
    md.push(`**Table: ${t.caption}** ([LaTeX](tables/${t.name}.tex))`, '', markdown(t), '');
  };
  const addFigure = async (name: string, spec: FigureSpec, values: readonly object[], alt: string) => {
    if (values.length === 0) return;
    figures.push({ name, svg: await render(spec, values) });
    md.push(`![${alt}](figures/${name}.svg)`, '');
  };

  md.push(
    `# fairbench study: ${study.name}`,
    '',
    study.description,
    '',
    `Seeds: ${study.seeds.join(', ')}. Budget per run: ${JSON.stringify(study.budget)}. Models: ${study.models
      .map((m) => m.label)
      .join(', ')}. Jaccard threshold for subgroup hits: ${study.jaccardThreshold}.`,
    '',
    `Cells: ${records.length} stored, ${parts.done.length} done, ${parts.failed.length} failed.`,
  );
  const mismatches = modelMismatches(records);
  md.push(
    mismatches.length === 0
      ? 'Every method of a block (data set, seed, model) audited the identical model (same prediction fingerprint).'
      : `**Warning:** methods audited different models in ${mismatches.length} blocks: ${mismatches.join('; ')}.`,
    '',
  );

  md.push('## Effectiveness', '');
  const overall = effectivenessOverall(records);
  addTable({
    name: 'effectiveness-methods',
    caption: 'Recall and precision per method over all scenarios with bias (mean [95% CI])',
    headers: ['method', 'family', 'runs', 'recall', 'precision'],
    align: ['l', 'l', 'r', 'r', 'r'],
    rows: overall.methods.map((m) => [
      m.name,
      m.family,
      String(m.runs),
      withInterval(m.recall),
      withInterval(m.precision),
    ]),
  });
  addTable({
    name: 'effectiveness-families',
    caption: 'Recall and precision per family of methods',
    headers: ['family', 'runs', 'recall', 'precision'],
    align: ['l', 'r', 'r', 'r'],
    rows: overall.families.map((m) => [
      m.name,
      String(m.runs),
      withInterval(m.recall),
      withInterval(m.precision),
    ]),
  });
  await addFigure(
    'effectiveness',
    effectivenessFigure,
    overall.methods
      .map((m) => ({
        method: m.name,
        family: m.family,
        recall: m.recall.mean,
        lo: m.recall.lo,
        hi: m.recall.hi,
      }))
      .sort((a, b) => b.recall - a.recall),
    'recall per method',
  );
  addTable({
    name: 'effectiveness-scenarios',
    caption: 'Recall, precision and hit rate per scenario and method (mean [95% CI] over seeds)',
    headers: ['scenario', 'method', 'runs', 'recall', 'precision', 'hit rate'],
    align: ['l', 'l', 'r', 'r', 'r', 'r'],
    rows: effectiveness(records).map((r) => [
      r.dataset,
      r.label,
      String(r.runs),
      withInterval(r.recall),
      withInterval(r.precision),
      pct(r.hitRate),
    ]),
  });
  md.push(
    'Recall: share of the injected groups found (an individual method finds a group with a pair judged `injected`',
    'whose two sides the group separates; a subgroup method with a finding whose members overlap the group with',
    `Jaccard ≥ ${study.jaccardThreshold}). Precision: share of findings that are true (pairs judged \`injected\`, or hits).`,
    '',
  );

  md.push('## False positives and detection power', '');
  const pw = power(records, FPR);
  addTable({
    name: 'power',
    caption: `Alarms on data without bias, and detection power at a false-positive rate of ${FPR}`,
    headers: [
      'method',
      'null runs',
      'false alarms',
      'alarms with bias',
      'threshold',
      'achieved FPR',
      'power',
    ],
    align: ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
    rows: pw.map((p) => [
      p.label,
      String(p.nullRuns),
      pct(p.falseAlarmRate),
      pct(p.alarmRate),
      num(p.controlled?.threshold),
      p.controlled ? pct(p.controlled.achievedFpr) : '–',
      p.controlled ? pct(p.controlled.power) : '–',
    ]),
  });
  md.push(
    'False alarms: runs on data without injected bias in which the method raised its own alarm (any pair; any',
    'subgroup, or any significant at 0.05 when it reports p-values). Power: share of runs with bias whose alarm',
    'score (SUR, or the top subgroup’s 1 − p / score) exceeds the highest score allowed by the runs without bias.',
    '',
  );

  md.push('## Comparisons between methods', '');
  addTable({
    name: 'comparisons',
    caption: 'Paired Wilcoxon signed-rank tests of recall over shared blocks, Holm-adjusted',
    headers: ['A', 'B', 'blocks', 'mean A − B', 'p', 'p (Holm)', 'better'],
    align: ['l', 'l', 'r', 'r', 'r', 'r', 'l'],
    rows: comparisons(records).map((c) => [
      c.a,
      c.b,
      String(c.n),
      num(c.meanDifference),
      num(c.pValue, 4),
      num(c.pHolm, 4),
      c.better ?? '–',
    ]),
  });

  md.push('## Efficiency', '');
  addTable({
    name: 'efficiency',
    caption:
      'Cost and effort per method (means over runs with bias; efforts are medians over runs that reached them)',
    headers: [
      'method',
      'TSN',
      'DSN',
      'SUR',
      'DSS (s)',
      'queries',
      'time (s)',
      'first true (s / queries)',
      '50% recall',
      '90% recall',
    ],
    align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    rows: efficiency(records).map((e) => [
      e.label,
      num(e.tsn, 0),
      num(e.dsn, 0),
      num(e.sur),
      num(e.dss, 4),
      num(e.queries, 0),
      num(e.wallSeconds, 2),
      `${pct(e.firstTrueShare)}: ${num(e.firstTrueSeconds, 2)} / ${num(e.firstTrueQueries, 0)}`,
      `${pct(e.effort50Share)}: ${num(e.effort50Seconds, 2)} / ${num(e.effort50Queries, 0)}`,
      `${pct(e.effort90Share)}: ${num(e.effort90Seconds, 2)} / ${num(e.effort90Queries, 0)}`,
    ]),
  });
  const curvePoints = curves(records);
  await addFigure('efficiency-time', efficiencyFigure('seconds'), curvePoints, 'recall over time');
  await addFigure(
    'efficiency-queries',
    efficiencyFigure('queries'),
    curvePoints,
    'recall over model queries',
  );

  md.push('## Difficulty factors', '');
  const fs = factors(records);
  addTable({
    name: 'factors',
    caption: 'Detection rate of injected groups by factor level (Wilson 95% CI)',
    headers: ['factor', 'method', 'level', 'groups', 'detected'],
    align: ['l', 'l', 'l', 'r', 'r'],
    rows: fs.flatMap((f) =>
      f.levels.map((l) => [
        f.factor,
        f.label,
        l.level,
        String(l.groups),
        `${num(l.rate, 2)} [${num(l.lo, 2)}, ${num(l.hi, 2)}]`,
      ]),
    ),
  });
  await addFigure(
    'factors',
    factorFigure,
    fs.flatMap((f) =>
      f.levels.map((l) => ({ factor: f.factor, label: f.label, from: l.from, rate: l.rate })),
    ),
    'detection rate by factor',
  );

  md.push('## Sensitivity to method options', '');
  const sens = sensitivity(records);
  addTable({
    name: 'sensitivity',
    caption: 'Recall and cost by value of each varied option',
    headers: ['method', 'option', 'value', 'runs', 'recall', 'precision', 'DSN', 'time (s)'],
    align: ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r'],
    rows: sens.map((s) => [
      s.entry,
      s.option,
      s.value,
      String(s.runs),
      withInterval(s.recall),
      withInterval(s.precision),
      num(s.dsn, 0),
      num(s.wallSeconds, 2),
    ]),
  });
  await addFigure(
    'sensitivity',
    sensitivityFigure,
    sens.map((s) => ({ panel: `${s.entry}: ${s.option}`, value: s.value, recall: s.recall.mean })),
    'sensitivity to options',
  );

  md.push('## Real data alongside synthetic', '');
  const real = realData(records);
  if (study.real.length === 0) md.push('_This study runs no real data set._', '');
  else {
    addTable({
      name: 'real',
      caption: 'Methods on real data (no ground truth) next to their SUR on synthetic data',
      headers: ['data set', 'method', 'runs', 'TSN', 'DSN', 'SUR', 'SUR synthetic', 'time (s)', 'points at'],
      align: ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
      rows: real.map((r) => [
        r.dataset,
        r.label,
        String(r.runs),
        num(r.tsn, 0),
        num(r.dsn, 0),
        num(r.sur),
        num(r.syntheticSur),
        num(r.wallSeconds, 2),
        r.implicated || '–',
      ]),
    });
    await addFigure(
      'real',
      realFigure,
      [
        ...real.map((r) => ({ label: r.label, dataset: r.dataset, sur: r.sur })),
        ...[...new Set(real.map((r) => r.label))].map((label) => ({
          label,
          dataset: 'synthetic',
          sur: real.find((r) => r.label === label)!.syntheticSur,
        })),
      ],
      'SUR on real and synthetic data',
    );
  }

  md.push('## Agreement between methods', '');
  const agr = agreement(records);
  addTable({
    name: 'agreement',
    caption: 'Agreement between methods over shared blocks (mean Jaccard)',
    headers: ['A', 'B', 'blocks', 'implicated protected values', 'injected groups found'],
    align: ['l', 'l', 'r', 'r', 'r'],
    rows: agr.map((a) => [a.a, a.b, String(a.blocks), num(a.implicated, 2), num(a.groups, 2)]),
  });
  await addFigure(
    'agreement',
    agreementFigure,
    agr.filter((a) => Number.isFinite(a.implicated)).map((a) => ({ a: a.a, b: a.b, value: a.implicated })),
    'agreement between methods',
  );
  md.push(
    'Implicated protected values: per individual method, the values with at least their attribute’s mean DSN;',
    'per subgroup method, the protected values in its five top-ranked subgroups.',
    '',
  );

  if (parts.failed.length > 0) {
    md.push('## Failed cells', '');
    addTable({
      name: 'failed',
      caption: 'Cells that threw or overran',
      headers: ['method', 'block', 'error'],
      align: ['l', 'l', 'l'],
      rows: parts.failed.map((r) => [r.plan.label, r.block, r.error ?? '']),
    });
  }
  return { markdown: md.join('\n'), tables, figures };
}

/** Write report.md, tables/*.tex and figures/*.svg into `outDir`; returns the report's path. */
export async function writeReport(
  study: Study,
  records: readonly CellRecord[],
  outDir: string,
): Promise<string> {
  const report = await buildReport(study, records);
  mkdirSync(join(outDir, 'tables'), { recursive: true });
  mkdirSync(join(outDir, 'figures'), { recursive: true });
  for (const t of report.tables) writeFileSync(join(outDir, 'tables', `${t.name}.tex`), latex(t));
  for (const f of report.figures) writeFileSync(join(outDir, 'figures', `${f.name}.svg`), f.svg);
  const path = join(outDir, 'report.md');
  writeFileSync(path, `${report.markdown}\n`);
  return path;
}
