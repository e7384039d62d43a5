import { describe, expect, it } from 'vitest';
import { createRng, InteropError, parseCsv, toCsv } from '../src/index.js';
import { expectError } from './helpers.js';

describe('parseCsv', () => {
  it('handles quotes, doubled quotes, commas, newlines inside quotes and CRLF', () => {
    const text = 'a,"b,c","d""e"\r\nf,"g\r\nh",i\r\n"",j,"k"\r\n';
    expect(parseCsv(text)).toEqual({
      header: ['a', 'b,c', 'd"e'],
      rows: [
        ['f', 'g\r\nh', 'i'],
        ['', 'j', 'k'],
      ],
    });
  });

  it('accepts LF endings, a missing final newline, empty cells and blank lines', () => {
    expect(parseCsv('x,y\n1,\n\n,2')).toEqual({
      header: ['x', 'y'],
      rows: [
        ['1', ''],
        ['', '2'],
      ],
    });
    expect(parseCsv('x,y\n')).toEqual({ header: ['x', 'y'], rows: [] });
  });

  it.each([
    ['an unclosed quote', 'a,b\n"1,2\n'],
    ['a row with too few cells', 'a,b,c\n1,2\n'],
    ['a row with too many cells', 'a,b\n1,2,3\n'],
    ['no header', ''],
    ['only blank lines', '\n\r\n\n'],
  ])('rejects %s with INTEROP_PARSE', (_, text) => {
    expectError(() => parseCsv(text), InteropError, 'INTEROP_PARSE');
  });
});

describe('toCsv', () => {
  it('quotes only the cells that need it and writes null as empty', () => {
    expect(
      toCsv(
        ['a', 'b,c'],
        [
          [1, 'x"y'],
          [null, 'p\nq'],
          [2.5, 'plain'],
        ],
      ),
    ).toBe('a,"b,c"\n1,"x""y"\n,"p\nq"\n2.5,plain\n');
  });

  it('round-trips random awkward cells through parseCsv', () => {
    const rng = createRng('csv');
    const alphabet = ['a', 'b', ',', '"', '\n', '\r', ' ', ';', '|'];
    for (let t = 0; t < 200; t++) {
      const width = rng.int(2, 5);
      const cell = () => Array.from({ length: rng.int(0, 6) }, () => rng.choice(alphabet)).join('');
      const header = Array.from({ length: width }, (_, j) => `c${j}${cell()}`);
      const rows = Array.from({ length: rng.int(0, 5) }, () => Array.from({ length: width }, cell));
      expect(parseCsv(toCsv(header, rows))).toEqual({ header, rows });
    }
  });
});
