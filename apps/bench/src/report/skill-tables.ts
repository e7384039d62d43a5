import { questions } from '../analyse/analysis.js';
import { ALPHA, isFloorLike, MIN_NULLS_FOR_FPR, type SkillRow, type TuningChoice } from '../analyse/skill.js';
import type { Question } from '../plan/config.js';
import { floorMeaning } from '../score/floors.js';
import { isRate, type Measure, measureMeaning, measureWords } from '../score/measures.js';
import { intervalFields, num, raw, type Table, withInterval } from './tables.js';

/** One table of the skill section, with the sentences that must stand beside it. */
export interface SkillTable {
  question: Question;
  family: 'individual' | 'subgroup';
  measure: Measure;
  table: Table;
  /** Where an output that knows nothing ranks above a published method, and methods below their floor. */
  warnings: string[];
}

const floorText = (fs: readonly { name: string; value: { mean: number } }[], d: number) =>
  fs.map((f) => `${f.name} ${num(f.value.mean, d)}`).join('; ') || '–';

const digits = (m: Measure) => (isRate(m) ? 1 : 2);

const tag = (r: SkillRow) =>
  r.baseline === 'trivial'
    ? `${r.label} (trivial)`
    : r.baseline === 'floor'
      ? `${r.label} (floor)`
      : r.baseline === 'baseline'
        ? `${r.label} (baseline)`
        : r.unranked !== null
          ? `${r.label} (not ranked: ${r.unranked})`
          : r.label;

function alarmText(r: SkillRow): string {
  if (!r.alarm) return '–';
  const auc = `${num(r.alarm.auc, 2)} [${num(r.alarm.lo, 2)}, ${num(r.alarm.hi, 2)}]`;
  const c = r.alarm.controlled;
  return c ? `${auc}; TPR ${num(c.tpr, 2)} at held-out FPR ${num(c.fpr, 2)}` : auc;
}

/** Sentences for one group of rows (a scenario and model): trivial outputs above methods, methods below floors. */
function warningsOf(rows: readonly SkillRow[], measure: Measure): string[] {
  const out: string[] = [];
  const methods = rows.filter((r) => r.baseline === null && r.unranked === null);
  const trivial = rows.filter(isFloorLike);
  const where = `${rows[0]!.scenario}, ${rows[0]!.model}`;
  for (const t of trivial) {
    const beaten = methods.filter((m) => m.value.mean < t.value.mean).map((m) => m.label);
    if (beaten.length)
      out.push(
        `${where}: ${t.label} (${num(t.value.mean, digits(measure))}) scores above ${beaten.join(', ')} on ${measureWords[measure]}.`,
      );
  }
  const below = methods.filter((m) => m.excess.mean < 0).map((m) => m.label);
  if (below.length)
    out.push(`${where}: below their strongest floor on ${measureWords[measure]}: ${below.join(', ')}.`);
  const all = rows.flatMap((r) => [r.value.mean, ...r.floors.map((f) => f.value.mean)]);
  const bound = isRate(measure) ? null : all.every((v) => v === 1) ? 'ceiling (1)' : null;
  if (bound || all.every((v) => v === 0))
    out.push(
      `${where}: every method and floor sits at the ${bound ?? 'floor (0)'} on ${measureWords[measure]}: it cannot rank them here.`,
    );
  // The smallest one-sided exact p over n seeds is 1/2^n; Holm multiplies the smallest by the methods tested.
  const tested = methods.filter((r) => r.p !== null);
  const seeds = Math.max(0, ...tested.map((r) => r.seeds));
  const smallest = tested.length / 2 ** seeds;
  if (tested.length && smallest >= ALPHA)
    out.push(
      `${where}: with ${seeds} seeds and ${tested.length} methods the smallest Holm-adjusted p is ${num(Math.min(1, smallest), 3)}: no row can be shown to find the bias at ${ALPHA}.`,
    );
  return out;
}

/**
 * The skill tables: per question, family and measure, every method's value beside every floor matched
 * to its runs, its paired excess over the strongest floor (ranked), the seed-level one-sided test
 * (Holm-adjusted over the methods of each scenario and model), the "does it react" twin and the paired own-twin alarm.
 */
