import {
  type EffectivenessRow,
  effectiveness,
  questions,
  questionText,
  saturated,
} from '../../analyse/analysis.js';
import { MIN_NULLS_FOR_FPR } from '../../analyse/skill.js';
import type { Question, Study } from '../../plan/config.js';
import type { ReportBuilder } from '../builder.js';
import { chanceFigure } from '../figures.js';
import { intervalFields, num, raw, type Table } from '../tables.js';
import { type ReportInputs, unique, vsChance } from './shared.js';

/** The false-positive rate at which detection power is reported. */
export const FPR = 0.05;

/** One question's effectiveness rows for one family of methods, and what its tables call them. */
interface FamilyRows {
  q: Question;
  family: string;
  individual: boolean;
  /** The name of the recall column: coverage (individual) or found (subgroup). */
  measure: string;
  rows: EffectivenessRow[];
}

/** Per question: where its bias lives, then per family the effectiveness tables and figures. */
export async function effectivenessByQuestion(b: ReportBuilder, inputs: ReportInputs): Promise<void> {
  const eff = effectiveness(inputs.records);
  // The headline scenario: the base of a one-at-a-time design, else the study's first scenario.
  const scenarios = unique(eff.map((r) => r.scenario));
  const headline = scenarios.includes('base') ? 'base' : scenarios[0];
  for (const q of questions) {
    const rows = eff.filter((r) => r.question === q);
    if (rows.length === 0) continue;
    b.heading(2, `Question: ${q}`);
    b.text(`Where the bias lives: ${questionText[q]}.`);
    for (const family of ['individual', 'subgroup']) {
      const fr = rows.filter((r) => r.family === family);
      if (fr.length === 0) continue;
      const individual = family === 'individual';
      const f: FamilyRows = { q, family, individual, measure: individual ? 'coverage' : 'found', rows: fr };
      b.addTable(effectivenessTable(f), effectivenessNote(inputs.study, f));
      const top = fr.filter((r) => r.scenario === headline);
      if (top.length > 0 && scenarios.length > 1) await headlineScenario(b, inputs, f, headline!, top);
      await b.addFigure(
        `${q}-${family}`,
        chanceFigure(
          `The ${q} question, ${family} methods`,
          'every scenario (rows) by model (columns)',
          individual ? 'coverage' : 'planted subgroups found',
          inputs.planOrder.filter((l) => fr.some((r) => r.label === l)),
        ),
        chancePoints(fr),
        `${q} question, ${family} methods`,
      );
    }
  }
}

/** Every scenario's recall, precision, localisation or model ceiling, and detection, of one family. */
function effectivenessTable({ q, family, individual, measure, rows }: FamilyRows): Table {
  return {
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
    rows: rows.map((r) => effectivenessCells(r, individual)),
    data: rows.map((r) => effectivenessData(r, individual)),
    cells: rows.map((r) => ({ question: q, dataset: r.scenario, model: r.model, method: r.label })),
  };
}

/** A false-positive-controlled rate needs enough own nulls to reach its level. */
const controlsFpr = (d: EffectivenessRow['detection']): d is NonNullable<EffectivenessRow['detection']> =>
  !!d && d.nullRuns >= MIN_NULLS_FOR_FPR;

/** One row of the effectiveness table as printed. */
function effectivenessCells(r: EffectivenessRow, individual: boolean): string[] {
  return [
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
    controlsFpr(r.detection)
      ? `${num(r.detection.tpr, 2)} [${num(r.detection.tprLo, 2)}, ${num(r.detection.tprHi, 2)}] at ${num(r.detection.fpr, 2)}`
      : '–',
    String(r.detection?.nullRuns ?? 0),
  ];
}

/** One row of the effectiveness table as data (CSV and JSON). */
function effectivenessData(r: EffectivenessRow, individual: boolean) {
  const measure = individual ? 'coverage' : 'found';
  return {
    question: r.question,
    scenario: r.scenario,
    model: r.model,
    method: r.label,
    family: r.family,
    runs: r.runs,
    ...intervalFields(measure, r.recall),
    [`chance_${measure}`]: raw(r.chanceRecall.mean),
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
    ...(controlsFpr(r.detection)
      ? {
          tpr: raw(r.detection.tpr),
          tpr_lo: raw(r.detection.tprLo),
          tpr_hi: raw(r.detection.tprHi),
          fpr: raw(r.detection.fpr),
        }
      : { tpr: null, tpr_lo: null, tpr_hi: null, fpr: null }),
    null_runs: r.detection?.nullRuns ?? 0,
  };
}

/** The note under an effectiveness table: what its columns mean, and whether it can rank at all. */
function effectivenessNote(study: Study, { individual, rows }: FamilyRows): string {
  const flat = saturated(
    rows.flatMap((r) => [r.recall.mean, r.precision.mean, individual ? r.learned.mean : r.localisation.mean]),
  );
  return [
    individual
      ? 'Coverage: share of a planted subgroup’s audited members whose discrimination the method demonstrated (the model treats them differently in the planted direction, and the method reported a planted pair on their non-protected values). Precision: share of pairs whose decision moves the way the planted bias moves the true probability. Model holds: share of members the model discriminates in the planted direction (the ceiling of coverage).'
      : `Found: share of planted subgroups matched by one of the top ${study.topK} findings with Jaccard ≥ ${study.jaccardThreshold}. Precision: share of those findings that match one. Jaccard: mean over planted subgroups of the best Jaccard among the top findings.`,
    'AUC: the method’s own alarm score (individual: discriminatory samples per tested sample; subgroup: 1 − p of the top finding, or its score) on planted runs against runs on the no-bias twin; 0.5 is chance. TPR at the threshold that the null runs exceed at most at the stated rate.',
    flat ? `**Every recall and precision here is at its ${flat}: this table cannot rank the methods.**` : '',
  ].join(' ');
}

/** The headline scenario alone: its table, and the article's figure of it by model. */
async function headlineScenario(
  b: ReportBuilder,
  { planOrder }: ReportInputs,
  { q, family, individual, measure }: FamilyRows,
  headline: string,
  top: EffectivenessRow[],
): Promise<void> {
  b.addTable({
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
      individual ? vsChance(r.learned, r.chanceLearned) : vsChance(r.localisation, r.chanceLocalisation),
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
  // The article's figure: the headline scenario alone, by model (the full figure has a row per
  // scenario, too tall for a page).
  await b.addFigure(
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

/** The rows of a chance figure: each method's mean with its interval and its chance level. */
function chancePoints(rows: readonly EffectivenessRow[]) {
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
