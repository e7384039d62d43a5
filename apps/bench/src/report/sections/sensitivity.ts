import { type SensitivityRow, sensitivity as sensitivityOf } from '../../analyse/analysis.js';
import type { ReportBuilder } from '../builder.js';
import { sensitivityCategoricalFigure, sensitivityNumericFigure } from '../figures.js';
import { intervalFields, num, raw, withInterval } from '../tables.js';
import { type ReportInputs, unique } from './shared.js';

/** Recall and cost by each value of each varied method option: a table and its figures. */
export async function sensitivity(b: ReportBuilder, { records }: ReportInputs): Promise<void> {
  b.heading(2, 'Sensitivity to method options');
  const sens = sensitivityOf(records);
  b.addTable({
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
  const { numeric, categorical } = sensitivityPoints(sens);
  await b.addFigure('sensitivity', sensitivityNumericFigure, numeric, 'recall by a numeric option');
  if (categorical.length > 0)
    await b.addFigure(
      'sensitivity-options',
      sensitivityCategoricalFigure,
      categorical,
      'recall by an option',
    );
}

/**
 * The points of the sensitivity figures, a panel per method, option and question: on a numeric axis
 * when every value of an option with more than one is a number, else on a categorical one.
 */
function sensitivityPoints(sens: readonly SensitivityRow[]): { numeric: object[]; categorical: object[] } {
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
  return { numeric, categorical };
}

/** A varied option's values as numbers when every one is a number (a numeric axis), else null. */
function numericValues(values: readonly string[]): number[] | null {
  const xs = values.map((v) => Number(v));
  return xs.every((x) => Number.isFinite(x)) ? xs : null;
}
