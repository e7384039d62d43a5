import { quantile } from '@fb/eval';
import { efficiency as efficiencyOf } from '../../analyse/analysis.js';
import type { ReportBuilder } from '../builder.js';
import { costFigure } from '../figures.js';
import { num, raw } from '../tables.js';
import { pct, type ReportInputs } from './shared.js';

/** Cost per method on the planted data sets (a table), and the spread of its cost per run (a figure). */
export async function efficiency(b: ReportBuilder, inputs: ReportInputs): Promise<void> {
  b.heading(2, 'Efficiency');
  const effRows = efficiencyOf(inputs.records);
  b.addTable({
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
  // The study's plans, not the tuning grid's points: one row per method keeps the figure legible.
  const planned = inputs.planOrder.filter((label) =>
    inputs.parts.done.some((r) => r.plan.label === label && !r.plan.tuned),
  );
  await b.addFigure('cost', costFigure(planned), costPoints(inputs, planned), 'cost per run');
}

/** Per method with a done run, in plan order: the median and quartiles of its seconds and queries per run. */
function costPoints({ parts }: ReportInputs, planOrder: readonly string[]) {
  return planOrder
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
}

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
