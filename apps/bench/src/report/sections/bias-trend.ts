import { biasTrend as trendOf } from '../../analyse/analysis.js';
import type { ReportBuilder } from '../builder.js';
import { trendFigure } from '../figures.js';
import { intervalFields, withInterval } from '../tables.js';
import { type ReportInputs, unique } from './shared.js';

/** Subgroup localisation by planted bias, under separation and sufficiency: a table and a figure. */
export async function biasTrend(b: ReportBuilder, { records, planOrder }: ReportInputs): Promise<void> {
  b.heading(2, 'Bias magnitude: separation and sufficiency');
  const trend = trendOf(records);
  b.addTable({
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
  await b.addFigure(
    'bias-trend',
    trendFigure(
      unique([...trend].sort((x, y) => x.bias - y.bias).map((t) => t.level)),
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
}
