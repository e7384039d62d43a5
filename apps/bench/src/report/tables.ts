/** A table rendered as Markdown (report.md), HTML (report.html), LaTeX (the article), CSV and JSON. */
export interface Table {
  name: string;
  caption: string;
  headers: string[];
  /** 'l' or 'r' per column. */
  align: ('l' | 'r')[];
  rows: string[][];
  /**
   * The rows' numbers unformatted, one object per row, for the CSV and JSON copies (the formatted
   * `rows` otherwise).
   */
  data?: Record<string, string | number | boolean | null>[];
  /**
   * Per row, the cells behind it: field values that select them in the report's cell list
   * (`question`, `dataset`, `model`, `method`, `seed`).
   */
  cells?: CellSelector[];
}

/** Which cells an aggregate row was computed from. */
export type CellSelector = Partial<Record<'question' | 'dataset' | 'model' | 'method' | 'family', string>>;

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

/** A number for the CSV and JSON copies: null when missing. */
export const raw = (v: number | null | undefined): number | null =>
  v === null || v === undefined || !Number.isFinite(v) ? null : v;

/** `{x: mean, x_lo, x_hi, x_n}` fields of a mean with its interval. */
export function intervalFields(
  name: string,
  m: { mean: number; lo: number; hi: number; n: number },
): Record<string, number | null> {
  return { [name]: raw(m.mean), [`${name}_lo`]: raw(m.lo), [`${name}_hi`]: raw(m.hi), [`${name}_n`]: m.n };
}

const escapeMd = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function markdown(t: Table): string {
  if (t.rows.length === 0) return '_No data._';
  const sep = t.align.map((a) => (a === 'r' ? '---:' : '---'));
  return [t.headers, sep, ...t.rows]
    .map((r, i) => `| ${(i === 1 ? r : r.map(escapeMd)).join(' | ')} |`)
    .join('\n');
}

/** The table's records: its raw data, else its formatted rows keyed by header. */
export function records(t: Table): Record<string, string | number | boolean | null>[] {
  return t.data ?? t.rows.map((r) => Object.fromEntries(t.headers.map((h, i) => [h, r[i] ?? null])));
}

const csvField = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** RFC 4180 CSV of the table's records (columns: the union of their keys, in first-seen order). */
export function csv(t: Table): string {
  const rs = records(t);
  const columns = [...new Set(rs.flatMap((r) => Object.keys(r)))];
  if (columns.length === 0) columns.push(...t.headers);
  return `${[columns, ...rs.map((r) => columns.map((c) => r[c]))].map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** JSON copy: caption, the formatted table and its records. */
export function json(t: Table): string {
  return `${JSON.stringify({ name: t.name, caption: t.caption, headers: t.headers, rows: t.rows, records: records(t) }, null, 1)}\n`;
}

/** Symbols the report's text uses, in LaTeX; anything else outside ASCII is reduced to its base letters. */
const TEX_SYMBOLS: Record<string, string> = {
  '–': '--',
  '—': '---',
  '−': '$-$',
  '’': "'",
  '‘': '`',
  '“': '``',
  '”': "''",
  '…': '\\ldots{}',
  '·': '$\\cdot$',
  '≥': '$\\geq$',
  '≤': '$\\leq$',
  '≈': '$\\approx$',
  '×': '$\\times$',
  '±': '$\\pm$',
  '→': '$\\to$',
  σ: '$\\sigma$',
  η: '$\\eta$',
  β: '$\\beta$',
  γ: '$\\gamma$',
  α: '$\\alpha$',
  ε: '$\\varepsilon$',
  δ: '$\\delta$',
  Δ: '$\\Delta$',
};

/** LaTeX's special characters, spelled out. */
const TEX_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '{': '\\{',
  '}': '\\}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
};

/** Text safe inside a LaTeX document compiled by pdflatex. */
export function escapeTex(s: string): string {
  let out = '';
  const chars = [...s];
  chars.forEach((ch, i) => {
    const special = TEX_SPECIAL[ch] ?? TEX_SYMBOLS[ch];
    if (special !== undefined) out += special;
    // TeX reads `--` as an en dash: a typed hyphen before another stays a hyphen (`--study`).
    else if (ch === '-' && chars[i + 1] === '-') out += '-{}';
    else if (ch.charCodeAt(0) < 128) out += ch;
    else out += ch.normalize('NFKD').replace(/[^\x20-\x7e]/g, '');
  });
  return out;
}

