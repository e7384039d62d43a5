import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { figureScale, svgSize } from '../src/article/build.js';
import { type Claim, ClaimBook, claimSentences } from '../src/article/claims.js';
import { articleFacts } from '../src/article/facts.js';
import { headlineFindings } from '../src/article/findings.js';
import { staleTables } from '../src/report/recompute.js';
import { cleanTempDirs, tempDir } from './helpers.js';

afterEach(cleanTempDirs);

const skillRow = (method: string, over: Record<string, unknown> = {}) => ({
  question: 'model-output',
  family: 'subgroup',
  scenario: 'base',
  model: 'σ(η + β)',
  measure: 'localisation',
  method,
  baseline: null,
  unranked: null,
  seeds: 10,
  value: 0.5,
  value_lo: 0.4,
  value_hi: 0.6,
  floor_random_conjunctions: 0.1,
  strongest_floor: 'random conjunctions',
  excess: 0.4,
  excess_lo: 0.3,
  excess_hi: 0.5,
  p: 0.001,
  p_holm: 0.003,
  finds: true,
  ...over,
});

const comparison = (a: string, b: string, pHolm: number, better: string | null, diff: number) => ({
  question: 'model-output',
  family: 'subgroup',
  scenario: 'base',
  model: 'σ(η + β)',
  measure: 'localisation',
  a,
  b,
  seeds: 10,
  mean_difference: diff,
  p: pHolm / 3,
  p_holm: pHolm,
  better,
});

/** A results folder with one skill table and one comparisons table. */
function results(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'tables'));
  const write = (name: string, records: unknown[]) =>
    writeFileSync(join(dir, 'tables', `${name}.json`), JSON.stringify({ records }));
  write('skill-model-output-subgroup-localisation', [
    skillRow('A'),
    skillRow('B', { value: 0.2, excess: 0.1, p_holm: 0.2, finds: false }),
    skillRow('C', { value: 0.15, excess: 0.05, p_holm: 0.03, finds: true }),
    skillRow('random subgroups', { baseline: 'trivial', value: 0.1, excess: 0, p_holm: 1, finds: false }),
  ]);
  write('comparisons-model-output-subgroup-base', [
    comparison('A', 'B', 0.01, 'A', 0.3),
    comparison('C', 'A', 0.02, 'A', -0.35),
    comparison('B', 'C', 0.5, null, 0.05),
    comparison('A', 'random subgroups', 0.01, 'A', 0.4),
  ]);
  return dir;
}

const where = { question: 'model-output', family: 'subgroup' as const };

describe('the claims of the article', () => {
  it('hold only where the seed-level test holds, in the direction claimed', () => {
    const book = new ClaimBook(results());
    const rows = book.skill({ ...where, scenario: 'base', measure: 'localisation' });
    const over = (m: string) => book.overFloor(rows.find((r) => r.method === m)!)!;
    expect(over('A').holds).toBe(true);
    expect(over('B').holds).toBe(false);
    const at = { ...where, scenario: 'base', model: 'σ(η + β)' };
    // Stored as C − A = −0.35, better A: A over C holds, C over A does not.
    expect(book.versus(at, 'A', 'C')).toMatchObject({ holds: true, difference: 0.35, pHolm: 0.02 });
    expect(book.versus(at, 'C', 'A')).toMatchObject({ holds: false, difference: -0.35 });
    expect(book.versus(at, 'B', 'C')!.holds).toBe(false);
    expect(book.versus(at, 'A', 'nobody')).toBeNull();
  });

  it('are numbered in order of first citation, once each', () => {
    const book = new ClaimBook(results());
    const rows = book.skill({ ...where, scenario: 'base', measure: 'localisation' });
    const a = book.overFloor(rows[0]!)!;
    const c = book.overFloor(rows[2]!)!;
    expect([book.cite(c), book.cite(a), book.cite(c)]).toEqual(['T1', 'T2', 'T1']);
    expect(book.claims().map((x) => x.a)).toEqual(['C', 'A']);
  });

  it('name in the text the methods that exceed their floors and the tests that separate the leader', () => {
    const book = new ClaimBook(results());
    const text = headlineFindings(book, where);
    // A and C exceed their floors (A first, by excess); B does not; A beats B and C by tests that hold.
    expect(text).toMatch(/^2 of the 3 ranked methods exceeded their strongest floor/);
    expect(text).toContain(
      'A (0.50 [0.40, 0.60]; excess 0.40 [0.30, 0.50] over the random conjunctions at 0.10; T1, Holm p = 0.003)',
    );
    expect(text).toContain('separates the others from their floors: B.');
    expect(text).toMatch(
      /A was the best ranked method on localisation here: its paired test against every other method and baseline holds \(B \(T\d+, Holm p = 0\.010\), C \(T\d+, Holm p = 0\.020\)\)/,
    );
    for (const { ids } of claimSentences(text)) expect(ids.length).toBeGreaterThan(0);
  });

  it('find the sentences that rank without citing a test', () => {
    const md = [
      '# Title',
      '',
      'A was better than B (T1, Holm p = 0.01). C was best here. Nothing ranks here.',
      '',
      '| table | above |',
      '## References',
      '1. A paper on the best method.',
    ].join('\n');
    expect(claimSentences(md)).toEqual([
      { sentence: 'A was better than B (T1, Holm p = 0.01).', ids: ['T1'] },
      { sentence: 'C was best here.', ids: [] },
    ]);
  });
});

