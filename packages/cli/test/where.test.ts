import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OptionsError } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { audit, compileWhere, loadAuditData, parseWhere, UsageError } from '../src/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'fb-cli-where-'));
const quietIo = { stdout: () => {}, stderr: () => {}, isTTY: false };

const HEADER = ['a', 'b', 'city', 'hours per week'];
/** Does `expression` keep the row with these cells (in HEADER order)? */
const keeps = (expression: string, a: string, b = '0', city = '', hours = '0') =>
  compileWhere(expression, HEADER)([a, b, city, hours]);

/** The error `f` throws. */
function thrown(f: () => unknown): UsageError {
  try {
    f();
  } catch (e) {
    return e as UsageError;
  }
  throw new Error('expected an error');
}

describe('--where: the parser', () => {
  it('binds && tighter than ||, and parentheses override it', () => {
    // a = 1 || (a = 2 && b = 3): true for a = 1 whatever b is; left to right it would need b = 3.
    const e = 'a = 1 || a = 2 && b = 3';
    expect(keeps(e, '1', '0')).toBe(true);
    expect(keeps(e, '2', '0')).toBe(false);
    expect(keeps(e, '2', '3')).toBe(true);
    expect(keeps(e, '3', '3')).toBe(false);
    const grouped = '(a = 1 || a = 2) && b = 3';
    expect(keeps(grouped, '1', '0')).toBe(false);
    expect(keeps(grouped, '1', '3')).toBe(true);
    // && first on the left of || as well: (a = 2 && b = 3) || a = 1.
    expect(keeps('a = 2 && b = 3 || a = 1', '1', '0')).toBe(true);
    expect(parseWhere('a = 1 || a = 2 && b = 3')).toMatchObject({
      kind: 'or',
      left: { kind: 'compare', column: 'a', op: '==', value: 1 },
      right: { kind: 'and' },
    });
  });

  it('negates a comparison or a group; ! binds tighter than && and ||', () => {
    expect(keeps('!a = 1', '1')).toBe(false);
    expect(keeps('!a = 1', '2')).toBe(true);
    expect(keeps('!!a = 1', '1')).toBe(true);
    // !a = 1 && b = 3 is (!(a = 1)) && b = 3.
    expect(keeps('!a = 1 && b = 3', '2', '3')).toBe(true);
    expect(keeps('!a = 1 && b = 3', '2', '0')).toBe(false);
    expect(keeps('!(a = 1 && b = 3)', '1', '3')).toBe(false);
    expect(keeps('!(a = 1 && b = 3)', '1', '0')).toBe(true);
  });

  it('compares with a number numerically and with a string as text', () => {
    expect(keeps('a = 1', '1.0')).toBe(true);
    expect(keeps('a == 1', '01')).toBe(true);
    expect(keeps('a = "1"', '1.0')).toBe(false);
    expect(keeps('a = "1.0"', '1.0')).toBe(true);
    expect(keeps('a > 9', '10')).toBe(true); // as text "10" < "9"
    expect(keeps('a >= -30 && a <= 30', '-30')).toBe(true);
    expect(keeps('a >= -30 && a <= 30', '31')).toBe(false);
    expect(keeps('a < 1.5e1', '14.9')).toBe(true);
    // A cell that is no number makes every numeric comparison false, != included (R's NA).
    for (const op of ['=', '!=', '<', '<=', '>', '>=']) {
      expect(keeps(`a ${op} 0`, '')).toBe(false);
      expect(keeps(`a ${op} 0`, 'NA')).toBe(false);
      expect(keeps(`a ${op} 16`, '0x10')).toBe(false);
    }
    expect(keeps('!(a = 0)', '')).toBe(true);
    expect(keeps('a = ""', '')).toBe(true);
    expect(keeps('a != "N/A"', 'N/A')).toBe(false);
    // A literal on the left is read as its mirror: 30 >= a is a <= 30.
    expect(keeps('30 >= a', '30')).toBe(true);
    expect(keeps('30 > a', '30')).toBe(false);
  });

  it('reads quoted strings with spaces and escaped quotes, and column names in backquotes', () => {
    expect(keeps('city = "New York"', '0', '0', 'New York')).toBe(true);
    expect(keeps("city = 'New York'", '0', '0', ' New York ')).toBe(true); // cells are trimmed
    expect(keeps('city != "New York"', '0', '0', 'New  York')).toBe(true);
    expect(keeps('city = "say \\"hi\\" && go"', '0', '0', 'say "hi" && go')).toBe(true);
    expect(keeps("city = 'it\\'s'", '0', '0', "it's")).toBe(true);
    expect(keeps('`hours per week` > 40', '0', '0', '', '41')).toBe(true);
    expect(keeps('`hours per week` > 40', '0', '0', '', '40')).toBe(false);
  });

  it.each([
    ['a >=', 5, /expected a column, a number or a quoted string, found the end/],
    ['a = 1 &&', 9, /found the end/],
    ['(a = 1', 7, /expected "\)" to close the "\(" at character 1/],
    ['a = 1)', 6, /expected "&&", "\|\|" or the end, found "\)"/],
    ['a 1', 3, /expected a comparison .* after "a", found "1"/],
    ['a = "x', 5, /string opened with " is not closed/],
    ['a < "x"', 3, /"<" orders numbers/],
    ['a = b', 5, /not with another column/],
    ['1 = 2', 1, /needs a column, found two values/],
    ['', 1, /empty expression/],
    ['a = 1 & b = 2', 7, /unexpected "&"/],
    ['a = --3', 5, /"--3" is not a number/],
    ['a = 1 || || b = 2', 10, /found "\|\|"/],
    ['a = 3x', 5, /"3x" is not a number/],
  ])(
    'a malformed expression %j is an OPTIONS_INVALID error naming character %d',
    (expression, at, message) => {
      const e = thrown(() => parseWhere(expression));
      expect(e).toBeInstanceOf(UsageError);
      expect(e).toBeInstanceOf(OptionsError);
      expect(e.code).toBe('OPTIONS_INVALID');
      expect(e.message).toMatch(message);
      expect(e.message).toContain(`at character ${at}`);
      expect(e.details['position']).toBe(at);
    },
  );

  it('names an unknown column, its position and the columns there are', () => {
    const e = thrown(() => compileWhere('a = 1 && zz = 2', HEADER));
    expect(e.code).toBe('OPTIONS_INVALID');
    expect(e.message).toContain('unknown column "zz" at character 10');
    expect(e.message).toContain('columns: a, b, city, hours per week');
    expect(e.details['column']).toBe('zz');
  });
});

describe('--where: on the data', () => {
  const file = path.join(dir, 'people.csv');
  writeFileSync(
    file,
    [
      'sex,city,age,y',
      'F,"New York, NY",30,yes',
      'M,"New York, NY",40,no',
      'F,Boston,25,no',
      'M,Boston,52,yes',
      'F,"Say ""hi""",61,yes',
      'M,Austin,,no',
    ].join('\n'),
  );
  const base = { file, outcome: 'y', favorable: 'yes', protected: ['sex'], columns: ['city', 'age'] };

  it('keeps the rows the filter keeps, before anything else, and says so', () => {
    const data = loadAuditData({ ...base, where: 'city != "Boston" && age >= 30' });
    expect(data.rowsRead).toBe(6);
    // Kept: the two New York rows and "Say ""hi""" (61); Austin's age is missing, so age >= 30 is false.
    expect(data.filter).toEqual({ where: 'city != "Boston" && age >= 30', rowsKept: 3 });
    expect(data.dataset.n).toBe(3);
    const city = data.dataset.schema.attributes.find((a) => a.name === 'city')!;
    expect([...city.categories!].sort()).toEqual(['New York, NY', 'Say "hi"']);
    expect(data.notes).toContain('--where city != "Boston" && age >= 30: 3 of 6 rows kept');
    const all = loadAuditData(base);
    expect(all.filter).toBeNull();
    expect(all.rowsRead).toBe(6);
  });

  it('a filter that keeps no row is an OPTIONS_INVALID error naming the filter', () => {
    const e = thrown(() => loadAuditData({ ...base, where: 'age > 100' }));
    expect(e).toBeInstanceOf(UsageError);
    expect(e.code).toBe('OPTIONS_INVALID');
    expect(e.message).toContain('--where "age > 100" keeps no row of the 6 rows');
  });
});

/*
 * Nine rows, positive label "yes", decisions recorded in `pred`.
 * Group a (5 rows): (y, pred) = (yes, yes), (yes, no), (no, yes), (no, no), (no, no)
 *   -> FPR 1/3, FNR 1/2, selection rate 2/5.
 * Group b (4 rows): (yes, yes), (no, yes), (no, yes), (no, no)
 *   -> FPR 2/3, FNR 0, selection rate 3/4.
 * Reference a (the largest, the default): b's FPR disparity (2/3) / (1/3) = 2, selection 0.75 / 0.4 = 1.875.
 * Reference b: a's FPR disparity (1/3) / (2/3) = 0.5, selection 0.4 / 0.75 = 8/15, FNR 0.5 / 0 undefined;
 * `fpr_ref_group_value` names the reference group (as Aequitas does).
 */
describe('--reference', () => {
  const file = path.join(dir, 'groups.csv');
  const rows = [
    ['a', 'yes', 'yes'],
    ['a', 'yes', 'no'],
    ['a', 'no', 'yes'],
    ['a', 'no', 'no'],
    ['a', 'no', 'no'],
    ['b', 'yes', 'yes'],
    ['b', 'no', 'yes'],
    ['b', 'no', 'yes'],
    ['b', 'no', 'no'],
  ];
  writeFileSync(file, `g,x,y,pred\n${rows.map(([g, y, p], i) => `${g},${i % 3},${y},${p}`).join('\n')}\n`);
  const args = (out: string, ...more: string[]) => [
    file,
    '--protected',
    'g',
    '--outcome',
    'y=yes',
    '--predictions',
    'pred',
    '--methods',
    'sliceline',
    '--time',
    '1',
    '--out',
    path.join(dir, out),
    ...more,
  ];
  type Row = Record<string, number | string | null>;
  const table = (out: string) => {
    const json = JSON.parse(readFileSync(path.join(dir, out, 'report.json'), 'utf8'));
    const byValue = (v: string) =>
      json.groupMetrics.aequitas.find((r: Row) => r['attribute_value'] === v) as Row;
    return { a: byValue('a'), b: byValue('b'), references: json.groupMetrics.references };
  };

  it('is the largest group unless given, and the given one changes every disparity', async () => {
    expect(await audit(args('default'), quietIo, new AbortController().signal)).toBe(0);
    const d = table('default');
    expect(d.references).toEqual([{ attribute: 'g', value: 'a', given: false }]);
    expect(d.a['fpr']).toBeCloseTo(1 / 3, 12);
    expect(d.b['fpr']).toBeCloseTo(2 / 3, 12);
    expect(d.b['fpr_disparity']).toBeCloseTo(2, 12);
    expect(d.b['pprev_disparity']).toBeCloseTo(1.875, 12);
    expect(d.a['fpr_disparity']).toBeCloseTo(1, 12);

    expect(await audit(args('ref-b', '--reference', 'g=b'), quietIo, new AbortController().signal)).toBe(0);
    const r = table('ref-b');
    expect(r.references).toEqual([{ attribute: 'g', value: 'b', given: true }]);
    expect(r.a['fpr_disparity']).toBeCloseTo(0.5, 12);
    expect(r.a['pprev_disparity']).toBeCloseTo(8 / 15, 12);
    expect(r.a['fpr_ref_group_value']).toBe('b');
    expect(r.a['fnr_disparity']).toBeNull();
    expect(r.b['fpr_disparity']).toBeCloseTo(1, 12);
    const html = readFileSync(path.join(dir, 'ref-b', 'report.html'), 'utf8');
    expect(html).toContain('g = <b>b</b> (given)');
  });

  it('an unknown attribute or value is an OPTIONS_INVALID error naming what exists', async () => {
    const run = (out: string, ...more: string[]) =>
      audit(args(out, ...more), quietIo, new AbortController().signal);
    await expect(run('bad-value', '--reference', 'g=c')).rejects.toThrow(
      /--reference g=c: "c" is not a value of "g" in the audited rows \(values: a, b\)/,
    );
    await expect(run('bad-attribute', '--reference', 'sex=F')).rejects.toThrow(
      /--reference: "sex" is not a protected attribute \(protected: g\)/,
    );
    await expect(run('twice', '--reference', 'g=a', '--reference', 'g=b')).rejects.toThrow(/given twice/);
    await expect(run('no-value', '--reference', 'g')).rejects.toMatchObject({ code: 'OPTIONS_INVALID' });
  });

  it('states the filter and the rows kept of the rows read in the report', async () => {
    expect(await audit(args('filtered', '--where', 'x != 2'), quietIo, new AbortController().signal)).toBe(0);
    const json = JSON.parse(readFileSync(path.join(dir, 'filtered', 'report.json'), 'utf8'));
    expect(json.data).toMatchObject({
      rowsRead: 9,
      filter: { where: 'x != 2', rowsKept: 6 },
      rowsAudited: 6,
    });
    const html = readFileSync(path.join(dir, 'filtered', 'report.html'), 'utf8');
    expect(html).toContain(
      '9 rows read, 6 of them kept by the filter <code>--where x != 2</code>, 6 audited',
    );
  });
});

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.FB_DATA_DIR ?? path.resolve(here, '../../../../shared/datasets');
const compas = ['compas-scores-two-years.csv', 'compas-scores-two-years.csv.gz']
  .map((f) => path.join(dataDir, 'compas', f))
  .find((f) => existsSync(f));
if (!compas) {
  console.warn(
    `where.test: COMPAS skipped, no compas/compas-scores-two-years.csv[.gz] in ${dataDir} (set FB_DATA_DIR)`,
  );
}

describe.skipIf(!compas)('--where on ProPublica COMPAS', () => {
  it("ProPublica's filter keeps 6,172 of the 7,214 rows", () => {
    const data = loadAuditData({
      file: compas!,
      outcome: 'two_year_recid',
      favorable: '0',
      protected: ['race'],
      columns: ['sex', 'age', 'race', 'priors_count', 'c_charge_degree'],
      where:
        'days_b_screening_arrest >= -30 && days_b_screening_arrest <= 30 && is_recid != -1 && c_charge_degree != "O" && score_text != "N/A"',
    });
    expect(data.rowsRead).toBe(7214);
    expect(data.filter!.rowsKept).toBe(6172);
    expect(data.dataset.n).toBe(6172);
  });
});
