import { REPLICATION_LABEL, TUNING_LABEL } from '../plan/cells.js';
import { num, type Table } from '../report/tables.js';
import { headlineMeasure, isRate, type Measure, measureWords } from '../score/measures.js';
import { type Claim, type ClaimBook, floorRecord, pText, rankedRecord, type SkillRecord } from './claims.js';

/**
 * The article's results in words, generated from the skill and comparisons tables: which methods
 * exceed their floors and each other by a seed-level test that holds (each cited by its claim id),
 * which do not, where a floor or a baseline scores as much as the methods, whether the conclusions
 * hold on the replication's seeds, and where they reverse in another scenario.
 */

type Family = 'individual' | 'subgroup';

export interface Where {
  question: string;
  family: Family;
}

const list = (xs: readonly string[]) =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;

const digits = (m: string) => (isRate(m as Measure) ? 1 : 2);

/** `0.51 [0.29, 0.74]` */
function interval(v: number | null, lo: number | null, hi: number | null, d: number): string {
  if (v === null) return 'n/a';
  return lo === null || hi === null ? num(v, d) : `${num(v, d)} [${num(lo, d)}, ${num(hi, d)}]`;
}

/** A scenario's label without what its level sets besides the factor: `rows=12000 (minGroupSize=200, …)` is `rows=12000`. */
export const shortScenario = (label: string): string => label.replace(/ \([^)]*\)/g, '');

/** The scenario a question's results lead with: `base` when the study has it, else its first. */
export function headlineScenario(book: ClaimBook, w: Where): string | null {
  const measure = headlineMeasure[w.family];
  const have = book.scenarios().filter((s) => book.skill({ ...w, scenario: s, measure }).some(rankedRecord));
  const own = have.filter((s) => s !== REPLICATION_LABEL && s !== TUNING_LABEL);
  return own.includes('base') ? 'base' : (own[0] ?? null);
}

/** Rows of one table (question, family, scenario, model) on the family's headline measure. */
function tableRows(
  book: ClaimBook,
  w: Where,
  scenario: string,
  model?: string,
  tuned = false,
): SkillRecord[] {
  return book
    .skill({ ...w, scenario, measure: headlineMeasure[w.family] }, tuned)
    .filter((r) => model === undefined || r.model === model);
}

const models = (rows: readonly SkillRecord[]) => [...new Set(rows.map((r) => r.model))];

/** The ranked methods that exceed their strongest floor, largest excess first, with their claims. */
function finders(book: ClaimBook, rows: readonly SkillRecord[]): { row: SkillRecord; claim: Claim }[] {
  return rows
    .filter(rankedRecord)
    .map((row) => ({ row, claim: book.overFloor(row) }))
    .filter((x): x is { row: SkillRecord; claim: Claim } => x.claim?.holds === true)
    .sort((a, b) => (b.row.excess ?? 0) - (a.row.excess ?? 0));
}

/** Floor names as a narrow table column prints them (the captions and the text use the full names). */
const SHORT_FLOOR: Record<string, string> = {
  'per-value disparity scan': 'per-value scan',
  'random audited rows': 'random rows',
  'uniform domain samples': 'uniform samples',
  'largest protected cells': 'largest cells',
  'random conjunctions': 'random conj.',
  'every variant unasked': 'all variants',
  'random flips of the model': 'random flips',
};
const shortFloor = (name: string) => SHORT_FLOOR[name] ?? name;

/** ` (random rows: random audited rows; …)`: the short floor names a table uses, spelled out. */
function floorLegend(rows: readonly SkillRecord[]): string {
  const used = [...new Set(rows.map((r) => r.strongest_floor))].filter(
    (n): n is string => n !== null && n in SHORT_FLOOR,
  );
  return used.length ? ` (${used.map((n) => `${SHORT_FLOOR[n]}: ${n}`).join('; ')})` : '';
}

const floorValue = (r: SkillRecord): number | null => {
  if (!r.strongest_floor) return null;
  const v = r[`floor_${r.strongest_floor.replace(/\W+/g, '_')}`];
  return typeof v === 'number' ? v : null;
};

