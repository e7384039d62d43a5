import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALPHA } from '../analyse/skill.js';
import { num, type Table } from '../report/tables.js';

/**
 * The article's claims and the tests behind them. A sentence that says a method exceeds its floors or
 * another method names a claim by its id (`T3`); each claim is one row of a generated table (a skill
 * table's seed-level test against the strongest floor, or a comparisons table's paired test), and the
 * article's claims table lists them with where they come from, so a reader (and a test) can check
 * every one against the tables, and the tables against the per-cell results.
 */

type Field = string | number | boolean | null;

/** One row of a skill table (`tables/skill-*.json`): a method against its floors. */
export interface SkillRecord {
  question: string;
  family: 'individual' | 'subgroup';
  scenario: string;
  model: string;
  measure: string;
  method: string;
  baseline: 'trivial' | 'floor' | 'baseline' | null;
  unranked: string | null;
  seeds: number;
  value: number | null;
  value_lo: number | null;
  value_hi: number | null;
  strongest_floor: string | null;
  excess: number | null;
  excess_lo: number | null;
  excess_hi: number | null;
  p: number | null;
  p_holm: number | null;
  finds: boolean;
  [floor: string]: Field;
}

/** One row of a comparisons table (`tables/comparisons-*.json`): a paired test of two plans. */
export interface ComparisonRecord {
  question: string;
  family: string;
  scenario: string;
  model: string;
  measure: string;
  a: string;
  b: string;
  seeds: number;
  mean_difference: number | null;
  p: number | null;
  p_holm: number | null;
  better: string | null;
}

/**
 * A claim: `a` exceeds `b` on `measure` (kind `floor`: `b` is the strongest floor, the test the skill
 * table's one-sided signed-rank test; kind `method`: `b` another plan, the comparisons table's
 * two-sided paired test), with the table row it is read from.
 */
export interface Claim {
  id: string;
  kind: 'floor' | 'method';
  question: string;
  family: string;
  scenario: string;
  model: string;
  measure: string;
  a: string;
  b: string;
  seeds: number;
  /** Mean paired difference a − b over seeds. */
  difference: number;
  pHolm: number;
  /** The test rejects at `ALPHA` after Holm's adjustment, in a's favour. */
  holds: boolean;
  /** The generated table the row is in. */
  table: string;
}

const readRecords = <T>(dir: string, file: string): T[] =>
  (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { records: T[] }).records;

/** Whether a skill row is a published method in the ranking (not a floor, not unranked). */
export const rankedRecord = (r: SkillRecord): boolean =>
  r.baseline !== 'trivial' && r.baseline !== 'floor' && !r.unranked;

/** Whether a skill row is an output that knows nothing or a floor method. */
export const floorRecord = (r: SkillRecord): boolean => r.baseline === 'trivial' || r.baseline === 'floor';

/** The claims a text cites, numbered in order of first citation. */
export class ClaimBook {
  private readonly skillRows: { table: string; tuned: boolean; row: SkillRecord }[] = [];
  private readonly comparisonRows: { table: string; row: ComparisonRecord }[] = [];
  private readonly cited = new Map<string, Claim>();

  /** The skill and comparisons tables of a study's results (`dir/tables`). */
  constructor(dir: string) {
    const tables = join(dir, 'tables');
    for (const f of existsSync(tables) ? readdirSync(tables).sort() : []) {
      const table = f.replace(/\.json$/, '');
      if (!f.endsWith('.json')) continue;
      // Skill tables at the published defaults, and at the points the tuning seeds chose.
      const tuned = f.startsWith('tuned-');
      if (f.startsWith('skill-') || tuned)
        for (const row of readRecords<SkillRecord>(tables, f)) this.skillRows.push({ table, tuned, row });
      else if (f.startsWith('comparisons-'))
        for (const row of readRecords<ComparisonRecord>(tables, f)) this.comparisonRows.push({ table, row });
    }
  }

  /** Skill rows of one question, family, scenario and measure (every model, every plan), default or tuned. */
  skill(
    where: { question: string; family: string; scenario: string; measure: string },
    tuned = false,
  ): SkillRecord[] {
    return this.skillRows
      .filter((s) => s.tuned === tuned)
      .map((s) => s.row)
      .filter(
        (r) =>
          r.question === where.question &&
          r.family === where.family &&
          r.scenario === where.scenario &&
          r.measure === where.measure,
      );
  }

  /** Every scenario with skill rows, in table order. */
  scenarios(): string[] {
    return [...new Set(this.skillRows.filter((s) => !s.tuned).map((s) => s.row.scenario))];
  }

  /** The claim that a skill row's method exceeds its strongest floor (null without a test). */
  overFloor(r: SkillRecord): Claim | null {
    const at = this.skillRows.find((s) => s.row === r);
    if (!at || r.p_holm === null || r.excess === null || r.strongest_floor === null) return null;
    return {
      id: '',
      kind: 'floor',
      question: r.question,
      family: r.family,
      scenario: r.scenario,
      model: r.model,
      measure: r.measure,
      a: r.method,
      b: r.strongest_floor,
      seeds: r.seeds,
      difference: r.excess,
      pHolm: r.p_holm,
      holds: r.finds === true && r.excess > 0 && r.p_holm < ALPHA,
      table: at.table,
    };
  }