/** Page geometry the LaTeX tables are sized for: a two-column paper (points). */
export const PAGE = { columnWidth: 241, textWidth: 505 };
/** A table longer than this becomes a `longtable` (one-column pages, the article's appendix). */
export const LONG_ROWS = 30;
/** Rows per part of a table that is both long and wider than the page. */
export const PART_ROWS = 40;
// Average width of a character of \footnotesize Latin Modern, and the padding of a column (points).
const CHAR_PT = 4.3;
const COLUMN_PAD_PT = 6;

/** Estimated natural width of the table set in \footnotesize with 3 pt column padding. */
export function texWidth(t: Table): number {
  return t.headers.reduce((w, h, i) => {
    const widest = Math.max(h.length, ...t.rows.map((r) => (r[i] ?? '').length));
    return w + widest * CHAR_PT + COLUMN_PAD_PT;
  }, 0);
}

/** Where a table goes in a two-column paper. */
export function texPlacement(t: Table): 'column' | 'page' | 'long' | 'parts' {
  const width = texWidth(t);
  if (t.rows.length > LONG_ROWS) return width <= PAGE.textWidth ? 'long' : 'parts';
  return width <= PAGE.columnWidth ? 'column' : 'page';
}

/**
 * The table in LaTeX (booktabs): a `table` when it fits a column, a `table*` across both columns
 * (scaled down when it is wider than the page), a `longtable` when it is long (which LaTeX sets only
 * in one-column mode: the article puts those in its appendix), and consecutive scaled `table*` parts
 * when it is both long and wider than the page.
 */
export function latex(t: Table): string {
  const head = `${t.headers.map(escapeTex).join(' & ')} \\\\`;
  const line = (r: string[]) => `${r.map(escapeTex).join(' & ')} \\\\`;
  const spec = t.align.join('');
  const placement = texPlacement(t);
  if (placement === 'long') {
    return [
      '{\\footnotesize\\setlength{\\tabcolsep}{3pt}',
      `\\begin{longtable}{${spec}}`,
      `\\caption{${escapeTex(t.caption)}}\\label{tab:${t.name}} \\\\`,
      '\\toprule',
      head,
      '\\midrule',
      '\\endfirsthead',
      '\\toprule',
      head,
      '\\midrule',
      '\\endhead',
      '\\bottomrule',
      '\\endlastfoot',
      ...t.rows.map(line),
      '\\end{longtable}}',
      '',
    ].join('\n');
  }
  const parts: string[][][] = [];
  for (let i = 0; i < t.rows.length; i += PART_ROWS) parts.push(t.rows.slice(i, i + PART_ROWS));
  if (parts.length === 0) parts.push([]);
  const env = placement === 'column' ? 'table' : 'table*';
  const scaled = placement === 'parts' || (placement === 'page' && texWidth(t) > PAGE.textWidth);
  return parts
    .map((rows, k) => {
      const tabular = [
        `\\begin{tabular}{${spec}}`,
        '\\toprule',
        head,
        '\\midrule',
        ...rows.map(line),
        '\\bottomrule',
        '\\end{tabular}',
      ];
      const caption =
        k === 0
          ? `\\caption{${escapeTex(t.caption)}}\n\\label{tab:${t.name}}`
          : `\\caption*{Table~\\ref{tab:${t.name}}, continued (${k + 1} of ${parts.length})}`;
      return [
        `\\begin{${env}}[${env === 'table' ? '!htbp' : '!t'}]`,
        '\\centering\\footnotesize\\setlength{\\tabcolsep}{3pt}',
        caption,
        ...(scaled ? ['\\resizebox{\\textwidth}{!}{%', ...tabular, '}'] : tabular),
        `\\end{${env}}`,
        '',
      ].join('\n');
    })
    .join('\n');
}
