import { InteropError } from './errors.js';

function quote(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** RFC 4180 CSV text from a header and rows (LF line endings, quoted where needed). */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
): string {
  const lines = [header.map(quote).join(',')];
  for (const row of rows) lines.push(row.map((c) => quote(c === null ? '' : String(c))).join(','));
  return `${lines.join('\n')}\n`;
}

/** Parse RFC 4180 CSV (quotes, doubled quotes, LF or CRLF). Returns the header and the rows. */
export function parseCsv(text: string): { header: string[]; rows: string[][] } {
  const records: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let inQuotes = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
      } else cell += ch;
      i++;
      continue;
    }
    if (ch === '"' && cell === '') inQuotes = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      row.push(cell);
      records.push(row);
      row = [];
      cell = '';
      if (ch === '\r' && text[i + 1] === '\n') i++;
    } else cell += ch;
    i++;
  }
  if (inQuotes) throw new InteropError('INTEROP_PARSE', 'CSV ends inside a quoted cell');
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    records.push(row);
  }
  const nonEmpty = records.filter((r) => !(r.length === 1 && r[0] === ''));
  if (nonEmpty.length === 0) throw new InteropError('INTEROP_PARSE', 'CSV has no header line');
  const [header, ...rows] = nonEmpty;
  for (let r = 0; r < rows.length; r++) {
    if (rows[r]!.length !== header!.length) {
      throw new InteropError(
        'INTEROP_PARSE',
        `CSV line ${r + 2} has ${rows[r]!.length} cells, the header has ${header!.length}`,
        {
          row: r,
        },
      );
    }
  }
  return { header: header!, rows };
}
