import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MeanInterval } from '@fb/eval';
import {
  agreement,
  biasTrend,
  comparisons,
  effectiveness,
  efficiency,
  factors,
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
} from './analysis.js';
import { datasetsOf, modelsOf, planLabels } from './cells.js';
import type { Study } from './config.js';
import {
  agreementFigure,
  chanceFigure,
  type FigureSpec,
  factorFigure,
  realFigure,
  render,
  sensitivityFigure,
  trendFigure,
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

/** Build the report of a study from its stored records: Markdown, LaTeX tables and SVG figures. */
export async function buildReport(study: Study, stored: readonly CellRecord[]): Promise<Report> {
  const records = inPlanOrder(study, stored);
  const parts = partition(records);
  const tables: Table[] = [];
  const figures: { name: string; svg: string }[] = [];
  const md: string[] = [];
  const addTable = (t: Table, note?: string) => {
    tables.push(t);
    md.push(`**Table: ${t.caption}** ([LaTeX](tables/${t.name}.tex))`, '', markdown(t), '');
    if (note) md.push(note, '');
  };
  const addFigure = async (name: string, spec: FigureSpec, values: readonly object[], alt: string) => {
    if (values.length === 0) {
      md.push(`_No figure "${alt}": no data for it in this study._`, '');
      return;
    }
    figures.push({ name, svg: await render(spec, values) });
    md.push(`![${alt}](figures/${name}.svg)`, '');
  };

  md.push(
    `# fairbench study: ${study.name}`,
    '',
    study.description,
    '',
    `Seeds: ${study.seeds.join(', ')}. Budget per run: ${JSON.stringify(study.budget)}. Trained models: ${study.models
      .map((m) => m.label)
      .join(
        ', ',
      )}. Audited rows: ${pct(study.auditShare)} of each data set, held out from training. Subgroup hits: Jaccard ≥ ${study.jaccardThreshold}, best of the top ${study.topK} findings.`,
    '',
    `Cells: ${records.length} stored, ${parts.done.length} done, ${parts.failed.length} failed.`,
    '',
    'The design is in docs/study-design.md. Every measure is shown beside its **chance level**: the same method, model',
    'and seed on the no-bias twin of the data set (same rows, labels drawn without bias), its findings scored against',
    'the planted subgroups of the biased data set. A method that finds the planted bias scores above its chance level.',
    '',
  );
  const mismatches = modelMismatches(records);
  md.push(
    mismatches.length === 0
      ? 'Every method of a block (data set, seed, question, model) audited the identical model (same prediction fingerprint).'
      : `**Warning:** methods audited different models in ${mismatches.length} blocks: ${mismatches.join('; ')}.`,
    '',
  );
  addTable({
    name: 'models',
    caption: 'Accuracy of the audited models on the held-out rows',
    headers: ['question', 'model', 'data set', 'accuracy'],
    align: ['l', 'l', 'l', 'r'],
    rows: modelAccuracy(records).map((m) => [m.question, m.model, m.dataset, num(m.accuracy)]),
  });

  const eff = effectiveness(records);
  for (const q of questions) {
    const rows = eff.filter((r) => r.question === q);
    if (rows.length === 0) continue;
    md.push(`## Question: ${q}`, '', `Where the bias lives: ${questionText[q]}.`, '');
    for (const family of ['individual', 'subgroup']) {
      const fr = rows.filter((r) => r.family === family);
      if (fr.length === 0) continue;
      const individual = family === 'individual';
      const table: Table = {
        name: `${q}-${family}`,
        caption: `${q} question, ${family} methods: ${
          individual ? 'planted-subgroup coverage' : 'planted subgroups found'
        } and precision (mean [95% CI] over seeds; chance level in parentheses), and detection against the no-bias twin`,
        headers: [
          'scenario',
          'model',
          'method',
          'runs',
          individual ? 'coverage' : 'found',
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
          r.detection
            ? `${num(r.detection.tpr, 2)} [${num(r.detection.tprLo, 2)}, ${num(r.detection.tprHi, 2)}] at ${num(r.detection.fpr, 2)}`
            : '–',
          String(r.detection?.nullRuns ?? 0),
        ]),
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
      await addFigure(
        `${q}-${family}`,
        chanceFigure(individual ? 'coverage' : 'planted subgroups found'),
        fr.map((r) => ({
          method: `${r.label} · ${r.model} · ${r.scenario}`,
          family: r.family,
          value: r.recall.mean,
          lo: r.recall.lo,
          hi: r.recall.hi,
          chance: r.chanceRecall.mean,
        })),
        `${q} question, ${family} methods`,
      );
    }
  }

  md.push('## Subgroup localisation by Jaccard threshold', '');
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
  });

  md.push('## Bias magnitude: separation and sufficiency', '');
  const trend = biasTrend(records);
  addTable({
    name: 'bias-trend',
    caption:
      'Subgroup methods: mean best Jaccard with the planted subgroups by planted bias, bias in the model output (separation) or in the labels audited against σ(η) (sufficiency)',
    headers: ['variant', 'method', 'planted bias', 'runs', 'mean Jaccard'],
    align: ['l', 'l', 'l', 'r', 'r'],
    rows: trend.map((t) => [t.variant, t.label, t.scenario, String(t.runs), withInterval(t.jaccard)]),
  });
  await addFigure(
    'bias-trend',
    trendFigure,
    trend.map((t) => ({ variant: t.variant, method: t.label, level: t.scenario, jaccard: t.jaccard.mean })),
    'localisation by planted bias',
  );

  md.push('## Comparisons within each family', '');
  for (const c of comparisons(records)) {
    const minP = 2 / 2 ** c.blocks;
    if (c.tests.length === 0) continue;
    if (minP > 0.05) {
      md.push(
        `_${c.question} question, ${c.family} methods: ${c.blocks} shared blocks; an exact paired test cannot reach p < 0.05 with fewer than 6 (smallest p ${num(minP, 3)}), so no comparison is tested._`,
        '',
      );
      continue;
    }
    addTable({
      name: `comparisons-${c.question}-${c.family}`,
      caption: `${c.question} question, ${c.family} methods: paired Wilcoxon signed-rank tests of recall over ${c.blocks} shared blocks, Holm-adjusted within the family`,
      headers: ['A', 'B', 'blocks', 'mean A − B', 'p', 'p (Holm)', 'better'],
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
    });
  }

  md.push('## Efficiency', '');
  addTable({
    name: 'efficiency',
    caption:
      'Cost per method on the planted data sets (means over runs; effort: median over runs that reached it)',
    headers: [
      'method',
      'runs',
      'TSN',
      'DSN',
      'SUR',
      'queries',
      'time (s)',
      'first planted pair (share: s / queries)',
    ],
    align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    rows: efficiency(records).map((e) => [
      e.label,
      String(e.runs),
      num(e.tsn, 0),
      num(e.dsn, 0),
      num(e.sur),
      num(e.queries, 0),
      num(e.wallSeconds, 2),
      Number.isFinite(e.firstTrueShare)
        ? `${pct(e.firstTrueShare)}: ${num(e.firstTrueSeconds, 2)} / ${num(e.firstTrueQueries, 0)}`
        : '–',
    ]),
  });

  md.push('## Difficulty factors', '');
  const fs = factors(records);
  addTable({
    name: 'factors',
    caption:
      'Detection rate of planted subgroups by factor level (Wilson 95% CI; chance level, the no-bias twins against the same subgroups, in parentheses)',
    headers: ['question', 'factor', 'method', 'level', 'groups', 'detected'],
    align: ['l', 'l', 'l', 'l', 'r', 'r'],
    rows: fs.flatMap((f) =>
      f.levels.map((l) => [
        f.question,
        f.factor,
        f.label,
        l.level,
        String(l.groups),
        `${num(l.rate, 2)} [${num(l.lo, 2)}, ${num(l.hi, 2)}] (${num(l.chance, 2)})`,
      ]),
    ),
  });
  await addFigure(
    'factors',
    factorFigure,
    fs.flatMap((f) =>
      f.levels.map((l) => ({
        factor: f.factor,
        label: `${f.label} (${f.question})`,
        from: l.from,
        rate: l.rate,
      })),
    ),
    'detection rate by factor',
  );

  md.push('## Sensitivity to method options', '');
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
  });
  await addFigure(
    'sensitivity',
    sensitivityFigure,
    sens.map((s) => ({
      panel: `${s.entry}: ${s.option} (${s.question})`,
      value: s.value,
      recall: s.recall.mean,
    })),
    'sensitivity to options',
  );

  md.push('## Real data', '');
  const real = realData(records);
  if (study.real.length === 0) md.push('_This study runs no real data set._', '');
  else {
    addTable({
      name: 'real',
      caption: 'Methods on real data (no planted truth): what they report',
      headers: ['data set', 'model', 'method', 'runs', 'TSN', 'DSN', 'SUR', 'time (s)', 'points at'],
      align: ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'l'],
      rows: real.map((r) => [
        r.dataset,
        r.model,
        r.label,
        String(r.runs),
        num(r.tsn, 0),
        num(r.dsn, 0),
        num(r.sur),
        num(r.wallSeconds, 2),
        r.implicated || '–',
      ]),
    });
    await addFigure(
      'real',
      realFigure,
      real.map((r) => ({ label: r.label, dataset: r.dataset, sur: r.sur })),
      'SUR on real data',
    );
  }

  md.push('## Agreement between methods', '');
  const agr = agreement(records);
  addTable({
    name: 'agreement',
    caption: 'Agreement between methods over shared blocks (mean Jaccard)',
    headers: ['A', 'B', 'blocks', 'implicated protected values', 'planted subgroups found'],
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
      rows: parts.failed.map((r) => [r.plan.label, r.blockLabel, r.error ?? '']),
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