/** One model's results in the headline scenario: finders, the leader against the rest, floors, unranked. */
function modelParagraph(book: ClaimBook, w: Where, scenario: string, model: string, many: boolean): string {
  const rows = tableRows(book, w, scenario, model);
  const measure = headlineMeasure[w.family];
  const d = digits(measure);
  const ranked = rows.filter(rankedRecord);
  const found = finders(book, rows);
  const out: string[] = [];
  const on = many ? `On the ${model}, ` : '';
  if (found.length === 0) {
    const tested = ranked.filter((r) => r.p_holm !== null).sort((a, b) => a.p_holm! - b.p_holm!);
    const s = tested[0];
    out.push(
      `${on}none of the ${ranked.length} ranked methods exceeded its strongest floor by a test that holds${
        s ? ` (the smallest Holm-adjusted p was ${s.method}'s, ${num(s.p_holm, 2)})` : ''
      }.`,
    );
  } else {
    const parts = found.map(
      ({ row, claim }) =>
        `${row.method} (${interval(row.value, row.value_lo, row.value_hi, d)}; excess ${interval(row.excess, row.excess_lo, row.excess_hi, d)} over the ${row.strongest_floor} at ${num(floorValue(row), d)}; ${book.ref(claim)})`,
    );
    out.push(
      `${on}${found.length} of the ${ranked.length} ranked methods exceeded their strongest floor on ${measureWords[measure]} by the seed-level test: ${list(parts)}.`,
    );
    const missed = ranked.filter((r) => !found.some((f) => f.row === r)).map((r) => r.method);
    if (missed.length)
      out.push(`No test that holds separates the others from their floors: ${list(missed)}.`);
    out.push(leaderSentence(book, w, scenario, model, found[0]!.row, rows));
    out.push(
      elsewhere(
        book,
        w,
        scenario,
        model,
        found.map((f) => f.row.method),
      ),
    );
  }
  const top = Math.max(...ranked.map((r) => r.value ?? Number.NEGATIVE_INFINITY));
  const high = rows.filter((r) => floorRecord(r) && (r.value ?? Number.NEGATIVE_INFINITY) >= top);
  if (high.length && Number.isFinite(top))
    out.push(
      `A floor scored as much as every ranked method: ${list(high.map((r) => `${r.method} ${num(r.value, d)}`))}, against at most ${num(top, d)}.`,
    );
  const outside = rows.filter((r) => r.unranked);
  if (outside.length)
    out.push(
      `Outside the ranking: ${list(outside.map((r) => `${r.method} (${num(r.value, d)}; ${r.unranked})`))}.`,
    );
  return out.filter(Boolean).map(capitalise).join(' ');
}

const capitalise = (t: string) => (t ? `${t[0]!.toUpperCase()}${t.slice(1)}` : t);

/**
 * Where the headline's finders exceed their floors in the other scenarios on the same model, said
 * where the claim is made: `CBS also in 5 of 7 other scenarios (not in noise=0.5–1.5, source=compas)`.
 */
function elsewhere(
  book: ClaimBook,
  w: Where,
  headline: string,
  model: string,
  methods: readonly string[],
): string {
  const scenarios = factorScenarios(book, w, headline).filter((s) =>
    tableRows(book, w, s, model).some(rankedRecord),
  );
  if (scenarios.length === 0) return '';
  const parts = methods.map((m) => {
    const missing = scenarios.filter((s) => {
      const r = tableRows(book, w, s, model).find((x) => x.method === m);
      return !(r && book.overFloor(r)?.holds);
    });
    const held = scenarios.length - missing.length;
    return `${m} in ${held} of ${scenarios.length}${missing.length ? ` (not in ${list(missing.map(shortScenario))})` : ''}`;
  });
  return `In the other scenarios on this model, the same test holds for ${list(parts)}.`;
}

/** The leader (largest excess over its floor) against every other ranked method and baseline, by paired tests. */
function leaderSentence(
  book: ClaimBook,
  w: Where,
  scenario: string,
  model: string,
  leader: SkillRecord,
  rows: readonly SkillRecord[],
): string {
  const others = rows.filter((r) => r !== leader && (rankedRecord(r) || r.baseline === 'baseline'));
  const at = { ...w, scenario, model };
  const wins: string[] = [];
  const ties: string[] = [];
  let closest: Claim | null = null;
  for (const o of others) {
    const c = book.versus(at, leader.method, o.method);
    if (!c) continue;
    if (c.holds) wins.push(`${o.method} (${book.ref(c)})`);
    else {
      ties.push(`${o.method} (Holm ${pText(c.pHolm)})`);
      if (!closest || c.pHolm < closest.pHolm) closest = c;
    }
  }
  const measure = measureWords[headlineMeasure[w.family]];
  const rankedOthers = others.filter(rankedRecord).length;
  const allWon = wins.length === others.length && rankedOthers > 0;
  if (allWon)
    return `${leader.method} was the best ranked method on ${measure} here: its paired test against every other method and baseline holds (${wins.join(', ')}).`;
  const parts: string[] = [];
  if (wins.length) parts.push(`${leader.method} scored higher than ${list(wins)} by paired tests over seeds`);
  if (ties.length) {
    const others = wins.length ? `${ties.length} other plans` : `the other ${ties.length} plans`;
    const tied =
      ties.length > 3 && closest ? `${others} (smallest Holm ${pText(closest.pHolm)})` : list(ties);
    parts.push(
      `no paired test separates ${leader.method} from ${tied}, so the study names no single leader on ${measure} here`,
    );
  }
  return parts.length ? `${capitalise(parts.join('; '))}.` : '';
}

/** The headline scenario's results for one question and family, one paragraph per model. */
export function headlineFindings(book: ClaimBook, w: Where): string {
  const scenario = headlineScenario(book, w);
  if (scenario === null) return 'The study has no scored runs for this question and family.';
  const ms = models(tableRows(book, w, scenario));
  return ms.map((m) => modelParagraph(book, w, scenario, m, ms.length > 1)).join(' ');
}

/**
 * The headline scenario's claims that hold, checked on the replication's fresh seeds: how many hold
 * there too, and which do not.
 */
/** Which of the headline scenario's conclusions (a ranked method over its floors) hold on the replication. */
function replicationOutcome(book: ClaimBook, w: Where): { held: string[]; failed: string[] } | null {
  const scenario = headlineScenario(book, w);
  if (scenario === null) return null;
  const replicated = tableRows(book, w, REPLICATION_LABEL);
  if (replicated.length === 0) return null;
  const held: string[] = [];
  const failed: string[] = [];
  for (const model of models(tableRows(book, w, scenario))) {
    const found = finders(book, tableRows(book, w, scenario, model));
    for (const { row, claim } of found) {
      const again = replicated.find((r) => r.model === model && r.method === row.method);
      const c = again ? book.overFloor(again) : null;
      const name = `${row.method} over its floors (${model}, ${book.cite(claim)})`;
      if (c?.holds) held.push(`${name}: ${book.ref(c)}`);
      else failed.push(`${name}: ${c ? `Holm ${pText(c.pHolm)}` : 'not tested'}`);
    }
  }
  return { held, failed };
}

/** How many of the headline conclusions the replication confirms, over the questions given. */
export function replicationTally(book: ClaimBook, ws: readonly Where[]): { held: number; total: number } {
  let held = 0;
  let total = 0;
  for (const w of ws) {
    const o = replicationOutcome(book, w);
    if (!o) continue;
    held += o.held.length;
    total += o.held.length + o.failed.length;
  }
  return { held, total };
}

export function replicationFindings(book: ClaimBook, w: Where): string {
  const o = replicationOutcome(book, w);
  if (!o) return '';
  const { held, failed } = o;
  const total = held.length + failed.length;
  if (total === 0)
    return 'no conclusion held in the headline scenario, so the replication has none to confirm.';
  return `of the ${total} ${total === 1 ? 'conclusion' : 'conclusions'} above, ${held.length} held on the replication's fresh seeds${
    held.length ? ` (${held.join('; ')})` : ''
  }${failed.length ? `, and ${failed.length} did not (${failed.join('; ')})` : ''}.`;
}

/** Factor scenarios of a question and family: every scenario but the headline, replication and tuning. */
function factorScenarios(book: ClaimBook, w: Where, headline: string): string[] {
  return book
    .scenarios()
    .filter((s) => s !== headline && s !== REPLICATION_LABEL && s !== TUNING_LABEL)
    .filter((s) => tableRows(book, w, s).some(rankedRecord));
}

/**
 * Per scenario (the headline and each factor level), on the factors' model: the ranked methods that
 * exceed their strongest floor, with their excess, interval and claim; the strongest floor's value.
 */
export function factorTable(book: ClaimBook, w: Where, model: string): Table | null {
  const headline = headlineScenario(book, w);
  if (headline === null) return null;
  const scenarios = [headline, ...factorScenarios(book, w, headline)];
  const measure = headlineMeasure[w.family];
  const d = digits(measure);
  const rows = scenarios.map((s) => {
    const rs = tableRows(book, w, s, model);
    const found = finders(book, rs);
    const ranked = rs.filter(rankedRecord);
    const values = ranked.map(floorValue).filter((v): v is number => v !== null);
    const names = [...new Set(ranked.map((r) => r.strongest_floor).filter((n) => n !== null))].map(
      shortFloor,
    );
    const range = values.length
      ? Math.min(...values) === Math.max(...values)
        ? num(values[0]!, d)
        : `${num(Math.min(...values), d)}–${num(Math.max(...values), d)}`
      : '–';
    const floors = [`${names.join(', ')} ${range}`];
    return {
      scenario: s,
      seeds: Math.max(0, ...ranked.map((r) => r.seeds)),
      tested: ranked.length,
      floors: floors.join('; '),
      found: found.map(
        ({ row, claim }) =>
          `${row.method} ${interval(row.excess, row.excess_lo, row.excess_hi, d)} (${book.cite(claim)})`,
      ),
    };
  });
  return {
    name: `rq4-${w.question}-${w.family}`,
    caption: `${w.question} question, ${w.family} methods, ${model}: per scenario, the ranked methods whose ${measureWords[measure]} exceeds their strongest floor by the seed-level test (Holm-adjusted), with the excess and its 95% interval over seeds and the claim id; the strongest floors' values`,
    headers: [
      'scenario',
      'seeds',
      'methods',
      'strongest floor (range over methods)',
      'exceed their floors: excess [95% CI]',
    ],
    align: ['l', 'r', 'r', 'l', 'l'],
    rows: rows.map((r) => [
      r.scenario,
      String(r.seeds),
      String(r.tested),
      r.floors,
      r.found.join('; ') || 'none',
    ]),
    data: rows.map((r) => ({
      scenario: r.scenario,
      seeds: r.seeds,
      methods: r.tested,
      floors: r.floors,
      exceed: r.found.join('; '),
    })),
  };
}

