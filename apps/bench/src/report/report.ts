import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupBy, partition, questions } from '../analyse/analysis.js';
import { skill } from '../analyse/skill.js';
import { baselineIds } from '../methods.js';
import { datasetsOf, modelsOf, planLabels } from '../plan/cells.js';
import type { Study } from '../plan/config.js';
import type { CellRecord } from '../run/record.js';
import { type Block, type Figure, ReportBuilder } from './builder.js';
import { byKey, writeCells } from './cells-file.js';
import { reportHtml } from './html.js';
import { agreement, realAgreement } from './sections/agreement.js';
import { biasTrend } from './sections/bias-trend.js';
import { comparisons } from './sections/comparisons.js';
import { effectivenessByQuestion } from './sections/effectiveness.js';
import { efficiency } from './sections/efficiency.js';
import { difficultyFactors } from './sections/factors.js';
import { failures } from './sections/failures.js';
import { hitCurves } from './sections/hit-curves.js';
import { models, overview, reportTitle } from './sections/overview.js';
import { realData } from './sections/real-data.js';
import { sensitivity } from './sections/sensitivity.js';
import type { ReportInputs } from './sections/shared.js';
import { anytimeCurves, skillAgainstFloors, tunedSkillSection } from './sections/skill.js';
import { csv, json, latex, markdown, type Table } from './tables.js';

export type { Block, Figure } from './builder.js';
export { FPR } from './sections/effectiveness.js';

export interface Report {
  title: string;
  blocks: Block[];
  markdown: string;
  tables: Table[];
  figures: Figure[];
  records: CellRecord[];
}

/**
 * Records in the study's own order (data set, seed, question, model, plan), whatever order they
 * finished in: the report is the same after a resume.
 */
export function inPlanOrder(study: Study, records: readonly CellRecord[]): CellRecord[] {
  const rank = (values: string[]) => new Map(values.map((v, i) => [v, i]));
  const datasets = rank(datasetsOf(study).map((d) => d.label));
  const qs = rank(questions);
  const models = rank(questions.flatMap((q) => modelsOf(study, q).map((m) => m.label)));
  const plans = rank(study.methods.flatMap((m) => planLabels(m)));
  const at = (m: Map<string, number>, v: string) => m.get(v) ?? Number.MAX_SAFE_INTEGER;
  const keyed = records.map((r) => ({
    r,
    k: [
      at(datasets, r.dataset.label),
      r.seed,
      at(qs, r.question),
      at(models, r.model),
      at(plans, r.plan.label),
    ],
  }));
  keyed.sort((a, b) => {
    for (let i = 0; i < a.k.length; i++) if (a.k[i] !== b.k[i]) return a.k[i]! - b.k[i]!;
    return a.r.key < b.r.key ? -1 : a.r.key > b.r.key ? 1 : 0;
  });
  return keyed.map((x) => x.r);
}

/** Build the report of a study from its stored records: its blocks, tables, figures and Markdown. */
export async function buildReport(study: Study, stored: readonly CellRecord[]): Promise<Report> {
  const records = inPlanOrder(study, stored);
  const inputs: ReportInputs = {
    study,
    records,
    parts: partition(records),
    planOrder: [...new Set(records.map((r) => r.plan.label))],
    skillRows: skill(records),
  };
  const b = new ReportBuilder();
  overview(b, inputs);
  models(b, inputs);
  skillAgainstFloors(b, inputs);
  await anytimeCurves(b, inputs);
  tunedSkillSection(b, inputs);
  await effectivenessByQuestion(b, inputs);
  hitCurves(b, inputs);
  await biasTrend(b, inputs);
  comparisons(b, inputs);
  await efficiency(b, inputs);
  await difficultyFactors(b, inputs);
  await sensitivity(b, inputs);
  await realData(b, inputs);
  await agreement(b, inputs);
  realAgreement(b, inputs);
  failures(b, inputs);
  const { blocks, tables, figures } = b;
  return { title: reportTitle(study), blocks, markdown: toMarkdown(blocks), tables, figures, records };
}

/** The report's blocks as Markdown. */
export function toMarkdown(blocks: readonly Block[]): string {
  const out: string[] = [];
  for (const b of blocks) {
    if (b.kind === 'heading') out.push(`${'#'.repeat(b.level)} ${b.text}`, '');
    else if (b.kind === 'text') out.push(b.text, '');
    else if (b.kind === 'figure') out.push(`![${b.alt}](figures/${b.name}.svg)`, '');
    else {
      const t = b.table;
      out.push(
        `**Table: ${t.caption}** ([LaTeX](tables/${t.name}.tex), [CSV](tables/${t.name}.csv), [JSON](tables/${t.name}.json))`,
        '',
        markdown(t),
        '',
      );
      if (b.note) out.push(b.note, '');
    }
  }
  return out.join('\n');
}

