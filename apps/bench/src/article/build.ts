import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { compileLatex, paperPreamble } from '../report/latex.js';
import {
  csv,
  escapeTex,
  json,
  latex,
  markdown as markdownTable,
  type Table,
  texPlacement,
} from '../report/tables.js';
import { articleFacts, type Facts } from './facts.js';

/** A reference: its key as cited (`[@key]`) and the entry as printed. */
export type References = Record<string, string>;

export class ArticleError extends Error {
  override name = 'ArticleError';
}

const FACT = /\{\{([a-zA-Z0-9_.-]+)\}\}/g;
const DIRECTIVE = /^\{\{(table|figure):([a-z0-9-]+)(?:\|(.*))?\}\}$/;
const CITE = /\[@([a-zA-Z0-9_-]+(?:;\s*@[a-zA-Z0-9_-]+)*)\]/g;

/**
 * Numbers in the prose must come from the study: a digit outside a `{{fact}}`, a citation, a code
 * span or a directive is an error (identifiers such as RQ1 excepted).
 */
export function typedNumbers(template: string): string[] {
  const found: string[] = [];
  template.split('\n').forEach((line, i) => {
    if (DIRECTIVE.test(line.trim())) return;
    const prose = line
      .replace(FACT, '')
      .replace(CITE, '')
      .replace(/`[^`]*`/g, '')
      .replace(/\b[A-Za-z]+\d+\b/g, '');
    if (/\d/.test(prose)) found.push(`line ${i + 1}: ${line.trim()}`);
  });
  return found;
}

/** The template with every `{{fact}}` replaced; an unknown fact is an error. */
export function fillFacts(template: string, facts: Facts): string {
  const missing = new Set<string>();
  const out = template.replace(FACT, (_, key: string) => {
    const v = facts.get(key);
    if (v === undefined) missing.add(key);
    return v ?? '';
  });
  if (missing.size > 0) {
    throw new ArticleError(`the article names facts the study does not have: ${[...missing].join(', ')}`);
  }
  return out;
}

interface Assets {
  tables: Map<string, { table: Table; long: boolean }>;
  figures: Set<string>;
  /** Each figure's SVG size in CSS pixels. */
  figureSizes: Map<string, { width: number; height: number }>;
}

/** The text block the article's figures are set in (points): the width of both columns, and the most height a figure may take. */
export const FIGURE_BOX = { width: 505, height: 400 };
/** Points per CSS pixel at a figure's natural size (96 px to the inch). */
const PT_PER_PX = 0.75;

/**
 * The printed width of a figure (points): its natural size (a CSS pixel is 0.75 pt), shrunk only as
 * much as the text block needs, so that a figure drawn with 11 px labels prints them at 8 pt or more
 * when it is at most 680 px wide.
 */
export function figureWidthPt(size: { width: number; height: number } | undefined): number {
  if (!size) return FIGURE_BOX.width;
  return Math.round(figureScale(size) * size.width * 10) / 10;
}

/** Points per SVG pixel of a figure as the article prints it. */
export function figureScale(size: { width: number; height: number }): number {
  return Math.min(PT_PER_PX, FIGURE_BOX.width / size.width, FIGURE_BOX.height / size.height);
}

/** An SVG's width and height attributes (CSS pixels). */
export function svgSize(svg: string): { width: number; height: number } | undefined {
  const m = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(svg);
  return m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
}

function loadAssets(results: string): Assets {
  const tables = new Map<string, { table: Table; long: boolean }>();
  const tdir = join(results, 'tables');
  for (const f of existsSync(tdir) ? readdirSync(tdir) : []) {
    if (!f.endsWith('.json')) continue;
    const name = f.slice(0, -'.json'.length);
    const j = JSON.parse(readFileSync(join(tdir, f), 'utf8')) as Table;
    const tex = readFileSync(join(tdir, `${name}.tex`), 'utf8');
    tables.set(name, {
      table: { name, caption: j.caption, headers: j.headers, align: j.headers.map(() => 'l'), rows: j.rows },
      long: tex.includes('\\begin{longtable}'),
    });
  }
  const fdir = join(results, 'figures');
  const figures = new Set(
    (existsSync(fdir) ? readdirSync(fdir) : []).filter((f) => f.endsWith('.svg')).map((f) => f.slice(0, -4)),
  );
  const figureSizes = new Map<string, { width: number; height: number }>();
  for (const f of figures) {
    const size = svgSize(readFileSync(join(fdir, `${f}.svg`), 'utf8'));
    if (size) figureSizes.set(f, size);
  }
  return { tables, figures, figureSizes };
}

/** Citation numbers in order of first citation. */
function citationOrder(text: string, refs: References): string[] {
  const order: string[] = [];
  for (const m of text.matchAll(CITE)) {
    for (const key of m[1]!.split(/;\s*@/)) {
      if (!(key in refs)) throw new ArticleError(`unknown reference [@${key}]`);
      if (!order.includes(key)) order.push(key);
    }
  }
  return order;
}

/** The filled article in Markdown: tables inlined from their JSON, figures as SVG, numbered citations. */
export function toMarkdown(filled: string, assets: Assets, refs: References): string {
  const order = citationOrder(filled, refs);
  const body = filled
    .split('\n')
    .map((line) => {
      const d = DIRECTIVE.exec(line.trim());
      if (!d)
        return line.replace(
          CITE,
          (_, keys: string) =>
            `[${keys
              .split(/;\s*@/)
              .map((k) => order.indexOf(k) + 1)
              .join(', ')}]`,
        );
      const [, kind, name, caption] = d;
      if (kind === 'table') {
        const t = assets.tables.get(name!);
        if (!t) return `_The study produced no table "${name}"._`;
        return `**Table: ${t.table.caption}** ([CSV](tables/${name}.csv), [JSON](tables/${name}.json))\n\n${markdownTable(t.table)}`;
      }
      if (!assets.figures.has(name!)) return `_The study produced no figure "${name}"._`;
      return `![${caption ?? name}](figures/${name}.svg)\n\n_Figure: ${caption ?? name}_ ([vega-lite spec](figures/${name}.vl.json))`;
    })
    .join('\n');
  const list = order.map((k, i) => `${i + 1}. ${refs[k]}`).join('\n');
  const references = `## References\n\n${list}\n`;
  // The references close the text; an appendix follows them.
  const at = body.search(/^## Appendix/m);
  return at < 0
    ? `${body.trimEnd()}\n\n${references}`
    : `${body.slice(0, at).trimEnd()}\n\n${references}\n${body.slice(at).trimEnd()}\n`;
}

/** Inline Markdown (bold, italic, code, citations) to LaTeX, everything else escaped. */
function inlineTex(text: string): string {
  const parts: string[] = [];
  const re = /(`[^`]+`|\*\*[^*]+\*\*|(?<![A-Za-z0-9])_[^_]+_(?![A-Za-z0-9])|\[@[^\]]+\])/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    parts.push(escapeTex(text.slice(last, m.index)));
    const tok = m[0];
    if (tok.startsWith('`')) parts.push(`\\texttt{${escapeTex(tok.slice(1, -1))}}`);
    else if (tok.startsWith('**')) parts.push(`\\textbf{${inlineTex(tok.slice(2, -2))}}`);
    else if (tok.startsWith('_')) parts.push(`\\emph{${inlineTex(tok.slice(1, -1))}}`);
    else parts.push(`\\cite{${tok.slice(2, -1).split(/;\s*@/).join(',')}}`);
    last = (m.index ?? 0) + tok.length;
  }
  parts.push(escapeTex(text.slice(last)));
  return parts.join('');
}

/** The filled article as a two-column LaTeX paper; long tables go to a one-column appendix. */
export function toLatex(filled: string, assets: Assets, refs: References): string {
  const order = citationOrder(filled, refs);
  const lines = filled.split('\n');
  const body: string[] = [];
  const appendix: string[] = [];
  // Where lines go: the body, or after an `## Appendix` heading the appendix (set after the references).
  let target = body;
  const out = { push: (...xs: string[]) => target.push(...xs) };
  let title = '';
  let inList = false;
  let abstract = false;
  const closeList = () => {
    if (inList) out.push('\\end{itemize}');
    inList = false;
  };
  for (const raw of lines) {
    const line = raw.trimEnd();
    const d = DIRECTIVE.exec(line.trim());
    if (line.startsWith('- ')) {
      if (!inList) out.push('\\begin{itemize}');
      inList = true;
      out.push(`\\item ${inlineTex(line.slice(2))}`);
      continue;
    }
    closeList();
    if (line.startsWith('# ')) title = line.slice(2);
    else if (/^## Appendix/.test(line)) {
      if (abstract) out.push('\\end{abstract}');
      abstract = false;
      target = appendix;
      appendix.unshift(`\\section{${inlineTex(line.slice(3).replace(/^Appendix:?\s*/, '') || 'Tables')}}`);
    } else if (line.startsWith('## ')) {
      if (abstract) out.push('\\end{abstract}');
      abstract = line.slice(3).trim() === 'Abstract';
      out.push(abstract ? '\\begin{abstract}' : `\\section{${inlineTex(line.slice(3))}}`);
    } else if (line.startsWith('### ')) out.push(`\\subsection{${inlineTex(line.slice(4))}}`);
    else if (d) {
      const [, kind, name, caption] = d;
      if (kind === 'table') {
        const t = assets.tables.get(name!);
        if (!t) out.push(`\\emph{The study produced no table \\texttt{${escapeTex(name!)}}.}`);
        else if (t.long) {
          if (target === body) out.push(`Table~\\ref{tab:${name}} (appendix).`);
          appendix.push(`\\input{tables/${name}.tex}`);
        } else out.push(`\\input{tables/${name}.tex}`);
      } else if (!assets.figures.has(name!)) {
        out.push(`\\emph{The study produced no figure \\texttt{${escapeTex(name!)}}.}`);
      } else {
        out.push(
          '\\begin{figure*}[!t]',
          '\\centering',
          `\\includegraphics[width=${figureWidthPt(assets.figureSizes.get(name!))}pt]{figures/${name}.png}`,
          `\\caption{${inlineTex(caption ?? name!)}}`,
          `\\label{fig:${name}}`,
          '\\end{figure*}',
        );
      }
    } else out.push(inlineTex(line));
  }
  closeList();
  if (abstract) out.push('\\end{abstract}');
  return [
    ...paperPreamble(['url']),
    `\\title{${inlineTex(title)}}`,
    '\\author{}',
    '\\date{}',
    '\\begin{document}',
    '\\maketitle',
    ...body,
    // Where the body ends: the page limit counts the pages before the references.
    '\\label{body-end}',
    '\\begin{thebibliography}{99}',
    ...order.map((k) => `\\bibitem{${k}} ${escapeTex(refs[k]!)}`),
    '\\end{thebibliography}',
    ...(appendix.length
      ? ['\\clearpage', '\\onecolumn', '\\appendix', '\\section{Long tables}', ...appendix]
      : []),
    '\\end{document}',
    '',
  ].join('\n');
}

/** Pages of the body (title to the end of the text, before the references) a venue allows. */
export const MAX_BODY_PAGES = 12;

/** The compiled article's pages: of its body (to the `body-end` label) and in all, from pdflatex's aux and log. */
export function pageCount(dir: string): { body: number; total: number } {
  const aux = readFileSync(join(dir, 'article.aux'), 'utf8');
  const log = readFileSync(join(dir, 'article.log'), 'utf8');
  const body = /\\newlabel\{body-end\}\{\{[^}]*\}\{(\d+)\}/.exec(aux);
  const total = /Output written on article\.pdf \((\d+) pages?/.exec(log);
  if (!body || !total) throw new ArticleError(`${dir}: no page count in article.aux or article.log`);
  return { body: Number(body[1]), total: Number(total[1]) };
}

export interface BuildOptions {
  /** A study's result directory (report, tables/, figures/, summary.json). */
  results: string;
  /** The article's template (Markdown with `{{fact}}`, `{{table:…}}`, `{{figure:…|caption}}`, `[@ref]`). */
  template: string;
  references: string;
  /** Where the article is written (docs/article). */
  out: string;
  /** Render figures to PNG with this (for LaTeX); null skips the PNGs and the PDF. */
  renderPng: ((svg: string, png: string) => Promise<void>) | null;
  pdf: boolean;
}

/** Build the article from a study's outputs: Markdown, LaTeX, their tables and figures, the PDF. */
export async function buildArticle(o: BuildOptions): Promise<{ markdown: string; latex: string }> {
  const template = readFileSync(o.template, 'utf8');
  const typed = typedNumbers(template);
  if (typed.length > 0) {
    throw new ArticleError(`numbers typed into the article's text (use a {{fact}}):\n${typed.join('\n')}`);
  }
  const refs = JSON.parse(readFileSync(o.references, 'utf8')) as References;
  const { facts, tables } = articleFacts(o.results);
  const filled = fillFacts(template, facts);
  const assets = loadAssets(o.results);
  // The article's own tables (its results, factors and claims), made from the study's tables.
  for (const t of tables) assets.tables.set(t.name, { table: t, long: texPlacement(t) === 'long' });
  const md = toMarkdown(filled, assets, refs);
  const tex = toLatex(filled, assets, refs);
  for (const sub of ['tables', 'figures']) rmSync(join(o.out, sub), { recursive: true, force: true });
  mkdirSync(join(o.out, 'tables'), { recursive: true });
  mkdirSync(join(o.out, 'figures'), { recursive: true });
  for (const f of readdirSync(join(o.results, 'tables')))
    copyFileSync(join(o.results, 'tables', f), join(o.out, 'tables', f));
  for (const t of tables) {
    writeFileSync(join(o.out, 'tables', `${t.name}.json`), json(t));
    writeFileSync(join(o.out, 'tables', `${t.name}.csv`), csv(t));
    writeFileSync(join(o.out, 'tables', `${t.name}.tex`), latex(t));
  }
  for (const f of readdirSync(join(o.results, 'figures'))) {
    copyFileSync(join(o.results, 'figures', f), join(o.out, 'figures', f));
    if (f.endsWith('.svg') && o.renderPng) {
      await o.renderPng(join(o.results, 'figures', f), join(o.out, 'figures', f.replace(/\.svg$/, '.png')));
    }
  }
  // The study file and the per-cell results travel with the article: its tables can be recomputed from them.
  for (const f of ['report.md', 'report.html', 'summary.json', 'study.json', 'cells.jsonl.gz']) {
    if (existsSync(join(o.results, f))) copyFileSync(join(o.results, f), join(o.out, f));
  }
  writeFileSync(join(o.out, 'article.md'), md);
  writeFileSync(join(o.out, 'article.tex'), tex);
  if (o.pdf && o.renderPng) {
    compileLatex(o.out, 'article', tex);
    const pages = pageCount(o.out);
    for (const ext of ['aux', 'log', 'out']) rmSync(join(o.out, `article.${ext}`), { force: true });
    writeFileSync(join(o.out, 'pages.json'), `${JSON.stringify(pages, null, 2)}\n`);
    if (pages.body > MAX_BODY_PAGES) {
      throw new ArticleError(
        `the article's body runs to ${pages.body} pages before its references (at most ${MAX_BODY_PAGES}): move tables to the supplementary material`,
      );
    }
  }
  return { markdown: md, latex: tex };
}
