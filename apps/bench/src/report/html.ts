import type { CellRecord } from '../run/record.js';
import type { Block, Report } from './report.js';
import type { CellSelector, Table } from './tables.js';

const esc = (s: unknown): string =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The report's light markup (`**bold**`, `_italic_`) in HTML. */
function inline(text: string): string {
  return esc(text)
    .replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>')
    .replace(/(^|\s)_([^_]+)_(?=$|[\s.,;:])/g, '$1<i>$2</i>');
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function tableHtml(t: Table, note: string | undefined): string {
  const links = t.cells
    ? (i: number) => {
        const sel: CellSelector = t.cells![i] ?? {};
        return `<td><a href="#cells" class="cells-link" data-select="${esc(JSON.stringify(sel))}">cells</a></td>`;
      }
    : () => '';
  const head = `<tr>${t.headers.map((h) => `<th>${esc(h)}</th>`).join('')}${t.cells ? '<th></th>' : ''}</tr>`;
  const body = t.rows
    .map(
      (r, i) =>
        `<tr>${r.map((c, j) => `<td${t.align[j] === 'r' ? ' class="r"' : ''}>${esc(c)}</td>`).join('')}${links(i)}</tr>`,
    )
    .join('\n');
  return `<section class="table" id="table-${esc(t.name)}">
<p class="caption"><b>Table.</b> ${inline(t.caption)} <span class="files">(<a href="tables/${esc(t.name)}.csv">CSV</a>, <a href="tables/${esc(t.name)}.json">JSON</a>, <a href="tables/${esc(t.name)}.tex">LaTeX</a>)</span></p>
${t.rows.length > 8 ? '<input type="search" class="filter" placeholder="filter rows" aria-label="filter rows">' : ''}
<div class="scroll"><table class="sortable"><thead>${head}</thead><tbody>
${body}
</tbody></table></div>
${note ? `<p class="note">${inline(note)}</p>` : ''}
</section>`;
}

function blockHtml(b: Block, svgOf: Map<string, { svg: string; spec: object }>): string {
  if (b.kind === 'heading') return `<h${b.level} id="${slug(b.text)}">${esc(b.text)}</h${b.level}>`;
  if (b.kind === 'text') return `<p>${inline(b.text)}</p>`;
  if (b.kind === 'table') return tableHtml(b.table, b.note);
  const f = svgOf.get(b.name)!;
  const spec = JSON.stringify(f.spec).replace(/</g, '\\u003c');
  return `<figure id="figure-${esc(b.name)}">${f.svg}
<figcaption>${esc(b.alt)} (<a href="figures/${esc(b.name)}.vl.json">vega-lite spec</a>, <a href="figures/${esc(b.name)}.svg">SVG</a>)</figcaption>
<script type="application/json" class="vega-lite">${spec}</script></figure>`;
}

const CELL_COLUMNS = [
  'dataset',
  'seed',
  'question',
  'model',
  'method',
  'family',
  'status',
  'seconds',
  'TSN',
  'DSN',
  'recall',
  'Jaccard',
  'error',
] as const;

function cellRow(r: CellRecord): string {
  const n = (v: number | null | undefined, d: number) =>
    v === null || v === undefined || !Number.isFinite(v) ? '' : v.toFixed(d);
  const values: Record<(typeof CELL_COLUMNS)[number], string> = {
    dataset: r.dataset.label,
    seed: String(r.seed),
    question: r.question,
    model: r.model,
    method: r.plan.label,
    family: r.family ?? '',
    status: r.status,
    seconds: n(r.wallSeconds, 2),
    TSN: n(r.metrics?.tsn, 0),
    DSN: n(r.metrics?.dsn, 0),
    recall: n(r.score?.recall, 3),
    Jaccard: n(r.score?.localisation, 3),
    error: r.error ?? '',
  };
  return `<tr id="cell-${esc(r.key)}">${CELL_COLUMNS.map((c) => `<td data-field="${c}">${esc(values[c])}</td>`).join('')}</tr>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:0;color:#1a1a1a}
main{max-width:1200px;margin:0 auto;padding:1rem 2rem 4rem}
nav{background:#f4f6f8;border-bottom:1px solid #dde;padding:.5rem 2rem;position:sticky;top:0;z-index:2;font-size:13px}
nav a{margin-right:1rem;color:#0b4f8a;text-decoration:none}
h1{font-size:1.6rem}h2{margin-top:2.2rem;border-bottom:1px solid #ccd;padding-bottom:.2rem}
table{border-collapse:collapse;font-size:12.5px;font-variant-numeric:tabular-nums}
th,td{padding:3px 8px;border-bottom:1px solid #e4e4e4;text-align:left;vertical-align:top}
td.r{text-align:right;white-space:nowrap}
thead th{position:sticky;top:0;background:#fff;cursor:pointer;border-bottom:2px solid #999;user-select:none}
thead th[aria-sort=ascending]::after{content:" \\25B2"}thead th[aria-sort=descending]::after{content:" \\25BC"}
.scroll{max-height:32rem;overflow:auto;border:1px solid #eee}
.caption{margin:.9rem 0 .3rem}.note{color:#444;font-size:13px}.files{font-size:12px}
input.filter{margin:.2rem 0 .4rem;padding:3px 6px;width:18rem}
figure{margin:1rem 0;overflow-x:auto}figcaption{font-size:12px;color:#555}
#selection{background:#fff6d8;padding:.3rem .6rem;display:none}
tr.hidden{display:none}
`;

// Sorting (numbers as numbers, by the leading number of a cell), row filters, and the links from an
// aggregate to the cells behind it. No network, no library.
const SCRIPT = `
(function(){
  function key(td){var t=td?td.textContent.trim():'';var m=t.match(/^-?\\d+(\\.\\d+)?(e-?\\d+)?/);return m&&m[0].length>0?{n:parseFloat(m[0]),t:t}:{n:null,t:t};}
  function cmp(a,b){if(a.n!==null&&b.n!==null)return a.n-b.n;if(a.n!==null)return -1;if(b.n!==null)return 1;return a.t<b.t?-1:a.t>b.t?1:0;}
  document.querySelectorAll('table.sortable').forEach(function(table){
    var ths=table.tHead.rows[0].cells;
    Array.prototype.forEach.call(ths,function(th,i){th.addEventListener('click',function(){
      var dir=th.getAttribute('aria-sort')==='ascending'?-1:1;
      Array.prototype.forEach.call(ths,function(o){o.removeAttribute('aria-sort');});
      th.setAttribute('aria-sort',dir>0?'ascending':'descending');
      var body=table.tBodies[0];var rows=Array.prototype.slice.call(body.rows);
      rows.sort(function(x,y){return dir*cmp(key(x.cells[i]),key(y.cells[i]));});
      rows.forEach(function(r){body.appendChild(r);});
    });});
  });
  function applyFilter(section){
    var input=section.querySelector('input.filter');var q=input?input.value.toLowerCase():'';
    var sel=section.__select||null;
    section.querySelectorAll('tbody tr').forEach(function(tr){
      var ok=!q||tr.textContent.toLowerCase().indexOf(q)>=0;
      if(ok&&sel){for(var f in sel){var td=tr.querySelector('td[data-field="'+f+'"]');if(!td||td.textContent!==sel[f]){ok=false;break;}}}
      tr.classList.toggle('hidden',!ok);
    });
  }
  document.querySelectorAll('input.filter').forEach(function(input){
    input.addEventListener('input',function(){applyFilter(input.closest('section'));});
  });
  var cells=document.getElementById('cells-table');
  var banner=document.getElementById('selection');
  function select(sel){
    cells.__select=sel;applyFilter(cells);
    var parts=[];for(var f in sel)parts.push(f+' = '+sel[f]);
    banner.style.display=sel?'block':'none';
    banner.querySelector('span').textContent=parts.join(', ');
  }
  document.querySelectorAll('a.cells-link').forEach(function(a){
    a.addEventListener('click',function(){select(JSON.parse(a.getAttribute('data-select')));});
  });
  var clear=document.getElementById('clear-selection');
  if(clear)clear.addEventListener('click',function(e){e.preventDefault();select(null);});
})();
`;

/** A self-contained report.html: no script, style, font or image from elsewhere. */
export function reportHtml(report: Report): string {
  const svgOf = new Map(report.figures.map((f) => [f.name, f]));
  const sections = report.blocks.filter((b) => b.kind === 'heading' && b.level === 2) as {
    text: string;
  }[];
  const nav = [...sections.map((s) => s.text), 'Cells']
    .map((t) => `<a href="#${slug(t)}">${esc(t.replace(/^Question: /, ''))}</a>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(report.title)}</title><style>${STYLE}</style></head><body>
<nav>${nav}</nav>
<main>
${report.blocks.map((b) => blockHtml(b, svgOf)).join('\n')}
<h2 id="cells">Cells</h2>
<p>Every cell of the study: one method on one data set, seed, question and model. The <i>cells</i> link of an aggregate row selects the cells it was computed from.</p>
<section class="table" id="cells-table">
<p id="selection">Showing the cells of: <span></span> <a href="#cells" id="clear-selection">show all</a></p>
<input type="search" class="filter" placeholder="filter cells" aria-label="filter cells">
<div class="scroll"><table class="sortable"><thead><tr>${CELL_COLUMNS.map((c) => `<th>${c}</th>`).join('')}</tr></thead><tbody>
${report.records.map(cellRow).join('\n')}
</tbody></table></div></section>
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}