/**
 * Write the report into `outDir`: report.md and report.html; per table LaTeX, CSV and JSON in
 * tables/; per figure its SVG and its vega-lite spec (data included) in figures/. Returns the path of
 * report.md.
 */
export async function writeReport(
  study: Study,
  records: readonly CellRecord[],
  outDir: string,
  run: RunTiming = { elapsedSeconds: null },
): Promise<string> {
  // In key order: the report is then a function of the records alone, as `staleTables` rebuilds it.
  records = [...records].sort(byKey);
  const report = await buildReport(study, records);
  // Generated outputs only: a table or figure this run no longer makes must not linger.
  rmSync(join(outDir, 'tables'), { recursive: true, force: true });
  rmSync(join(outDir, 'figures'), { recursive: true, force: true });
  mkdirSync(join(outDir, 'tables'), { recursive: true });
  mkdirSync(join(outDir, 'figures'), { recursive: true });
  for (const t of report.tables) {
    writeFileSync(join(outDir, 'tables', `${t.name}.tex`), latex(t));
    writeFileSync(join(outDir, 'tables', `${t.name}.csv`), csv(t));
    writeFileSync(join(outDir, 'tables', `${t.name}.json`), json(t));
  }
  for (const f of report.figures) {
    writeFileSync(join(outDir, 'figures', `${f.name}.svg`), f.svg);
    writeFileSync(join(outDir, 'figures', `${f.name}.vl.json`), `${JSON.stringify(f.spec)}\n`);
  }
  writeFileSync(join(outDir, 'report.html'), reportHtml(report));
  writeFileSync(
    join(outDir, 'summary.json'),
    `${JSON.stringify(studySummary(study, records, run), null, 1)}\n`,
  );
  writeCells(outDir, study, records);
  const path = join(outDir, 'report.md');
  writeFileSync(path, `${report.markdown}\n`);
  return path;
}

/** How long the study's stored cells ran: elapsed seconds while any of them ran (pauses not counted). */
export interface RunTiming {
  elapsedSeconds: number | null;
}

/** What the article needs to know about the study besides its tables (summary.json). */
export function studySummary(
  study: Study,
  records: readonly CellRecord[],
  run: RunTiming = { elapsedSeconds: null },
) {
  const parts = partition(records);
  // Method seconds per plan over every done cell (all kinds of data), largest first.
  const planSeconds = [...groupBy(parts.done, (r) => r.plan.label)]
    .map(([plan, rs]) => ({ plan, seconds: rs.reduce((a, r) => a + r.wallSeconds, 0) }))
    .sort((a, b) => b.seconds - a.seconds || a.plan.localeCompare(b.plan));
  const datasets = datasetsOf(study);
  const families = new Map(records.filter((r) => r.family).map((r) => [r.plan.label, r.family]));
  return {
    name: study.name,
    description: study.description,
    seeds: study.seeds,
    cells: records.length,
    done: parts.done.length,
    failed: parts.failed.length,
    scenarios: datasets.filter((d) => d.kind === 'synthetic' && !d.null).map((d) => d.label),
    twins: datasets.filter((d) => d.kind === 'synthetic' && d.null).length,
    real: study.real,
    questions: study.questions,
    models: study.models.map((m) => m.label),
    plans: study.methods.flatMap((m) =>
      planLabels(m).map((label) => ({
        label,
        method: m.method,
        family: families.get(label) ?? null,
        baseline: baselineIds.has(m.method),
        // The fields of the study's budget this plan overrides (null: the study's).
        budget: m.budget ?? null,
        options: m.options ?? {},
      })),
    ),
    budget: study.budget,
    auditShare: study.auditShare,
    topK: study.topK,
    jaccardThreshold: study.jaccardThreshold,
    wallSeconds: parts.done.reduce((a, r) => a + r.wallSeconds, 0),
    planSeconds,
    /** Building blocks (data, models) and fitting shared generators, as each cell recorded it. */
    preparationSeconds: parts.done.reduce((a, r) => a + (r.costs?.prepareSeconds ?? 0), 0),
    elapsedSeconds: run.elapsedSeconds,
  };
}

export type StudySummary = ReturnType<typeof studySummary>;