  /** The paired comparison of a over b in one question, family, scenario and model (null without one). */
  versus(
    where: { question: string; family: string; scenario: string; model: string },
    a: string,
    b: string,
  ): Claim | null {
    const at = this.comparisonRows.find(
      ({ row: r }) =>
        r.question === where.question &&
        r.family === where.family &&
        r.scenario === where.scenario &&
        r.model === where.model &&
        ((r.a === a && r.b === b) || (r.a === b && r.b === a)),
    );
    const pHolm = at?.row.p_holm ?? null;
    const difference = at?.row.mean_difference ?? null;
    if (!at || pHolm === null || difference === null) return null;
    const r = at.row;
    const sign = r.a === a ? 1 : -1;
    return {
      id: '',
      kind: 'method',
      question: r.question,
      family: r.family,
      scenario: r.scenario,
      model: r.model,
      measure: r.measure,
      a,
      b,
      seeds: r.seeds,
      difference: sign * difference,
      pHolm,
      holds: r.better === a && pHolm < ALPHA,
      table: at.table,
    };
  }

  /** Cite a claim: its id (the same claim cited twice keeps its first id). */
  cite(c: Claim): string {
    const k = [c.table, c.kind, c.question, c.family, c.scenario, c.model, c.measure, c.a, c.b].join(
      '\u0000',
    );
    const known = this.cited.get(k);
    if (known) return known.id;
    const id = `T${this.cited.size + 1}`;
    this.cited.set(k, { ...c, id });
    return id;
  }

  /** `T3, Holm p = 0.004` (or `p < 0.001`): a claim's id with its adjusted p-value, as the text cites it. */
  ref(c: Claim): string {
    return `${this.cite(c)}, Holm ${pText(c.pHolm)}`;
  }

  /** The cited claims in order. */
  claims(): Claim[] {
    return [...this.cited.values()];
  }

  /** The claims as a table of the article (`tables/claims.*`). */
  table(): Table {
    const cs = this.claims();
    return {
      name: 'claims',
      caption: `The tests the text cites: per claim, what exceeds what on which measure, the seeds (the independent unit), the mean paired difference, the Holm-adjusted p-value, whether it holds at ${ALPHA}, and the generated table whose row it is`,
      headers: [
        'id',
        'claim',
        'question',
        'scenario',
        'model',
        'measure',
        'seeds',
        'mean difference',
        'p (Holm)',
        'holds',
        'table',
      ],
      align: ['l', 'l', 'l', 'l', 'l', 'l', 'r', 'r', 'r', 'l', 'l'],
      rows: cs.map((c) => [
        c.id,
        `${c.a} > ${c.b}${c.kind === 'floor' ? ' (strongest floor)' : ''}`,
        c.question,
        c.scenario,
        c.model,
        c.measure,
        String(c.seeds),
        num(c.difference, 3),
        num(c.pHolm, 4),
        c.holds ? 'yes' : 'no',
        c.table,
      ]),
      data: cs.map((c) => ({
        id: c.id,
        kind: c.kind,
        question: c.question,
        family: c.family,
        scenario: c.scenario,
        model: c.model,
        measure: c.measure,
        a: c.a,
        b: c.b,
        seeds: c.seeds,
        difference: c.difference,
        p_holm: c.pHolm,
        holds: c.holds,
        table: c.table,
      })),
    };
  }
}

/** An adjusted p-value as printed: `p = 0.004`, `p < 0.001`. */
export function pText(p: number): string {
  // Three decimals near the level, so that a p that holds never prints as 0.05.
  return p < 0.001 ? 'p < 0.001' : `p = ${p < 0.1 ? p.toFixed(3) : p.toFixed(2)}`;
}

/** Words that claim an order; a sentence that uses one must cite a claim that holds. */
export const CLAIM_WORDS = /\b(best|better|above|beats?|outperform(s|ed)?|superior|wins?)\b/i;

/** Claim ids cited in a text. */
export const citedIds = (sentence: string): string[] =>
  [...sentence.matchAll(/\bT(\d+)\b/g)].map((m) => `T${m[1]}`);

/**
 * The sentences of an article (Markdown) that use a claim word, each with the claim ids it cites.
 * Headings, table and figure lines, and the references are not sentences of the text.
 */
export function claimSentences(markdown: string): { sentence: string; ids: string[] }[] {
  const body = markdown.split(/^## References/m)[0]!;
  const prose = body
    .split('\n')
    .filter((l) => !/^(#|\||!\[|\*\*Table|_Figure)/.test(l.trim()))
    .join('\n');
  return prose
    .split(/(?<=[.!?])\s+(?=[A-Z*_(])|\n\s*\n|\n- /)
    .map((s) => s.trim())
    .filter((s) => CLAIM_WORDS.test(s))
    .map((sentence) => ({ sentence, ids: citedIds(sentence) }));
}
