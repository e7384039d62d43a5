import { factors as factorsOf, factorWords, questions } from '../../analyse/analysis.js';
import type { Question } from '../../plan/config.js';
import type { ReportBuilder } from '../builder.js';
import { factorFigure, panelsOf } from '../figures.js';
import { num, raw } from '../tables.js';
import { type ReportInputs, unique } from './shared.js';

/** Factor rows as `factors` returns them: one question's, or its methods of one family. */
type FactorRows = ReturnType<typeof factorsOf>;

/** Per question, the detection rate of planted subgroups by level of each difficulty factor. */
export async function difficultyFactors(b: ReportBuilder, { records }: ReportInputs): Promise<void> {
  b.heading(2, 'Difficulty factors');
  const familyOf = new Map(records.filter((r) => r.family).map((r) => [r.plan.label, r.family!]));
  const fs = factorsOf(records);
  for (const q of questions) {
    const fq = fs.filter((f) => f.question === q);
    if (fq.length === 0) continue;
    factorTable(b, q, fq);
    for (const family of ['individual', 'subgroup']) {
      await factorFigureOf(
        b,
        q,
        family,
        fq.filter((f) => familyOf.get(f.label) === family),
      );
    }
  }
}

/** One question's table: per factor, method and level, the detection rate beside its chance level. */
function factorTable(b: ReportBuilder, q: Question, fq: FactorRows): void {
  b.addTable({
    name: `factors-${q}`,
    caption: `${q} question: detection rate of planted subgroups by factor level (Wilson 95% CI; chance level, the no-bias twins against the same subgroups, in parentheses)`,
    headers: ['factor', 'method', 'level', 'groups', 'detected'],
    align: ['l', 'l', 'l', 'r', 'r'],
    rows: fq.flatMap((f) =>
      f.levels.map((l) => [
        factorWords[f.factor],
        f.label,
        l.level,
        String(l.groups),
        `${num(l.rate, 2)} [${num(l.lo, 2)}, ${num(l.hi, 2)}] (${num(l.chance, 2)})`,
      ]),
    ),
    data: fq.flatMap((f) =>
      f.levels.map((l) => ({
        question: q,
        factor: f.factor,
        method: f.label,
        level: l.level,
        from: raw(l.from),
        groups: l.groups,
        rate: raw(l.rate),
        rate_lo: raw(l.lo),
        rate_hi: raw(l.hi),
        chance: raw(l.chance),
      })),
    ),
    cells: fq.flatMap((f) => f.levels.map(() => ({ question: q, method: f.label }))),
  });
}

/** One question's figure for one family: detection rate by factor level, methods in panels. */
async function factorFigureOf(b: ReportBuilder, q: Question, family: string, ff: FactorRows): Promise<void> {
  const points = ff.flatMap((f) =>
    f.levels
      .filter((l) => Number.isFinite(l.rate) && Number.isFinite(l.from))
      .map((l) => ({
        factor: factorWords[f.factor],
        method: f.label,
        level: l.level,
        from: l.from,
        rate: l.rate,
      })),
  );
  const panels = panelsOf(unique(points.map((p) => p.method)));
  const panelOf = new Map(panels.flatMap((names, k) => names.map((n) => [n, k + 1] as const)));
  await b.addFigure(
    `factors-${q}-${family}`,
    factorFigure(`${q} question, ${family} methods: detection rate by factor level`, panels),
    points.map((p) => ({ ...p, panel: panelOf.get(p.method)! })),
    `${q} question, ${family} methods: detection by factor`,
  );
}
