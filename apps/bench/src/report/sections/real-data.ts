import { realData as realDataOf } from '../../analyse/analysis.js';
import type { ReportBuilder } from '../builder.js';
import { realFigure } from '../figures.js';
import { num, raw } from '../tables.js';
import { type ReportInputs, unique } from './shared.js';

/** What the methods report on real data, which has no planted truth: a table and a figure of SUR. */
export async function realData(b: ReportBuilder, { study, records }: ReportInputs): Promise<void> {
  b.heading(2, 'Real data');
  const real = realDataOf(records);
  if (study.real.length === 0) {
    b.text('_This study runs no real data set._');
    return;
  }
  b.addTable({
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
  await b.addFigure(
    'real',
    realFigure(unique(real.map((r) => r.dataset))),
    // SUR is a share of tested samples for individual methods only: subgroups per row is another quantity.
    real
      .filter((r) => r.family === 'individual' && Number.isFinite(r.sur))
      .map((r) => ({ method: r.label, model: r.model, dataset: r.dataset, sur: r.sur })),
    'SUR of the individual methods on real data',
  );
}
