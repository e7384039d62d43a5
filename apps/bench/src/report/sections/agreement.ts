import { agreement as agreementOf } from '../../analyse/analysis.js';
import { realAgreement as realAgreementOf } from '../../analyse/real-agreement.js';
import type { ReportBuilder } from '../builder.js';
import { agreementFigure } from '../figures.js';
import { intervalFields, num, raw, withInterval } from '../tables.js';
import type { ReportInputs } from './shared.js';

/** How far methods implicate the same protected values and find the same planted subgroups. */
export async function agreement(b: ReportBuilder, { records, planOrder }: ReportInputs): Promise<void> {
  b.heading(2, 'Agreement between methods');
  const agr = agreementOf(records);
  b.addTable({
    name: 'agreement',
    caption: 'Agreement between methods over shared blocks (mean Jaccard)',
    headers: ['A', 'B', 'blocks', 'implicated protected values', 'planted subgroups found'],
    align: ['l', 'l', 'r', 'r', 'r'],
    rows: agr.map((a) => [a.a, a.b, String(a.blocks), num(a.implicated, 2), num(a.groups, 2)]),
    data: agr.map((a) => ({
      a: a.a,
      b: a.b,
      blocks: a.blocks,
      implicated: raw(a.implicated),
      groups: raw(a.groups),
    })),
  });
  const agreeing = agr.filter((a) => Number.isFinite(a.implicated));
  const inMatrix = planOrder.filter((l) => agreeing.some((a) => a.a === l || a.b === l));
  await b.addFigure(
    'agreement',
    agreementFigure(inMatrix),
    agreeing.length === 0
      ? []
      : [
          ...inMatrix.map((l) => ({ a: l, b: l, value: 1 })),
          ...agreeing.flatMap((a) => [
            { a: a.a, b: a.b, value: a.implicated },
            { a: a.b, b: a.a, value: a.implicated },
          ]),
        ],
    'agreement between methods',
  );
  b.text(
    'Implicated protected values: per individual method, the values with at least their attribute’s mean DSN;',
    'per subgroup method, the protected values in its five top-ranked subgroups.',
  );
}

/** Real data only: agreement between ranked methods of a family, beside each against random subgroups. */
export function realAgreement(b: ReportBuilder, { records }: ReportInputs): void {
  const realAgr = realAgreementOf(records);
  if (!realAgr.length) return;
  b.addTable({
    name: 'real-agreement',
    caption:
      'Real data only: mean Jaccard of the protected values two ranked methods of a family implicate, beside the same between each method and the random subgroups (an output that knows nothing), per data set; mean [95% CI] over seeds',
    headers: ['data set', 'family', 'between', 'pairs', 'seeds', 'agreement'],
    align: ['l', 'l', 'l', 'r', 'r', 'r'],
    rows: realAgr.map((a) => [
      a.dataset,
      a.family,
      a.between,
      String(a.pairs),
      String(a.seeds),
      withInterval(a.agreement, 2),
    ]),
    data: realAgr.map((a) => ({
      dataset: a.dataset,
      family: a.family,
      between: a.between,
      pairs: a.pairs,
      seeds: a.seeds,
      ...intervalFields('agreement', a.agreement),
    })),
    cells: realAgr.map((a) => ({ dataset: a.dataset, family: a.family })),
  });
}