/**
 * Claims of the headline scenario between two methods that reverse elsewhere: the other method
 * exceeds the leader by a test that holds in another scenario.
 */
export function reversals(book: ClaimBook, w: Where, model: string): string {
  const headline = headlineScenario(book, w);
  if (headline === null) return '';
  const rows = tableRows(book, w, headline, model);
  const found = finders(book, rows);
  const out: string[] = [];
  for (const s of factorScenarios(book, w, headline)) {
    for (const { row } of found) {
      for (const o of rows.filter((r) => r !== row && (rankedRecord(r) || r.baseline === 'baseline'))) {
        const here = book.versus({ ...w, scenario: headline, model }, row.method, o.method);
        const there = book.versus({ ...w, scenario: s, model }, o.method, row.method);
        if (here?.holds && there?.holds)
          out.push(`${o.method} over ${row.method} in ${shortScenario(s)} (${book.ref(there)})`);
      }
    }
  }
  return out.length ? `a headline comparison reverses: ${list(out)}.` : '';
}

/**
 * The headline scenario's table for one question and family: every plan on the family's headline
 * measure with its strongest floor, its paired excess and the test (ranked methods first, then the
 * baselines, the floors and the methods outside the ranking), and the claim id of each that holds.
 */
export function resultsTable(book: ClaimBook, w: Where, tuned = false): Table | null {
  // The tuned grid points are scored on the base scenario's first seeds.
  const scenario = tuned ? 'base' : headlineScenario(book, w);
  if (scenario === null) return null;
  if (tuned && tableRows(book, w, scenario, undefined, true).length === 0) return null;
  const measure = headlineMeasure[w.family];
  const d = digits(measure);
  const rank = (r: SkillRecord) =>
    rankedRecord(r) ? 0 : r.baseline === 'baseline' ? 1 : floorRecord(r) ? 2 : 3;
  const rows = tableRows(book, w, scenario, undefined, tuned).sort(
    (a, b) =>
      (a.model < b.model ? -1 : a.model > b.model ? 1 : 0) ||
      rank(a) - rank(b) ||
      (b.excess ?? Number.NEGATIVE_INFINITY) - (a.excess ?? Number.NEGATIVE_INFINITY),
  );
  const role = (r: SkillRecord) =>
    r.unranked ? 'not ranked' : r.baseline === 'baseline' ? 'baseline' : floorRecord(r) ? 'floor' : '';
  const claimOf = (r: SkillRecord) => {
    const c = rankedRecord(r) ? book.overFloor(r) : null;
    return c?.holds ? book.cite(c) : '';
  };
  const many = models(rows).length > 1;
  return {
    name: `results-${tuned ? 'tuned-' : ''}${w.question}-${w.family}`,
    caption: `${tuned ? 'Tuned (each method at the grid point its tuning seeds chose): ' : ''}${w.question} question, ${w.family} methods, ${scenario} scenario, ${measureWords[measure]}: mean [95% CI] over ${Math.max(0, ...rows.map((r) => r.seeds))} seeds, the strongest floor matched to each method's runs${floorLegend(rows)}, the paired excess over it, and the one-sided signed-rank test over seeds, Holm-adjusted over the methods of each model (claim id where it holds)`,
    headers: [
      ...(many ? ['model'] : []),
      'method',
      measureWords[measure],
      'strongest floor',
      'excess',
      'p (Holm)',
      'claim',
    ],
    align: [...(many ? (['l'] as const) : []), 'l', 'r', 'l', 'r', 'r', 'l'],
    rows: rows.map((r) => [
      ...(many ? [r.model] : []),
      role(r) ? `${r.method} (${role(r)})` : r.method,
      interval(r.value, r.value_lo, r.value_hi, d),
      r.strongest_floor ? `${shortFloor(r.strongest_floor)} ${num(floorValue(r), d)}` : '–',
      interval(r.excess, r.excess_lo, r.excess_hi, d),
      r.p_holm === null ? '–' : num(r.p_holm, 3),
      claimOf(r),
    ]),
    data: rows.map((r) => ({
      model: r.model,
      method: r.method,
      role: role(r) || 'method',
      value: r.value,
      value_lo: r.value_lo,
      value_hi: r.value_hi,
      strongest_floor: r.strongest_floor,
      floor_value: floorValue(r),
      excess: r.excess,
      excess_lo: r.excess_lo,
      excess_hi: r.excess_hi,
      p_holm: r.p_holm,
      claim: claimOf(r) || null,
    })),
  };
}

