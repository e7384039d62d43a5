import { groupBy, questions } from '../../analyse/analysis.js';
import { isRanked, type SkillRow, tunedSkill } from '../../analyse/skill.js';
import type { Question } from '../../plan/config.js';
import { anytimeMeasures, type Measure } from '../../score/measures.js';
import type { ReportBuilder } from '../builder.js';
import { anytimeFigure } from '../figures.js';
import { skillIntro, skillTables, tuningChoiceTable } from '../skill-tables.js';
import { type ReportInputs, unique } from './shared.js';

/** The skill tables of `rows`, each followed by its warnings about trivial outputs and floors. */
function addSkillTables(b: ReportBuilder, rows: readonly SkillRow[], prefix?: string, what?: string): void {
  for (const st of skillTables(rows, prefix, what)) {
    b.addTable(st.table);
    if (st.warnings.length) b.text(`**Trivial outputs and floors:** ${st.warnings.join(' ')}`);
  }
}

/** Skill against the floors at the published defaults: how it is read, then its tables. */
export function skillAgainstFloors(b: ReportBuilder, { skillRows }: ReportInputs): void {
  b.heading(2, 'Skill against the floors');
  b.text(...skillIntro());
  addSkillTables(b, skillRows);
}

/** Per question, the anytime figures: each method's measure as queries are spent, beside the floors. */
export async function anytimeCurves(b: ReportBuilder, { skillRows }: ReportInputs): Promise<void> {
  for (const q of questions) {
    for (const [measures, yTitle, rate] of ANYTIME_FIGURES) {
      const points = anytimePoints(skillRows, q, measures);
      if (points.length === 0) continue;
      const methods = unique(points.filter((p) => p.kind === 'method').map((p) => p.method));
      await b.addFigure(
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
}

/** Skill at the grid point each method's tuning seeds chose, when the study tunes. */
export function tunedSkillSection(b: ReportBuilder, { records }: ReportInputs): void {
  const tuned = tunedSkill(records);
  if (!tuned.choices.length) return;
  b.heading(2, 'Tuned: every method at the grid point its tuning seeds chose');
  b.text(
    'Every method gets a small grid of its own main option (the study file lists it); the tuning seeds of the base',
    'scenario choose one point per method, question and model, and the base scenario’s evaluation seeds score it',
    'as the tables above do. The tables above are at the published defaults.',
  );
  b.addTable(tuningChoiceTable(tuned.choices));
  addSkillTables(b, tuned.rows, 'tuned', 'Tuned: ');
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
