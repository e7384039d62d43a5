import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { gunzipSync } from 'node:zlib';
import { InteropError } from '@fb/core';
import { UsageError } from './errors.js';

/** Bytes read from the file at a time. */
const CHUNK = 1 << 20;

/**
 * A delimited file read record by record, in chunks: the file is never held as one text, and no record
 * outlives its callback unless the caller keeps it. The records are those of `parseDelimited` of
 * @fb/datasets on the whole text: one-character delimiter, double-quoted cells with doubled quotes,
 * LF or CRLF line ends, blank lines skipped, a leading byte order mark dropped. A gzipped file is
 * inflated once, into bytes (not text).
 */
export class DelimitedFile {
  private readonly gz: Buffer | null;

  constructor(readonly file: string) {
    let head: Buffer;
    try {
      const fd = openSync(file, 'r');
      try {
        head = Buffer.alloc(2);
        readSync(fd, head, 0, 2, 0);
      } finally {
        closeSync(fd);
      }
      this.gz = head[0] === 0x1f && head[1] === 0x8b ? gunzipSync(readWhole(file)) : null;
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
    }
  }

  /** Feed the file's text to `f` in pieces (UTF-8 decoded, multi-byte characters kept whole). */
  private chunks(f: (text: string) => boolean | undefined): void {
    const decoder = new StringDecoder('utf8');
    let first = true;
    const give = (text: string): boolean | undefined => {
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      return f(text);
    };
    if (this.gz) {
      for (let at = 0; at < this.gz.length; at += CHUNK) {
        if (give(decoder.write(this.gz.subarray(at, at + CHUNK))) === false) return;
      }
      give(decoder.end());
      return;
    }
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch (e) {
      throw new UsageError(`cannot read ${this.file}: ${(e as Error).message}`);
    }
    try {
      const buffer = Buffer.allocUnsafe(CHUNK);
      for (;;) {
        const n = readSync(fd, buffer, 0, CHUNK, null);
        if (n === 0) break;
        if (give(decoder.write(buffer.subarray(0, n))) === false) return;
      }
      give(decoder.end());
    } finally {
      closeSync(fd);
    }
  }

  /** The first line's text (up to the first line break), for detecting the delimiter. */
  firstLine(): string {
    let line = '';
    this.chunks((text) => {
      const end = text.search(/\r?\n|\r/);
      if (end < 0) {
        line += text;
        return line.length < 1 << 20;
      }
      line += text.slice(0, end);
      return false;
    });
    return line;
  }

  /**
   * Call `f(record, index)` for every record, in order (index 0 is the header); `f` returning false
   * stops the reading. A record array is new for each call.
   */
  forEach(delimiter: string, f: (record: string[], index: number) => boolean | undefined): void {
    if (delimiter.length !== 1 || delimiter === '"' || delimiter === '\n' || delimiter === '\r') {
      throw new InteropError(
        'INTEROP_PARSE',
        'delimiter must be one character other than a quote or newline',
      );
    }
    const sep = delimiter.charCodeAt(0);
    let row: string[] = [];
    let cell = '';
    let inQuotes = false;
    let quoted = false;
    // The previous piece ended on a quote inside quotes, or on a carriage return.
    let quotePending = false;
    let crPending = false;
    let index = 0;
    let stop = false;
    const endRow = (): void => {
      row.push(cell);
      const blank = row.length === 1 && row[0] === '' && !quoted;
      const done = row;
      row = [];
      cell = '';
      quoted = false;
      if (!blank && f(done, index++) === false) stop = true;
    };
    this.chunks((text) => {
      let i = 0;
      const n = text.length;
      if (crPending && n > 0) {
        crPending = false;
        if (text.charCodeAt(0) === 10) i = 1;
      }
      if (quotePending && i < n) {
        quotePending = false;
        if (text.charCodeAt(i) === 34) {
          cell += '"';
          i++;
        } else inQuotes = false;
      }
      let start = i;
      while (i < n && !stop) {
        const ch = text.charCodeAt(i);
        if (inQuotes) {
          if (ch === 34) {
            cell += text.slice(start, i);
            if (i + 1 === n) {
              quotePending = true;
              i++;
              start = i;
              break;
            }
            if (text.charCodeAt(i + 1) === 34) {
              cell += '"';
              i += 2;
            } else {
              inQuotes = false;
              i++;
            }
            start = i;
            continue;
          }
          i++;
          continue;
        }
        if (ch === 34 && cell === '' && start === i) {
          inQuotes = true;
          quoted = true;
          i++;
          start = i;
        } else if (ch === sep) {
          row.push(cell + text.slice(start, i));
          cell = '';
          quoted = false;
          i++;
          start = i;
        } else if (ch === 10 || ch === 13) {
          cell += text.slice(start, i);
          endRow();
          i++;
          if (ch === 13) {
            if (i === n) crPending = true;
            else if (text.charCodeAt(i) === 10) i++;
          }
          start = i;
        } else i++;
      }
      if (stop) return false;
      cell += text.slice(start, i);
      return true;
    });
    if (stop) return;
    if (inQuotes && !quotePending) {
      throw new InteropError('INTEROP_PARSE', `${this.file}: the text ends inside a quoted cell`);
    }
    if (cell !== '' || row.length > 0) endRow();
  }
}

function readWhole(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const parts: Buffer[] = [];
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      parts.push(Buffer.from(buffer.subarray(0, n)));
    }
    return Buffer.concat(parts);
  } finally {
    closeSync(fd);
  }
}
