import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MeanInterval, quantile } from '@fb/eval';
import {
  agreement,
  biasTrend,
  comparisons,
  effectiveness,
  efficiency,
  factors,
  factorWords,
  groupBy,
  hitCurves,
  hitThresholds,
  modelAccuracy,
  modelMismatches,
  partition,
  questions,
  questionText,
  realData,
  saturated,
  sensitivity,
} from '../analyse/analysis.js';
import { realAgreement } from '../analyse/real-agreement.js';
import { isRanked, MIN_NULLS_FOR_FPR, type SkillRow, skill, tunedSkill } from '../analyse/skill.js';
import { baselineIds } from '../methods.js';
import { datasetsOf, modelsOf, planLabels } from '../plan/cells.js';
import type { Question, Study } from '../plan/config.js';
import type { CellRecord } from '../run/record.js';
import { anytimeMeasures, type Measure, measureWords } from '../score/measures.js';
import { byKey, writeCells } from './cells-file.js';
import {
  agreementFigure,
  anytimeFigure,
  chanceFigure,
  complete,
  costFigure,
  type FigureSpec,
  factorFigure,
  panelsOf,
  realFigure,
  render,
  sensitivityCategoricalFigure,
  sensitivityNumericFigure,
  trendFigure,
} from './figures.js';
import { reportHtml } from './html.js';
import { skillBrief } from './skill-summary.js';
import { skillIntro, skillTables, tuningChoiceTable } from './skill-tables.js';
import { csv, intervalFields, json, latex, markdown, num, raw, type Table, withInterval } from './tables.js';

/** A piece of the report, rendered the same way into report.md and report.html. */
export type Block =
  | { kind: 'heading'; level: 1 | 2; text: string }
  /** Text; `**bold**` and `_italic_` are the only markup. */
  | { kind: 'text'; text: string }
  | { kind: 'table'; table: Table; note?: string }
  | { kind: 'figure'; name: string; alt: string };

export interface Figure {
  name: string;
  /** The complete vega-lite spec, data included. */
  spec: object;
  svg: string;
}

export interface Report {
  title: string;
  blocks: Block[];
  markdown: string;
  tables: Table[];
  figures: Figure[];
  records: CellRecord[];
}

/** The false-positive rate at which detection power is reported. */
export const FPR = 0.05;

const pct = (v: number) => (Number.isFinite(v) ? `${(100 * v).toFixed(0)}%` : '–');

/** A measure with its chance level: `0.41 [0.30, 0.52] (chance 0.05)`. */
const vsChance = (m: MeanInterval, chance: MeanInterval) =>
  Number.isFinite(m.mean) ? `${withInterval(m)} (${num(chance.mean, 2)})` : '–';

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

const unique = (xs: readonly string[]) => [...new Set(xs)];

/** A label as part of a file name: letters and digits, the rest one dash. */
const slug = (s: string) =>
  s
    .replace(/σ/g, 'sigma')
    .replace(/η/g, 'eta')
    .replace(/β/g, 'beta')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();

/** Median and quartiles of the finite values, for summary curves. */
function spread(name: string, xs: readonly number[]): Record<string, number | null> {
  const v = xs.filter((x) => Number.isFinite(x));
  if (v.length === 0) return { [`${name}_median`]: null, [`${name}_q1`]: null, [`${name}_q3`]: null };
  return {
    [`${name}_median`]: quantile(v, 0.5),
    [`${name}_q1`]: quantile(v, 0.25),
    [`${name}_q3`]: quantile(v, 0.75),
  };
}

/** A varied option's values as numbers when every one is a number (a numeric axis), else null. */
function numericValues(values: readonly string[]): number[] | null {
  const xs = values.map((v) => Number(v));
  return xs.every((x) => Number.isFinite(x)) ? xs : null;
}

