import { hitCurves as curvesOf, hitThresholds } from '../../analyse/analysis.js';
import type { ReportBuilder } from '../builder.js';
import { num, raw } from '../tables.js';
import type { ReportInputs } from './shared.js';

/** Subgroup methods: the share of planted subgroups found at each Jaccard threshold. */
export function hitCurves(b: ReportBuilder, { records }: ReportInputs): void {
  b.heading(2, 'Subgroup localisation by Jaccard threshold');
  const curves = curvesOf(records);
  b.addTable({
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
}
