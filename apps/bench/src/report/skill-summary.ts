import { questions } from '../analyse/analysis.js';
import { isFloorLike, isRanked, type SkillRow } from '../analyse/skill.js';
import { headlineMeasure, isRate, measureWords } from '../score/measures.js';
import { num } from './tables.js';

/** The measure a family's summary line is about: the one that ranks where the others saturate. */

/**
 * The study in a few lines, for the terminal: per question, family, scenario and model, the method
 * with the largest excess over its strongest floor on the family's headline measure, that floor, the
 * seed-level test, and every method that finds the planted bias there.
 */
export function skillSummary(rows: readonly SkillRow[]): string {
  const lines: string[][] = [
    [
      'question',
      'family',
      'measure',
      'scenario',
      'model',
      'largest excess',
      'value',
      'strongest floor',
      'excess',
      'p (Holm)',
      'find the bias',
    ],
  ];
  const above: string[] = [];
  const groups = new Map<string, SkillRow[]>();
  for (const r of rows) {
    if (r.measure !== headlineMeasure[r.family]) continue;
    const k = [r.question, r.family, r.scenario, r.model].join('\u0000');
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const order = (g: SkillRow[]) => {
    const r = g[0]!;
    return [questions.indexOf(r.question), r.family, r.scenario, r.model].join('\u0000');
  };
  for (const g of [...groups.values()].sort((a, b) =>
    order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0,
  )) {
    const methods = g.filter(isRanked);
    const best = [...methods].sort((a, b) => b.excess.mean - a.excess.mean)[0];
    if (!best) continue;
    const higher = g.filter(
      (r) => (r.baseline === 'trivial' || r.baseline === 'floor') && r.value.mean > best.value.mean,
    );
    if (higher.length)
      above.push(
        `${best.question} / ${best.family} / ${best.scenario} / ${best.model}: ${higher.map((r) => r.label).join(', ')} above ${best.label}`,
      );
    const d = isRate(best.measure) ? 1 : 2;
    const floor = best.floors.find((f) => f.name === best.strongest);
    lines.push([
      best.question,
      best.family,
      measureWords[best.measure],
      best.scenario,
      best.model,
      best.label,
      num(best.value.mean, d),
      floor ? `${floor.name} ${num(floor.value.mean, d)}` : '–',
      num(best.excess.mean, d),
      best.pHolm === null ? '–' : num(best.pHolm, 3),
      methods
        .filter((r) => r.finds)
        .map((r) => r.label)
        .join(', ') || 'none',
    ]);
  }
  if (lines.length === 1) return 'No scored runs on planted bias: no summary.';
  const widths = lines[0]!.map((_, c) => Math.max(...lines.map((l) => [...l[c]!].length)));
  const text = lines.map((l) =>
    l
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd(),
  );
  return [
    'Skill against the floors (the headline measure of each family; details in the report):',
    text[0]!,
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...text.slice(1),
    ...(above.length
      ? ['', 'Outputs that know nothing, or floors, scoring above the best method:', ...above]
      : []),
  ].join('\n');
}

/**
 * The study in plain words for the top of the report: per family, which methods find the planted bias
 * on the family's headline measure (and where), and how often an output that knows nothing or a floor
 * scores above every method.
 */
export function skillBrief(rows: readonly SkillRow[]): string[] {
  const out: string[] = [];
  for (const family of ['individual', 'subgroup'] as const) {
    const mine = rows.filter((r) => r.family === family && r.measure === headlineMeasure[family]);
    if (mine.length === 0) continue;
    const tables = new Map<string, SkillRow[]>();
    for (const r of mine) {
      const k = [r.question, r.scenario, r.model].join('\u0000');
      tables.set(k, [...(tables.get(k) ?? []), r]);
    }
    const finders = new Map<string, string[]>();
    let beaten = 0;
    for (const t of tables.values()) {
      const methods = t.filter(isRanked);
      for (const r of methods.filter((m) => m.finds)) {
        finders.set(r.label, [
          ...(finders.get(r.label) ?? []),
          `${r.question} question, ${r.scenario}, ${r.model}`,
        ]);
      }
      const best = Math.max(...methods.map((m) => m.value.mean));
      if (t.some((r) => isFloorLike(r) && r.value.mean > best)) beaten++;
    }
    const measure = measureWords[headlineMeasure[family]];
    const found = [...finders].map(([label, where]) => `${label} (${where.join('; ')})`);
    out.push(
      `**${family === 'individual' ? 'Individual' : 'Subgroup'} methods, ${measure}:** ${
        found.length
          ? `${found.length === 1 ? 'one method finds' : `${found.length} methods find`} the planted bias beyond every floor, by a one-sided test over seeds after Holm's adjustment: ${found.join('; ')}`
          : 'no method finds the planted bias beyond every floor by a one-sided test over seeds after Holm’s adjustment'
      } (${tables.size} tables of a question, scenario and model). ${
        beaten
          ? `In ${beaten} of them an output that knows nothing, or a floor, scores above every method.`
          : 'In none of them does an output that knows nothing, or a floor, score above every method.'
      }`,
    );
  }
  return out;
}