const docs = join(import.meta.dirname, '../../../docs/article');

describe('the committed article', () => {
  it('cites, in every sentence that says best, better or above, a test that holds in its tables', () => {
    const md = readFileSync(join(docs, 'article.md'), 'utf8');
    const claims = new Map(
      (
        JSON.parse(readFileSync(join(docs, 'tables', 'claims.json'), 'utf8')) as { records: Claim[] }
      ).records.map((c) => [(c as unknown as { id: string }).id, c as unknown as Record<string, unknown>]),
    );
    const sentences = claimSentences(md);
    for (const { sentence, ids } of sentences) {
      expect(ids, sentence).not.toEqual([]);
      for (const id of ids) {
        const c = claims.get(id);
        expect(c, `${id} in: ${sentence}`).toBeDefined();
        expect(c!['holds'], `${id} in: ${sentence}`).toBe(true);
        // The claim is the row of its table: the same test, holding in the claimed direction.
        const rows = (
          JSON.parse(readFileSync(join(docs, 'tables', `${String(c!['table'])}.json`), 'utf8')) as {
            records: Record<string, unknown>[];
          }
        ).records;
        const same = (r: Record<string, unknown>) =>
          r['question'] === c!['question'] && r['scenario'] === c!['scenario'] && r['model'] === c!['model'];
        if (c!['kind'] === 'floor') {
          const row = rows.find((r) => same(r) && r['method'] === c!['a'] && r['measure'] === c!['measure']);
          expect(row, id).toMatchObject({ finds: true, p_holm: c!['p_holm'], strongest_floor: c!['b'] });
          expect(row!['p_holm'] as number).toBeLessThan(0.05);
        } else {
          const row = rows.find(
            (r) =>
              same(r) &&
              ((r['a'] === c!['a'] && r['b'] === c!['b']) || (r['a'] === c!['b'] && r['b'] === c!['a'])),
          );
          expect(row, id).toMatchObject({ better: c!['a'], p_holm: c!['p_holm'] });
          expect(row!['p_holm'] as number).toBeLessThan(0.05);
        }
      }
    }
  });

  it('prints every figure it shows with text of at least 8 pt', () => {
    const template = readFileSync(join(docs, 'template.md'), 'utf8');
    const shown = [...template.matchAll(/\{\{figure:([a-z0-9-]+)/g)].map((m) => m[1]!);
    const checked: string[] = [];
    for (const name of shown) {
      const path = join(docs, 'figures', `${name}.svg`);
      if (!existsSync(path)) continue;
      const svg = readFileSync(path, 'utf8');
      const size = svgSize(svg);
      expect(size, name).toBeDefined();
      const sizes = [...svg.matchAll(/font-size="([\d.]+)px"/g)].map((m) => Number(m[1]));
      expect(sizes.length, name).toBeGreaterThan(0);
      expect(Math.min(...sizes) * figureScale(size!), name).toBeGreaterThanOrEqual(8);
      checked.push(name);
    }
    expect(checked.length).toBeGreaterThan(0);
  });

  it('recomputes every table, its own included, from the committed per-cell results', async () => {
    expect(existsSync(join(docs, 'cells.jsonl.gz'))).toBe(true);
    expect(await staleTables(docs, (dir) => articleFacts(dir).tables)).toEqual([]);
  }, 600_000);
});
