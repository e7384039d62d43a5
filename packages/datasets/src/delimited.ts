import { InteropError } from '@fb/core';

/**
 * Split delimited text into records: any one-character delimiter, double-quoted cells with doubled
 * quotes, LF or CRLF line ends, blank lines skipped. `#` has no special meaning.
 */
export function parseDelimited(text: string, delimiter: string): string[][] {
  if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
    throw new InteropError('INTEROP_PARSE', `delimiter must be one character other than a quote or newline`);
  }
  const records: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let inQuotes = false;
  let quoted = false;
  const endRow = (): void => {
    row.push(cell);
    if (!(row.length === 1 && row[0] === '' && !quoted)) records.push(row);
    row = [];
    cell = '';
    quoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else inQuotes = false;
      } else cell += ch;
      continue;
    }
    if (ch === '"' && cell === '') {
      inQuotes = true;
      quoted = true;
    } else if (ch === delimiter) {
      row.push(cell);
      cell = '';
      quoted = false;
    } else if (ch === '\n' || ch === '\r') {
      endRow();
      if (ch === '\r' && text[i + 1] === '\n') i++;
    } else cell += ch;
  }
  if (inQuotes) throw new InteropError('INTEROP_PARSE', 'the text ends inside a quoted cell');
  if (cell !== '' || row.length > 0) endRow();
  return records;
}

/** Column positions by header name; a repeated name keeps its first position. */
export function headerIndex(header: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  header.forEach((h, i) => {
    if (!index.has(h)) index.set(h, i);
  });
  return index;
}