/** Build the report of a study from its stored records: its blocks, tables, figures and Markdown. */
export async function buildReport(study: Study, stored: readonly CellRecord[]): Promise<Report> {
  const records = inPlanOrder(study, stored);
  const parts = partition(records);
  const planOrder = unique(records.map((r) => r.plan.label));
  const familyOf = new Map(records.filter((r) => r.family).map((r) => [r.plan.label, r.family!]));
  const tables: Table[] = [];
  const figures: Figure[] = [];
  const blocks: Block[] = [];
  const heading = (level: 1 | 2, text: string) => blocks.push({ kind: 'heading', level, text });
  const text = (...lines: string[]) => blocks.push({ kind: 'text', text: lines.join(' ') });
  const addTable = (t: Table, note?: string) => {
    tables.push(t);
    blocks.push(note ? { kind: 'table', table: t, note } : { kind: 'table', table: t });
  };
  const addFigure = async (name: string, spec: FigureSpec, values: readonly object[], alt: string) => {
    if (values.length === 0) {
      text(`_No figure "${alt}": this study has no data for it._`);
      return;
    }
    const full = complete(spec, values);
    figures.push({ name, spec: full, svg: await render(full) });
    blocks.push({ kind: 'figure', name, alt });
  };

  const title = `fairbench study: ${study.name}`;
  heading(1, title);
  text(study.description);
  text(
    `Seeds: ${study.seeds.join(', ')}. Budget per run: ${JSON.stringify(study.budget)}. Trained models: ${study.models
      .map((m) => m.label)
      .join(
        ', ',
      )}. Audited rows: ${pct(study.auditShare)} of each data set, held out from training. Subgroup hits: Jaccard ≥ ${study.jaccardThreshold}, best of the top ${study.topK} findings.`,
  );
  text(`Cells: ${records.length} stored, ${parts.done.length} done, ${parts.failed.length} failed.`);
  const skillRows = skill(records);
  const brief = skillBrief(skillRows);
  if (brief.length) {
    heading(2, 'In brief');
    for (const line of brief) text(line);
  }
  text(
    'The design is in docs/study-design.md. Every measure is shown beside its **chance level**: the same method, model',
    'and seed on the no-bias twin of the data set (same rows, labels drawn without bias), its findings scored against',
    'the planted subgroups of the biased data set. A method that finds the planted bias scores above its chance level.',
  );
  const mismatches = modelMismatches(records);
  text(
    mismatches.length === 0
      ? 'Every method of a block (data set, seed, question, model) audited the identical model (same prediction fingerprint).'
      : `**Warning:** methods audited different models in ${mismatches.length} blocks: ${mismatches.join('; ')}.`,
  );
  const accuracy = modelAccuracy(records);
  addTable({
    name: 'models',
    caption: 'Accuracy of the audited models on the held-out rows',
    headers: ['question', 'model', 'data set', 'accuracy'],
    align: ['l', 'l', 'l', 'r'],
    rows: accuracy.map((m) => [m.question, m.model, m.dataset, num(m.accuracy)]),
    data: accuracy.map((m) => ({ ...m, accuracy: raw(m.accuracy) })),
    cells: accuracy.map((m) => ({ question: m.question, model: m.model, dataset: m.dataset })),
  });

  heading(2, 'Skill against the floors');
  text(...skillIntro());
  for (const st of skillTables(skillRows)) {
    addTable(st.table);
    if (st.warnings.length) text(`**Trivial outputs and floors:** ${st.warnings.join(' ')}`);
  }
  for (const q of questions) {
    for (const [measures, yTitle, rate] of ANYTIME_FIGURES) {
      const points = anytimePoints(skillRows, q, measures);
      if (points.length === 0) continue;
      const methods = unique(points.filter((p) => p.kind === 'method').map((p) => p.method));
      await addFigure(
        `anytime-${q}-${rate ? 'true' : 'reach'}`,
        anytimeFigure(
          `${q} question, base scenario: ${yTitle} as queries are spent (dashed: strongest floor)`,
          yTitle,
          methods,
          rate,
        ),
        points,
        `${q} question: anytime curves of ${yTitle}`,
      );
    }
  }
  const tuned = tunedSkill(records);
  if (tuned.choices.length) {
    heading(2, 'Tuned: every method at the grid point its tuning seeds chose');
    text(
      'Every method gets a small grid of its own main option (the study file lists it); the tuning seeds of the base',
      'scenario choose one point per method, question and model, and the base scenario’s evaluation seeds score it',
      'as the tables above do. The tables above are at the published defaults.',
    );
    addTable(tuningChoiceTable(tuned.choices));
    for (const st of skillTables(tuned.rows, 'tuned', 'Tuned: ')) {
      addTable(st.table);
      if (st.warnings.length) text(`**Trivial outputs and floors:** ${st.warnings.join(' ')}`);
    }
  }

  const eff = effectiveness(records);
  // The headline scenario: the base of a one-at-a-time design, else the study's first scenario.
  const scenarios = unique(eff.map((r) => r.scenario));
  const headline = scenarios.includes('base') ? 'base' : scenarios[0];
  for (const q of questions) {
    const rows = eff.filter((r) => r.question === q);
    if (rows.length === 0) continue;
    heading(2, `Question: ${q}`);
    text(`Where the bias lives: ${questionText[q]}.`);
    for (const family of ['individual', 'subgroup']) {
      const fr = rows.filter((r) => r.family === family);
      if (fr.length === 0) continue;
      const individual = family === 'individual';
      const measure = individual ? 'coverage' : 'found';
      const table: Table = {
        name: `${q}-${family}`,
        caption: `${q} question, ${family} methods: ${
          individual ? 'planted-subgroup coverage' : 'planted subgroups found'
        } and precision (mean [95% CI] over seeds; chance level in parentheses), and detection against the scenario's own no-bias twin (TPR at a controlled FPR only with at least ${MIN_NULLS_FOR_FPR} own null runs)`,
        headers: [
          'scenario',
          'model',
          'method',
          'runs',
          measure,
          'precision',
          individual ? 'model holds' : 'Jaccard',
          'AUC',
          `TPR at FPR ${FPR}`,
          'null runs',
        ],
        align: ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
        rows: fr.map((r) => [
          r.scenario,
          r.model,
          r.label,
          String(r.runs),
          vsChance(r.recall, r.chanceRecall),
          vsChance(r.precision, r.chancePrecision),
          individual ? vsChance(r.learned, r.chanceLearned) : vsChance(r.localisation, r.chanceLocalisation),
          r.detection
            ? `${num(r.detection.auc, 2)} [${num(r.detection.aucLo, 2)}, ${num(r.detection.aucHi, 2)}]`
            : '–',
          // A false-positive-controlled rate needs enough own nulls to reach its level.
          r.detection && r.detection.nullRuns >= MIN_NULLS_FOR_FPR
            ? `${num(r.detection.tpr, 2)} [${num(r.detection.tprLo, 2)}, ${num(r.detection.tprHi, 2)}] at ${num(r.detection.fpr, 2)}`
            : '–',
          String(r.detection?.nullRuns ?? 0),
        ]),
        data: fr.map((r) => ({
          question: r.question,
          scenario: r.scenario,
          model: r.model,
          method: r.label,
          family: r.family,
          runs: r.runs,
          ...intervalFields(individual ? 'coverage' : 'found', r.recall),
          [`chance_${individual ? 'coverage' : 'found'}`]: raw(r.chanceRecall.mean),
          ...intervalFields('precision', r.precision),
          chance_precision: raw(r.chancePrecision.mean),
          ...(individual
            ? { ...intervalFields('model_holds', r.learned), chance_model_holds: raw(r.chanceLearned.mean) }
            : {
                ...intervalFields('jaccard', r.localisation),
                chance_jaccard: raw(r.chanceLocalisation.mean),
              }),
          auc: raw(r.detection?.auc),
          auc_lo: raw(r.detection?.aucLo),
          auc_hi: raw(r.detection?.aucHi),
          ...(r.detection && r.detection.nullRuns >= MIN_NULLS_FOR_FPR
            ? {
                tpr: raw(r.detection.tpr),
                tpr_lo: raw(r.detection.tprLo),
                tpr_hi: raw(r.detection.tprHi),
                fpr: raw(r.detection.fpr),
              }
            : { tpr: null, tpr_lo: null, tpr_hi: null, fpr: null }),
          null_runs: r.detection?.nullRuns ?? 0,
        })),
        cells: fr.map((r) => ({ question: q, dataset: r.scenario, model: r.model, method: r.label })),
      };
      const flat = saturated(
        fr.flatMap((r) => [
          r.recall.mean,
          r.precision.mean,
          individual ? r.learned.mean : r.localisation.mean,
        ]),
      );
      addTable(
        table,
        [
          individual
            ? 'Coverage: share of a planted subgroup’s audited members whose discrimination the method demonstrated (the model treats them differently in the planted direction, and the method reported a planted pair on their non-protected values). Precision: share of pairs whose decision moves the way the planted bias moves the true probability. Model holds: share of members the model discriminates in the planted direction (the ceiling of coverage).'
            : `Found: share of planted subgroups matched by one of the top ${study.topK} findings with Jaccard ≥ ${study.jaccardThreshold}. Precision: share of those findings that match one. Jaccard: mean over planted subgroups of the best Jaccard among the top findings.`,
          'AUC: the method’s own alarm score (individual: discriminatory samples per tested sample; subgroup: 1 − p of the top finding, or its score) on planted runs against runs on the no-bias twin; 0.5 is chance. TPR at the threshold that the null runs exceed at most at the stated rate.',
          flat
            ? `**Every recall and precision here is at its ${flat}: this table cannot rank the methods.**`
            : '',
        ].join(' '),
      );
      const top = fr.filter((r) => r.scenario === headline);
      if (top.length > 0 && scenarios.length > 1) {
        addTable({
          name: `headline-${q}-${family}`,
          caption: `${q} question, ${family} methods, scenario ${headline}: ${measure} and ${
            individual ? 'what the model holds' : 'localisation'
          } (mean [95% CI] over seeds; chance level in parentheses) and the AUC of the method's alarm against the no-bias twin`,
          headers: ['model', 'method', measure, individual ? 'model holds' : 'Jaccard', 'AUC'],
          align: ['l', 'l', 'r', 'r', 'r'],
          rows: top.map((r) => [
            r.model,
            r.label,
            vsChance(r.recall, r.chanceRecall),
            individual
              ? vsChance(r.learned, r.chanceLearned)
              : vsChance(r.localisation, r.chanceLocalisation),
            r.detection ? num(r.detection.auc, 2) : '–',
          ]),
          data: top.map((r) => ({
            scenario: r.scenario,
            model: r.model,
            method: r.label,
            ...intervalFields(measure, r.recall),
            [`chance_${measure}`]: raw(r.chanceRecall.mean),
            auc: raw(r.detection?.auc),
          })),
          cells: top.map((r) => ({ question: q, dataset: r.scenario, model: r.model, method: r.label })),
        });
      }
      if (top.length > 0 && scenarios.length > 1) {
        // The article's figure: the headline scenario alone, by model (the full figure below has a row
        // per scenario, too tall for a page).
        await addFigure(
          `headline-${q}-${family}`,
          chanceFigure(
            `The ${q} question, ${family} methods`,
            `${headline} scenario, by model`,
            individual ? 'coverage' : 'planted subgroups found',
            planOrder.filter((l) => top.some((r) => r.label === l)),
          ),
          chancePoints(top),
          `${q} question, ${family} methods, scenario ${headline}`,
        );
      }
      await addFigure(
        `${q}-${family}`,
        chanceFigure(
          `The ${q} question, ${family} methods`,
          'every scenario (rows) by model (columns)',
          individual ? 'coverage' : 'planted subgroups found',
          planOrder.filter((l) => fr.some((r) => r.label === l)),
        ),
        chancePoints(fr),
        `${q} question, ${family} methods`,
      );
    }
  }

  heading(2, 'Subgroup localisation by Jaccard threshold');
  const curves = hitCurves(records);
  addTable({
    name: 'hit-curves',
    caption:
      'Subgroup methods: share of planted subgroups whose best Jaccard with the top findings reaches each threshold (chance level in parentheses)',
    headers: ['question', 'scenario', 'model', 'method', ...hitThresholds.map((h) => `≥ ${h}`)],
    align: ['l', 'l', 'l', 'l', ...hitThresholds.map(() => 'r' as const)],
    rows: curves.map((c) => [
      c.question,
      c.scenario,
      c.model,
      c.label,
      ...c.found.map((f, i) => `${num(f, 2)} (${num(c.chance[i], 2)})`),
    ]),
    data: curves.map((c) => ({
      question: c.question,
      scenario: c.scenario,
      model: c.model,
      method: c.label,
      ...Object.fromEntries(
        hitThresholds.flatMap((h, i) => [
          [`found_${h}`, raw(c.found[i])],
          [`chance_${h}`, raw(c.chance[i])],
        ]),
      ),
    })),
    cells: curves.map((c) => ({
      question: c.question,
      dataset: c.scenario,
      model: c.model,
      method: c.label,
    })),
  });

  heading(2, 'Bias magnitude: separation and sufficiency');
  const trend = biasTrend(records);
  addTable({
    name: 'bias-trend',
    caption:
      'Subgroup methods: mean best Jaccard with the planted subgroups by planted bias, bias in the model output (separation) or in the labels audited against σ(η) (sufficiency)',
    headers: ['variant', 'method', 'planted |β|', 'runs', 'mean Jaccard'],
    align: ['l', 'l', 'l', 'r', 'r'],
    rows: trend.map((t) => [t.variant, t.label, t.level, String(t.runs), withInterval(t.jaccard)]),
    data: trend.map((t) => ({
      variant: t.variant,
      method: t.label,
      scenario: t.scenario,
      bias_range: t.level,
      bias: t.bias,
      runs: t.runs,
      ...intervalFields('jaccard', t.jaccard),
    })),
    cells: trend.map((t) => ({
      question: t.variant === 'separation' ? 'model-output' : 'data',
      method: t.label,
      ...(t.scenario === 'no bias' ? {} : { dataset: t.scenario }),
    })),
  });
  await addFigure(
    'bias-trend',
    trendFigure(
      unique([...trend].sort((a, b) => a.bias - b.bias).map((t) => t.level)),
      planOrder.filter((l) => trend.some((t) => t.label === l)),
    ),
    trend
      .filter((t) => Number.isFinite(t.jaccard.mean))
      .map((t) => ({
        variant: t.variant,
        method: t.label,
        level: t.level,
        jaccard: t.jaccard.mean,
      })),
    'localisation by planted bias',
  );

  heading(2, 'Comparisons within each family');
  for (const c of comparisons(records)) {
    const minP = 2 / 2 ** c.seeds;
    if (c.tests.length === 0) continue;
    const where = `${c.question} question, ${c.family} methods, ${c.scenario}, ${c.model}`;
    if (minP > 0.05) {
      text(
        `_${where}: ${c.seeds} seeds; an exact paired test cannot reach p < 0.05 with fewer than 6 (smallest p ${num(minP, 3)}), so no comparison is tested._`,
      );
      continue;
    }
    addTable({
      name: `comparisons-${c.question}-${c.family}-${slug(c.scenario)}-${slug(c.model)}`,
      caption: `${where}: paired Wilcoxon signed-rank tests of ${measureWords[c.measure]} over ${c.seeds} seeds (the independent unit), Holm-adjusted within the table`,
      headers: ['A', 'B', 'seeds', 'mean A − B', 'p', 'p (Holm)', 'better'],
      align: ['l', 'l', 'r', 'r', 'r', 'r', 'l'],
      rows: c.tests.map((t) => [
        t.a,
        t.b,
        String(t.n),
        num(t.meanDifference),
        num(t.pValue, 4),
        num(t.pHolm, 4),
        t.better ?? '–',
      ]),
      data: c.tests.map((t) => ({
        question: c.question,
        family: c.family,
        scenario: c.scenario,
        model: c.model,
        measure: c.measure,
        a: t.a,
        b: t.b,
        seeds: t.n,
        mean_difference: raw(t.meanDifference),
        p: raw(t.pValue),
        p_holm: raw(t.pHolm),
        better: t.better ?? null,
      })),
    });
  }

  heading(2, 'Efficiency');
  const effRows = efficiency(records);
  addTable({
    name: 'efficiency',
    caption:
      'Cost per method on the planted data sets: means over runs; share of runs stopped by the seconds cap (their results depend on the machine); the first planted pair: share of runs reaching one, median seconds and distinct queries to it',
    headers: [
      'method',
      'runs',
      'TSN',
      'DSN',
      'SUR',
      'queries',
      'time (s)',
      'time-capped',
      'first pair',
      's',
      'queries',
    ],
    align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    rows: effRows.map((e) => [
      e.label,
      String(e.runs),
      num(e.tsn, 0),
      num(e.dsn, 0),
      num(e.sur),
      num(e.queries, 0),
      num(e.wallSeconds, 2),
      pct(e.timeCapped),
      Number.isFinite(e.firstTrueShare) ? pct(e.firstTrueShare) : '–',
      num(e.firstTrueSeconds, 2),
      num(e.firstTrueQueries, 0),
    ]),
    data: effRows.map((e) => ({
      method: e.label,
      runs: e.runs,
      tsn: raw(e.tsn),
      dsn: raw(e.dsn),
      sur: raw(e.sur),
      queries: raw(e.queries),
      seconds: raw(e.wallSeconds),
      time_capped: raw(e.timeCapped),
      first_pair_share: raw(e.firstTrueShare),
      first_pair_seconds: raw(e.firstTrueSeconds),
      first_pair_queries: raw(e.firstTrueQueries),
    })),
    cells: effRows.map((e) => ({ method: e.label })),
  });
  const costs = planOrder
    .map((label) => {
      const rs = parts.done.filter((r) => r.plan.label === label);
      return {
        method: label,
        ...spread(
          'seconds',
          rs.map((r) => r.wallSeconds),
        ),
        ...spread(
          'queries',
          rs.map((r) => r.metrics?.distinctQueries ?? Number.NaN),
        ),
      };
    })
    .filter((c: Record<string, unknown>) => c['seconds_median'] !== null);
  await addFigure('cost', costFigure(planOrder), costs, 'cost per run');

  heading(2, 'Difficulty factors');
  const fs = factors(records);
  for (const q of questions) {
    const fq = fs.filter((f) => f.question === q);
    if (fq.length === 0) continue;
    addTable({
      name: `factors-${q}`,
      caption: `${q} question: detection rate of planted subgroups by factor level (Wilson 95% CI; chance level, the no-bias twins against the same subgroups, in parentheses)`,
      headers: ['factor', 'method', 'level', 'groups', 'detected'],
      align: ['l', 'l', 'l', 'r', 'r'],
      rows: fq.flatMap((f) =>
        f.levels.map((l) => [
          factorWords[f.factor],
          f.label,
          l.level,
          String(l.groups),
          `${num(l.rate, 2)} [${num(l.lo, 2)}, ${num(l.hi, 2)}] (${num(l.chance, 2)})`,
        ]),
      ),
      data: fq.flatMap((f) =>
        f.levels.map((l) => ({
          question: q,
          factor: f.factor,
          method: f.label,
          level: l.level,
          from: raw(l.from),
          groups: l.groups,
          rate: raw(l.rate),
          rate_lo: raw(l.lo),
          rate_hi: raw(l.hi),
          chance: raw(l.chance),
        })),
      ),
      cells: fq.flatMap((f) => f.levels.map(() => ({ question: q, method: f.label }))),
    });
    for (const family of ['individual', 'subgroup']) {
      const points = fq
        .filter((f) => familyOf.get(f.label) === family)
        .flatMap((f) =>
          f.levels
            .filter((l) => Number.isFinite(l.rate) && Number.isFinite(l.from))
            .map((l) => ({
              factor: factorWords[f.factor],
              method: f.label,
              level: l.level,
              from: l.from,
              rate: l.rate,
            })),
        );
      const panels = panelsOf(unique(points.map((p) => p.method)));
      const panelOf = new Map(panels.flatMap((names, k) => names.map((n) => [n, k + 1] as const)));
      await addFigure(
        `factors-${q}-${family}`,
        factorFigure(`${q} question, ${family} methods: detection rate by factor level`, panels),
        points.map((p) => ({ ...p, panel: panelOf.get(p.method)! })),
        `${q} question, ${family} methods: detection by factor`,
      );
    }
  }

  heading(2, 'Sensitivity to method options');
  const sens = sensitivity(records);
  addTable({
    name: 'sensitivity',
    caption: 'Recall (chance level in parentheses) and cost by value of each varied option',
    headers: ['question', 'method', 'option', 'value', 'runs', 'recall', 'DSN', 'time (s)'],
    align: ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r'],
    rows: sens.map((s) => [
      s.question,
      s.entry,
      s.option,
      s.value,
      String(s.runs),
      `${withInterval(s.recall)} (${num(s.chanceRecall, 2)})`,
      num(s.dsn, 0),
      num(s.wallSeconds, 2),
    ]),
    data: sens.map((s) => ({
      question: s.question,
      method: s.entry,
      option: s.option,
      value: s.value,
      runs: s.runs,
      ...intervalFields('recall', s.recall),
      chance_recall: raw(s.chanceRecall),
      dsn: raw(s.dsn),
      seconds: raw(s.wallSeconds),
    })),
    cells: sens.map((s) => ({ question: s.question })),
  });
  const panelsOfSens = unique(sens.map((s) => `${s.entry}\u0000${s.option}\u0000${s.question}`));
  const numeric: object[] = [];
  const categorical: object[] = [];
  for (const p of panelsOfSens) {
    const ss = sens.filter((s) => `${s.entry}\u0000${s.option}\u0000${s.question}` === p);
    const finiteRows = ss.filter((s) => Number.isFinite(s.recall.mean));
    if (finiteRows.length === 0) continue;
    const values = numericValues(finiteRows.map((s) => s.value));
    const panel = `${ss[0]!.entry}: ${ss[0]!.option} (${ss[0]!.question})`;
    finiteRows.forEach((s, i) => {
      const row = {
        panel,
        value: values ? values[i]! : s.value,
        recall: s.recall.mean,
        chance: Number.isFinite(s.chanceRecall) ? s.chanceRecall : null,
      };
      (values && finiteRows.length > 1 ? numeric : categorical).push(row);
    });
  }
  await addFigure('sensitivity', sensitivityNumericFigure, numeric, 'recall by a numeric option');
  if (categorical.length > 0)
    await addFigure('sensitivity-options', sensitivityCategoricalFigure, categorical, 'recall by an option');

  heading(2, 'Real data');
  const real = realData(records);
  if (study.real.length === 0) text('_This study runs no real data set._');
  else {
    addTable({
      name: 'real',
      caption:
        'Methods on real data (no planted truth): what they report. SUR, the discriminatory share of the tested samples, is for individual methods; a subgroup method reports DSN subgroups of the TSN rows',
      headers: ['data set', 'model', 'method', 'runs', 'TSN', 'DSN', 'SUR', 'time (s)', 'points at'],
      align: ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'l'],
      rows: real.map((r) => [
        r.dataset,
        r.model,
        r.label,
        String(r.runs),
        num(r.tsn, 0),
        num(r.dsn, 0),
        r.family === 'individual' ? num(r.sur) : '–',
        num(r.wallSeconds, 2),
        r.implicated || '–',
      ]),
      data: real.map((r) => ({
        dataset: r.dataset,
        model: r.model,
        method: r.label,
        runs: r.runs,
        tsn: raw(r.tsn),
        dsn: raw(r.dsn),
        sur: r.family === 'individual' ? raw(r.sur) : null,
        seconds: raw(r.wallSeconds),
        implicated: r.implicated,
      })),
      cells: real.map((r) => ({ dataset: r.dataset, model: r.model, method: r.label })),
    });
    await addFigure(
      'real',
      realFigure(unique(real.map((r) => r.dataset))),
      // SUR is a share of tested samples for individual methods only: subgroups per row is another quantity.
      real
        .filter((r) => r.family === 'individual' && Number.isFinite(r.sur))
        .map((r) => ({ method: r.label, model: r.model, dataset: r.dataset, sur: r.sur })),
      'SUR of the individual methods on real data',
    );
  }

  heading(2, 'Agreement between methods');
  const agr = agreement(records);
  addTable({
    name: 'agreement',
    caption: 'Agreement between methods over shared blocks (mean Jaccard)',
    headers: ['A', 'B', 'blocks', 'implicated protected values', 'planted subgroups found'],
    align: ['l', 'l', 'r', 'r', 'r'],
    rows: agr.map((a) => [a.a, a.b, String(a.blocks), num(a.implicated, 2), num(a.groups, 2)]),
    data: agr.map((a) => ({
      a: a.a,
      b: a.b,
      blocks: a.blocks,
      implicated: raw(a.implicated),
      groups: raw(a.groups),
    })),
  });
  const agreeing = agr.filter((a) => Number.isFinite(a.implicated));
  const inMatrix = planOrder.filter((l) => agreeing.some((a) => a.a === l || a.b === l));
  await addFigure(
    'agreement',
    agreementFigure(inMatrix),
    agreeing.length === 0
      ? []
      : [
          ...inMatrix.map((l) => ({ a: l, b: l, value: 1 })),
          ...agreeing.flatMap((a) => [
            { a: a.a, b: a.b, value: a.implicated },
            { a: a.b, b: a.a, value: a.implicated },
          ]),
        ],
    'agreement between methods',
  );
  text(
    'Implicated protected values: per individual method, the values with at least their attribute’s mean DSN;',
    'per subgroup method, the protected values in its five top-ranked subgroups.',
  );
  const realAgr = realAgreement(records);
  if (realAgr.length) {
    addTable({
      name: 'real-agreement',
      caption:
        'Real data only: mean Jaccard of the protected values two ranked methods of a family implicate, beside the same between each method and the random subgroups (an output that knows nothing), per data set; mean [95% CI] over seeds',
      headers: ['data set', 'family', 'between', 'pairs', 'seeds', 'agreement'],
      align: ['l', 'l', 'l', 'r', 'r', 'r'],
      rows: realAgr.map((a) => [
        a.dataset,
        a.family,
        a.between,
        String(a.pairs),
        String(a.seeds),
        withInterval(a.agreement, 2),
      ]),
      data: realAgr.map((a) => ({
        dataset: a.dataset,
        family: a.family,
        between: a.between,
        pairs: a.pairs,
        seeds: a.seeds,
        ...intervalFields('agreement', a.agreement),
      })),
      cells: realAgr.map((a) => ({ dataset: a.dataset, family: a.family })),
    });
  }

  /** A table of cells with one error column, each row linked to its cell. */
  const errorTable = (
    name: string,
    title: string,
    caption: string,
    rows: CellRecord[],
    error: string,
    errorOf: (r: CellRecord) => string,
  ) => {
    if (rows.length === 0) return;
    heading(2, title);
    addTable({
      name,
      caption,
      headers: ['method', 'block', error],
      align: ['l', 'l', 'l'],
      rows: rows.map((r) => [r.plan.label, r.blockLabel, errorOf(r)]),
      cells: rows.map((r) => ({
        method: r.plan.label,
        dataset: r.dataset.label,
        question: r.question,
        model: r.model,
      })),
    });
  };
  errorTable(
    'retried',
    'Cells that failed, then passed when run again',
    'Cells whose first run failed (the error shown) and a later run in the same study run passed',
    parts.done.filter((r) => r.retriedAfter?.length),
    'earlier error',
    (r) => r.retriedAfter!.join('; '),
  );
  errorTable(
    'failed',
    'Failed cells',
    'Cells that threw or overran',
    parts.failed,
    'error',
    (r) => r.error ?? '',
  );
  return { title, blocks, markdown: toMarkdown(blocks), tables, figures, records };
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

