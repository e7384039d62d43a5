/** A table rendered both as Markdown (for report.md) and as LaTeX (booktabs, for the article). */
export interface Table {
  name: string;
  caption: string;
  headers: string[];
  /** 'l' or 'r' per column. */
  align: ('l' | 'r')[];
  rows: string[][];
}

/** A number for a table cell: fixed digits, '–' when missing. */
export function num(v: number | null | undefined, digits = 3): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(digits);
}

/** Mean with its interval: `0.512 [0.401, 0.623]`. */
export function withInterval(m: { mean: number; lo: number; hi: number; n: number }, digits = 2): string {
  if (!Number.isFinite(m.mean)) return '–';
  return m.n < 2
    ? num(m.mean, digits)
    : `${num(m.mean, digits)} [${num(m.lo, digits)}, ${num(m.hi, digits)}]`;
}

const escapeMd = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function markdown(t: Table): string {
  if (t.rows.length === 0) return '_No data._';
  const sep = t.align.map((a) => (a === 'r' ? '---:' : '---'));
  return [t.headers, sep, ...t.rows]
    .map((r, i) => `| ${(i === 1 ? r : r.map(escapeMd)).join(' | ')} |`)
    .join('\n');
}

const escapeTex = (s: string) =>
  s
    .replace(/\\/g, '\\textbackslash{}')
    .replace(/([&%$#_{}])/g, '\\$1')
    .replace(/~/g, '\\textasciitilde{}')
    .replace(/\^/g, '\\textasciicircum{}')
    .replace(/–/g, '--')
    .replace(/≥/g, '$\\geq$')
    .replace(/×/g, '$\\times$');

export function latex(t: Table): string {
  return [
    '\\begin{table}[t]',
    '\\centering',
    `\\caption{${escapeTex(t.caption)}}`,
    `\\label{tab:${t.name}}`,
    `\\begin{tabular}{${t.align.join('')}}`,
    '\\toprule',
    `${t.headers.map(escapeTex).join(' & ')} \\\\`,
    '\\midrule',
    ...t.rows.map((r) => `${r.map(escapeTex).join(' & ')} \\\\`),
    '\\bottomrule',
    '\\end{tabular}',
    '\\end{table}',
    '',
  ].join('\n');
}
