import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { studySummary, writeReport } from '../src/report/report.js';
import { csv, escapeTex, LONG_ROWS, latex, type Table, texPlacement } from '../src/report/tables.js';
import { ResultStore, unionLength } from '../src/run/store.js';
import { cleanTempDirs, tempDir, tinyStudy } from './helpers.js';
import { sampleRecords } from './records.js';

afterEach(cleanTempDirs);

describe('report', () => {
  it('builds report.md, LaTeX tables and SVG figures from a small stored study', async () => {
    const outDir = tempDir();
    const records = sampleRecords();
    const store = await ResultStore.open(join(outDir, 'cells.duckdb'));
    for (const r of records) await store.put(r);
    const stored = await store.records();
    store.close();
    expect(stored).toHaveLength(records.length);

    const path = await writeReport(tinyStudy(), stored, outDir);
    const md = readFileSync(path, 'utf8');
    expect(md).toContain('Cells: 9 stored, 8 done, 1 failed.');
    // m_1 coverage over seeds: 0.6, 0.6, 0 -> mean 0.40; its chance level: 0.3, 0, 0 -> 0.10.
    // Alarm scores 0.3, 0.3, 0.1 against nulls 0.2, 0.05, 0.05: AUC = (1 + 1 + 2/3) / 3 = 0.89;
    // Three own null runs cannot control a 5% false-positive rate (that needs 40): no TPR is shown.
    expect(md).toMatch(/\| bias \| lr \| m_1 \| 3 \| 0\.40 \[[^\]]+\] \(0\.10\) \|/);
    expect(md).toMatch(/\| m_1 \| 3 \|[^\n]*\| 0\.89 \[[^\]]+\] \| – \| 3 \|/);
    // m_2 has no run without bias: no chance level, no detection.
    expect(md).toMatch(/\| bias \| lr \| m_2 \| 2 \| 0\.00 \[0\.00, 0\.00\] \(–\) \|/);
    expect(md).toContain('| m_2 | bias / seed 3 / model / lr | overrun: still running after 1 s |');
    expect(md).toContain('audited the identical model');
    for (const table of ['model-individual', 'efficiency', 'agreement', 'failed']) {
      const tex = readFileSync(join(outDir, 'tables', `${table}.tex`), 'utf8');
      expect(tex).toContain('\\begin{tabular}');
      expect(tex).toContain('\\bottomrule');
    }
    expect(readFileSync(join(outDir, 'tables', 'model-individual.tex'), 'utf8')).toContain('m\\_1');
    for (const fig of ['model-individual', 'agreement']) {
      const svg = readFileSync(join(outDir, 'figures', `${fig}.svg`), 'utf8');
      expect(svg.startsWith('<svg')).toBe(true);
      expect(md).toContain(`figures/${fig}.svg`);
    }
    // Three blocks cannot reach p < 0.05 in an exact paired test: no comparison is tested.
    expect(md).toContain('no comparison is tested');
    expect(existsSync(join(outDir, 'figures', 'real.svg'))).toBe(false);
    // Every table also as CSV and JSON with its unformatted numbers; every figure's spec beside it.
    const csvText = readFileSync(join(outDir, 'tables', 'model-individual.csv'), 'utf8');
    expect(csvText.split('\r\n')[0]).toContain('coverage,coverage_lo,coverage_hi,coverage_n,chance_coverage');
    const tableJson = JSON.parse(readFileSync(join(outDir, 'tables', 'model-individual.json'), 'utf8'));
    const m1 = tableJson.records.find((r: { method: string }) => r.method === 'm_1');
    expect(m1.coverage).toBeCloseTo(0.4, 12);
    expect(m1.chance_coverage).toBeCloseTo(0.1, 12);
    expect(m1.auc).toBeCloseTo(8 / 9, 12);
    const spec = JSON.parse(readFileSync(join(outDir, 'figures', 'model-individual.vl.json'), 'utf8'));
    expect(spec.data.values.map((v: { method: string }) => v.method).sort()).toEqual(['m_1', 'm_2']);
    const html = readFileSync(join(outDir, 'report.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/);
  }, 30_000);
});

