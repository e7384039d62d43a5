import type { CellRecord } from '../../run/record.js';
import type { ReportBuilder } from '../builder.js';
import type { ReportInputs } from './shared.js';

/** Cells that failed and then passed when run again, then cells that failed for good: each listed. */
export function failures(b: ReportBuilder, { parts }: ReportInputs): void {
  errorTable(
    b,
    'retried',
    'Cells that failed, then passed when run again',
    'Cells whose first run failed (the error shown) and a later run in the same study run passed',
    parts.done.filter((r) => r.retriedAfter?.length),
    'earlier error',
    (r) => r.retriedAfter!.join('; '),
  );
  errorTable(
    b,
    'failed',
    'Failed cells',
    'Cells that threw or overran',
    parts.failed,
    'error',
    (r) => r.error ?? '',
  );
}

/** A section with a table of cells with one error column, each row linked to its cell; none without cells. */
function errorTable(
  b: ReportBuilder,
  name: string,
  title: string,
  caption: string,
  rows: CellRecord[],
  error: string,
  errorOf: (r: CellRecord) => string,
): void {
  if (rows.length === 0) return;
  b.heading(2, title);
  b.addTable({
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
}