/** The tuned table's verdicts beside the defaults': methods that exceed their floors only when tuned, or only at defaults. */
export function tunedFindings(book: ClaimBook, w: Where): string {
  const measure = headlineMeasure[w.family];
  const tuned = book.skill({ ...w, scenario: 'base', measure }, true).filter(rankedRecord);
  if (tuned.length === 0) return '';
  const plain = book.skill({ ...w, scenario: 'base', measure }).filter(rankedRecord);
  const out: string[] = [];
  for (const model of models(tuned)) {
    const t = finders(
      book,
      tuned.filter((r) => r.model === model),
    );
    const dflt = new Set(
      finders(
        book,
        plain.filter((r) => r.model === model),
      ).map((f) => f.row.method),
    );
    const gained = t.filter((f) => !dflt.has(f.row.method));
    const lost = [...dflt].filter((m) => !t.some((f) => f.row.method === m));
    const where = models(tuned).length > 1 ? `on the ${model}, ` : '';
    const n = t.length;
    out.push(
      `${where}${n === 0 ? 'no ranked method' : `${n} ranked ${n === 1 ? 'method' : 'methods'}`} exceeded their floors at their tuned points (on the first ten seeds)${
        n ? `: ${list(t.map((f) => `${f.row.method} (${book.ref(f.claim)})`))}` : ''
      }${gained.length ? `; only when tuned: ${list(gained.map((f) => f.row.method))}` : ''}${
        lost.length ? `; at the defaults but not tuned: ${list(lost)}` : ''
      }`,
    );
  }
  return out.length ? `${out.join('; ')}.` : '';
}

/**
 * The abstract's result: per question and family, in the headline scenario, the ranked methods that
 * exceed every floor (with their claims), or that none does.
 */
export function abstractFindings(book: ClaimBook, questions: readonly Where[]): string {
  const words: Record<string, string> = {
    data: 'in the labels',
    model: 'in a trained model',
    'model-output': "in a model's output",
  };
  const parts: string[] = [];
  for (const w of questions) {
    const scenario = headlineScenario(book, w);
    if (scenario === null) continue;
    const rows = tableRows(book, w, scenario);
    const names = new Map<string, string[]>();
    for (const { row, claim } of finders(book, rows))
      names.set(row.method, [...(names.get(row.method) ?? []), book.cite(claim)]);
    const ranked = new Set(rows.filter(rankedRecord).map((r) => r.method)).size;
    const found = [...names].map(([m, ids]) => `${m} (${ids.join(', ')})`);
    parts.push(
      `with the bias ${words[w.question] ?? w.question}, ${found.length} of ${ranked} ${w.family} methods exceeded their floors on ${measureWords[headlineMeasure[w.family]]}${found.length ? `: ${list(found)}` : ''}`,
    );
  }
  return parts.length ? `${parts.join('; ')}.` : '';
}