describe('tables', () => {
  const table = (rows: number, cols: number, cell = 'x'): Table => ({
    name: 't',
    caption: 'c',
    headers: Array.from({ length: cols }, (_, i) => `h${i}`),
    align: Array.from({ length: cols }, () => 'r' as const),
    rows: Array.from({ length: rows }, () => Array.from({ length: cols }, () => cell)),
  });

  it('escapes text and symbols for pdflatex', () => {
    expect(escapeTex('mean A − B of σ(η + β) ≥ 0.5 · 100% & a_b')).toBe(
      'mean A $-$ B of $\\sigma$($\\eta$ + $\\beta$) $\\geq$ 0.5 $\\cdot$ 100\\% \\& a\\_b',
    );
    expect(escapeTex('café → x\\y')).toBe('cafe $\\to$ x\\textbackslash{}y');
    // Typed hyphens stay hyphens: TeX would print `--` as an en dash.
    expect(escapeTex('pnpm bench --study article; a---b; 1 - 2')).toBe(
      'pnpm bench -{}-study article; a-{}-{}-b; 1 - 2',
    );
  });

  it('sizes a table for a two-column page: column, page (scaled when wider), long', () => {
    expect(texPlacement(table(5, 3))).toBe('column');
    expect(latex(table(5, 3))).toContain('\\begin{table}[!htbp]');
    expect(texPlacement(table(5, 6, '0.41 [0.30, 0.52]'))).toBe('page');
    expect(latex(table(5, 6, '0.41 [0.30, 0.52]'))).toContain('\\begin{table*}[!t]');
    expect(latex(table(5, 6, '0.41 [0.30, 0.52]'))).not.toContain('resizebox');
    expect(latex(table(5, 14, '0.41 [0.30, 0.52] (0.05)'))).toContain('\\resizebox{\\textwidth}');
    expect(texPlacement(table(LONG_ROWS + 1, 3))).toBe('long');
    expect(latex(table(LONG_ROWS + 1, 3))).toContain('\\begin{longtable}');
  });

  it('writes RFC 4180 CSV', () => {
    const t: Table = {
      name: 'c',
      caption: '',
      headers: ['a', 'b'],
      align: ['l', 'r'],
      rows: [],
      data: [
        { a: 'x, "quoted"', b: 1.5 },
        { a: 'y', b: null },
      ],
    };
    expect(csv(t)).toBe('a,b\r\n"x, ""quoted""",1.5\r\ny,\r\n');
  });
});

describe('where the run’s time went', () => {
  it('sums method and preparation seconds per plan and measures the stored span', async () => {
    const outDir = tempDir();
    const records = sampleRecords().map((r, i) => ({
      ...r,
      wallSeconds: r.plan.label === 'm_1' ? 2 : 0.5,
      costs: { prepareSeconds: i === 0 ? 3 : 0, scoreSeconds: 0 },
    }));
    const store = await ResultStore.open(join(outDir, 'cells.duckdb'));
    const before = Date.now() / 1000;
    for (const r of records) await store.put(r);
    const after = Date.now() / 1000;
    const all = new Set(records.map((r) => r.key));
    const elapsed = (await store.elapsedSeconds(all))!;
    // The first cell started its preparation and wall seconds before it was stored (3 + 0.5 or 2 s);
    // the cells stored after it overlap it and each other, so the union is that plus the storing.
    const first = records[0]!.wallSeconds + 3;
    expect(elapsed).toBeGreaterThanOrEqual(first - 0.01);
    expect(elapsed).toBeLessThanOrEqual(after - before + first + 0.01);
    expect(await store.elapsedSeconds(new Set(['no such key']))).toBeNull();
    store.close();

    const summary = studySummary(tinyStudy(), records, { elapsedSeconds: elapsed });
    const done = records.filter((r) => r.status === 'done');
    const count = (label: string) => done.filter((r) => r.plan.label === label).length;
    // Done cells only: m_1's at 2 s each, m_2's at 0.5 s; the largest first.
    expect(summary.planSeconds).toEqual([
      { plan: 'm_1', seconds: 2 * count('m_1') },
      { plan: 'm_2', seconds: 0.5 * count('m_2') },
    ]);
    expect(summary.preparationSeconds).toBe(3);
    expect(summary.elapsedSeconds).toBe(elapsed);
  });
});

describe('elapsed time of a resumed run', () => {
  it("counts the union of the cells' intervals, not the pause between two runs", () => {
    // Two workers overlapping in the first run (0-10 s), then a pause, and a second run (100-104 s).
    expect(
      unionLength([
        [0, 6],
        [1, 10],
        [100, 103],
        [102, 104],
      ]),
    ).toBe(14);
    // Nested and touching intervals, in any order.
    expect(
      unionLength([
        [5, 6],
        [0, 10],
        [10, 12],
      ]),
    ).toBe(12);
    expect(unionLength([])).toBe(0);
  });
});
