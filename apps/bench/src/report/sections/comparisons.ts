import { comparisons as comparisonsOf } from '../../analyse/analysis.js';
import { measureWords } from '../../score/measures.js';
import type { ReportBuilder } from '../builder.js';
import { num, raw } from '../tables.js';
import type { ReportInputs } from './shared.js';

/** A label as part of a file name: letters and digits, the rest one dash. */
const slug = (s: string) =>
  s
    .replace(/σ/g, 'sigma')
    .replace(/η/g, 'eta')
    .replace(/β/g, 'beta')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();

/** Paired tests between the methods of each family, per question, scenario and model. */
export function comparisons(b: ReportBuilder, { records }: ReportInputs): void {
  b.heading(2, 'Comparisons within each family');
  for (const c of comparisonsOf(records)) {
    const minP = 2 / 2 ** c.seeds;
    if (c.tests.length === 0) continue;
    const where = `${c.question} question, ${c.family} methods, ${c.scenario}, ${c.model}`;
    if (minP > 0.05) {
      b.text(
        `_${where}: ${c.seeds} seeds; an exact paired test cannot reach p < 0.05 with fewer than 6 (smallest p ${num(minP, 3)}), so no comparison is tested._`,
      );
      continue;
    }
    b.addTable({
      name: `comparisons-${c.question}-${c.family}-${slug(c.scenario)}-${slug(c.model)}`,
      caption: `${where}: paired Wilcoxon signed-rank tests of ${measureWords[c.measure]} over ${c.seeds} seeds (the independent unit), Holm-adjusted within the table`,
      headers: ['A', 'B', 'seeds', 'mean A − B', 'p', 'p (Holm)', 'better'],
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
      data: c.tests.map((t) => ({
        question: c.question,
        family: c.family,
        scenario: c.scenario,
        model: c.model,
        measure: c.measure,
        a: t.a,
        b: t.b,
        seeds: t.n,
        mean_difference: raw(t.meanDifference),
        p: raw(t.pValue),
        p_holm: raw(t.pHolm),
        better: t.better ?? null,
      })),
    });
  }
}