/** The anytime figures: their measures at 1,000, 10,000 and 100,000 queries, y-axis title, rate or share. */
const ANYTIME_FIGURES: readonly [readonly Measure[], string, boolean][] = [
  [
    ['truePerKQueries@1k', 'truePerKQueries@10k', 'truePerKQueries@100k'],
    'individuals in a true pair per 1,000 queries',
    true,
  ],
  [['reach@1k', 'reach@10k', 'reach@100k'], 'reach (share of planted subgroups shown)', false],
];

/**
 * The points of an anytime figure for one question on the base scenario: each ranked method's (and
 * the baseline's) mean with its interval at each checkpoint, and per model and checkpoint the
 * highest of the methods' strongest floors.
 */
function anytimePoints(rows: readonly SkillRow[], question: Question, measures: readonly Measure[]) {
  const checkpoint = (m: Measure) => anytimeMeasures.find((a) => a.measure === m)!.queries;
  const mine = rows.filter(
    (r) =>
      r.question === question &&
      r.family === 'individual' &&
      r.scenario === 'base' &&
      measures.includes(r.measure) &&
      (isRanked(r) || r.baseline === 'baseline'),
  );
  const methods = [...new Set(mine.map((r) => r.label))];
  // Each method a few percent to the side of its checkpoint on the log axis (`at`), in legend order.
  const dodge = (label: string) => 1.08 ** (methods.indexOf(label) - (methods.length - 1) / 2);
  const methodPoints = mine.map((r) => ({
    kind: 'method',
    method: r.label,
    model: r.model,
    queries: checkpoint(r.measure),
    at: checkpoint(r.measure) * dodge(r.label),
    value: r.value.mean,
    lo: r.value.lo,
    hi: r.value.hi,
  }));
  const floors = [...groupBy(mine, (r) => `${r.model}\u0000${r.measure}`).values()].map((g) => ({
    kind: 'floor',
    method: 'strongest floor',
    model: g[0]!.model,
    queries: checkpoint(g[0]!.measure),
    at: checkpoint(g[0]!.measure),
    value: Math.max(...g.map((r) => r.floors.find((f) => f.name === r.strongest)?.value.mean ?? 0)),
    lo: null,
    hi: null,
  }));
  return [...methodPoints, ...floors].filter((p) => Number.isFinite(p.value));
}

/** When the study's stored cells ran: seconds from the first cell's start to the last cell's end. */
export interface RunTiming {
  elapsedSeconds: number | null;
}

/** The rows of a chance figure: each method's mean with its interval and its chance level. */
function chancePoints(rows: ReturnType<typeof effectiveness>) {
  return rows
    .filter((r) => Number.isFinite(r.recall.mean))
    .map((r) => ({
      method: r.label,
      model: r.model,
      scenario: r.scenario,
      value: r.recall.mean,
      lo: r.recall.lo,
      hi: r.recall.hi,
      chance: Number.isFinite(r.chanceRecall.mean) ? r.chanceRecall.mean : null,
    }));
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
