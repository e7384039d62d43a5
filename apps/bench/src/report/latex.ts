import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The LaTeX packages the generated tables use. */
export const TABLE_PACKAGES = ['booktabs', 'longtable', 'graphicx', 'caption'];

/** Float placement that keeps many tables and figures near their text in a two-column paper. */
export const FLOAT_SETTINGS = [
  '\\renewcommand{\\topfraction}{0.9}',
  '\\renewcommand{\\dbltopfraction}{0.9}',
  '\\renewcommand{\\bottomfraction}{0.8}',
  '\\renewcommand{\\textfraction}{0.05}',
  '\\renewcommand{\\floatpagefraction}{0.85}',
  '\\renewcommand{\\dblfloatpagefraction}{0.85}',
  '\\setcounter{topnumber}{4}',
  '\\setcounter{dbltopnumber}{4}',
  '\\setcounter{totalnumber}{8}',
];

/** Floats set before the pages are flushed (LaTeX's queue of unplaced floats holds 18). */
const FLOATS_PER_FLUSH = 12;

/** The preamble of a two-column paper that sets the generated tables (and `extraPackages`). */
export function paperPreamble(extraPackages: readonly string[] = []): string[] {
  return [
    '\\documentclass[twocolumn,10pt]{article}',
    '\\usepackage[T1]{fontenc}',
    '\\usepackage{lmodern}',
    '\\usepackage[margin=1.8cm]{geometry}',
    ...[...TABLE_PACKAGES, ...extraPackages].map((p) => `\\usepackage{${p}}`),
    ...FLOAT_SETTINGS,
  ];
}

/**
 * A two-column document that sets every table of a report's tables/ folder: tables that fit a page in
 * the body, long tables (which LaTeX sets only in one column) in a one-column appendix.
 */
export function tablesDocument(tablesDir: string, title: string): string {
  const files = readdirSync(tablesDir)
    .filter((f) => f.endsWith('.tex'))
    .sort();
  const isLong = (f: string) => readFileSync(join(tablesDir, f), 'utf8').includes('\\begin{longtable}');
  const input = (f: string) => `\\input{${join(tablesDir, f).replace(/\\/g, '/')}}`;
  return [
    ...paperPreamble(),
    `\\title{${title}}`,
    '\\date{}',
    '\\begin{document}',
    '\\maketitle',
    // A page break every few tables: LaTeX holds at most 18 floats waiting for a place.
    ...files
      .filter((f) => !isLong(f))
      .flatMap((f, i) => (i > 0 && i % FLOATS_PER_FLUSH === 0 ? ['\\clearpage', input(f)] : [input(f)])),
    '\\clearpage',
    '\\onecolumn',
    ...files.filter(isLong).map(input),
    '\\end{document}',
    '',
  ].join('\n');
}

export interface CompileOutcome {
  pdf: string;
  /** `Overfull \hbox` amounts in points, from the log. */
  overfull: number[];
}

/** Compile `doc` (written as `<dir>/<name>.tex`) with pdflatex; throws with the log's errors. */
export function compileLatex(dir: string, name: string, doc: string): CompileOutcome {
  writeFileSync(join(dir, `${name}.tex`), doc);
  const run = () =>
    execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', `${name}.tex`], {
      cwd: dir,
      stdio: 'pipe',
      // The same sources give the same PDF bytes: no build date inside.
      env: { ...process.env, SOURCE_DATE_EPOCH: '0', FORCE_SOURCE_DATE: '1' },
    });
  try {
    // Twice: longtable settles its column widths on the second pass.
    run();
    run();
  } catch (e) {
    const logPath = join(dir, `${name}.log`);
    const log = existsSync(logPath) ? readFileSync(logPath, 'utf8') : String(e);
    const errors = log
      .split('\n')
      .filter((l, i, all) => l.startsWith('!') || (i > 0 && all[i - 1]!.startsWith('!')))
      .join('\n');
    throw new Error(`pdflatex failed on ${join(dir, `${name}.tex`)}:\n${errors || log.slice(-2000)}`);
  }
  const log = readFileSync(join(dir, `${name}.log`), 'utf8');
  const overfull = [...log.matchAll(/Overfull \\hbox \(([\d.]+)pt too wide\)/g)].map((m) => Number(m[1]));
  return { pdf: join(dir, `${name}.pdf`), overfull };
}