export function skillTables(rows: readonly SkillRow[], prefix = 'skill', what = ''): SkillTable[] {
  const out: SkillTable[] = [];
  for (const question of questions) {
    for (const family of ['subgroup', 'individual'] as const) {
      const fr = rows.filter((r) => r.question === question && r.family === family);
      for (const measure of [...new Set(fr.map((r) => r.measure))]) {
        const mr = fr.filter((r) => r.measure === measure);
        const groups = new Map<string, SkillRow[]>();
        for (const r of mr) {
          const k = `${r.scenario}\u0000${r.model}`;
          groups.set(k, [...(groups.get(k) ?? []), r]);
        }
        const d = digits(measure);
        const table: Table = {
          name: `${prefix}-${question}-${family}-${measure}`,
          caption: `${what}${question} question, ${family} methods, ${measureWords[measure]} (${measureMeaning[family][measure]}): mean [95% CI] over seeds, the floors matched to each method's runs, the paired excess over the strongest floor (ranked), one-sided signed-rank test over seeds (Holm-adjusted over the methods of each scenario and model), the same method on the scenario's own no-bias twin, and the paired AUC of its alarm against that twin`,
          headers: [
            'scenario',
            'model',
            'method',
            'seeds',
            measureWords[measure],
            'strongest floor',
            'other floors',
            'excess over strongest floor',
            'p (Holm)',
            'finds',
            'own twin',
            'alarm AUC vs own twin',
          ],
          align: ['l', 'l', 'l', 'r', 'r', 'l', 'l', 'r', 'r', 'l', 'r', 'r'],
          rows: mr.map((r) => [
            r.scenario,
            r.model,
            tag(r),
            String(r.seeds),
            withInterval(r.value, d),
            floorText(
              r.floors.filter((f) => f.name === r.strongest),
              d,
            ),
            floorText(
              r.floors.filter((f) => f.name !== r.strongest),
              d,
            ),
            withInterval(r.excess, d),
            r.pHolm === null ? '–' : num(r.pHolm, 3),
            r.finds ? 'yes' : 'no',
            withInterval(r.twin, d),
            alarmText(r),
          ]),
          data: mr.map((r) => ({
            question: r.question,
            scenario: r.scenario,
            model: r.model,
            method: r.label,
            family: r.family,
            measure: r.measure,
            baseline: r.baseline,
            unranked: r.unranked,
            seeds: r.seeds,
            ...intervalFields('value', r.value),
            ...Object.fromEntries(
              r.floors.map((f) => [`floor_${f.name.replace(/\W+/g, '_')}`, raw(f.value.mean)]),
            ),
            strongest_floor: r.strongest,
            ...intervalFields('excess', r.excess),
            p: raw(r.p),
            p_holm: raw(r.pHolm),
            finds: r.finds,
            ...intervalFields('own_twin', r.twin),
            alarm_auc: raw(r.alarm?.auc),
            alarm_auc_lo: raw(r.alarm?.lo),
            alarm_auc_hi: raw(r.alarm?.hi),
            alarm_seeds: r.alarm?.seeds ?? 0,
            alarm_p: raw(r.alarm?.pValue),
          })),
          cells: mr.map((r) => ({ question, dataset: r.scenario, model: r.model, method: r.label })),
        };
        out.push({
          question,
          family,
          measure,
          table,
          warnings: [...groups.values()].flatMap((g) => warningsOf(g, measure)),
        });
      }
    }
  }
  return out;
}

/** How to read the skill tables: the floors, the test, the twin and the alarm, in words. */
export function skillIntro(): string[] {
  return [
    'Each table ranks methods by their **paired excess over the strongest floor**: per seed, the method’s value',
    'minus what an output that knows nothing scores through the same scorer, matched to that run; the strongest',
    'floor is the one with the highest mean. A method **finds** the planted bias on a measure when its mean',
    `excess is positive and a one-sided Wilcoxon signed-rank test over seeds (the independent unit) rejects at`,
    `${ALPHA} after Holm’s adjustment across the methods of the same scenario and model. The floors:`,
    ...Object.entries(floorMeaning).map(([name, meaning]) => `_${name}_: ${meaning}.`),
    'The **own twin** column is the same method on the scenario’s own no-bias twin (same rows, labels without',
    'bias), scored against the planted subgroups: whether the method reacts to the bias at all (for individual',
    'measures it is 0 by construction: on the twin’s data the model is its own twin). The **alarm AUC** is',
    'the share of seeds whose planted run raises a higher alarm than its own twin (ties half), with a Wilson',
    `interval; a false-positive-controlled rate is shown only with at least ${MIN_NULLS_FOR_FPR} own null runs,`,
    'its FPR measured on held-out nulls. Individual methods on σ(η + β) have no precision and no alarm there:',
    'σ(η) never flips, so every flip is bias-caused and the twin’s alarm is always 0 (a null that cannot fail).',
    'Rows marked (trivial) are outputs blind to labels and model, (floor) floor methods, (baseline) the',
    'exhaustive check of the audited rows.',
  ];
}

/** The tuning grid's choices: per method, question and model, the excess of every point on the tuning seeds. */
export function tuningChoiceTable(choices: readonly TuningChoice[]): Table {
  const gridText = (c: TuningChoice) =>
    c.grid.map((g) => `${String(g.value)}: ${g.excess === null ? '–' : num(g.excess, 2)}`).join('; ');
  return {
    name: 'tuning-choices',
    caption:
      'Each method’s tuning grid on the tuning seeds of the base scenario: the mean excess over the strongest floor of every grid point on its family’s headline measure, and the point chosen (the largest; ties to the default, then the smaller value). The evaluation seeds take no part in the choice.',
    headers: ['question', 'family', 'model', 'method', 'option', 'chosen', 'excess per grid point'],
    align: ['l', 'l', 'l', 'l', 'l', 'r', 'l'],
    rows: choices.map((c) => [
      c.question,
      c.family,
      c.model,
      c.entry,
      c.option,
      String(c.value),
      gridText(c),
    ]),
    data: choices.map((c) => ({
      question: c.question,
      family: c.family,
      model: c.model,
      method: c.entry,
      option: c.option,
      chosen: JSON.stringify(c.value),
      grid: JSON.stringify(c.grid),
    })),
    cells: choices.map((c) => ({
      question: c.question,
      dataset: 'base (tuning)',
      model: c.model,
      method: c.label,
    })),
  };
}
