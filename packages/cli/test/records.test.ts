import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createRng } from '@fb/core';
import { loadCsv, parseDelimited } from '@fb/datasets';
import { describe, expect, it } from 'vitest';
import { loadAuditData } from '../src/index.js';
import { DelimitedFile } from '../src/records.js';

const dir = mkdtempSync(path.join(tmpdir(), 'fb-records-'));

/** Text of `rows` records with quoted cells, doubled quotes, line breaks inside quotes, CRLF and blank lines. */
function awkwardText(rows: number, seed: number): string {
  const rng = createRng(seed);
  const cells = ['plain', '"a,b"', '"say ""hi"""', '"two\nlines"', '"cr\r\nlf"', '', 'é€😀', '""', '12.5'];
  const lines = ['a,b,c'];
  for (let i = 0; i < rows; i++) {
    lines.push([0, 1, 2].map(() => cells[rng.int(0, cells.length - 1)]).join(','));
    if (i % 97 === 0) lines.push('');
  }
  return `\uFEFF${lines.join(rng.bernoulli(0.5) ? '\r\n' : '\n')}\r\n`;
}

describe('DelimitedFile', () => {
  it('reads, across its 1 MiB pieces, the records parseDelimited reads from the whole text', () => {
    // ~3 MB: quotes, CR/LF pairs and multi-byte characters fall on piece boundaries somewhere.
    const text = awkwardText(200_000, 3);
    const file = path.join(dir, 'awkward.csv');
    writeFileSync(file, text);
    const want = parseDelimited(text.replace(/^\uFEFF/, ''), ',');
    const got: string[][] = [];
    new DelimitedFile(file).forEach(',', (r) => {
      got.push(r);
      return true;
    });
    expect(got.length).toBe(want.length);
    expect(got).toEqual(want);
    // The same from a gzipped copy.
    const gz = path.join(dir, 'awkward.csv.gz');
    writeFileSync(gz, gzipSync(text));
    let count = 0;
    let same = true;
    new DelimitedFile(gz).forEach(',', (r, i) => {
      same &&= JSON.stringify(r) === JSON.stringify(want[i]);
      count++;
      return true;
    });
    expect([count, same]).toEqual([want.length, true]);
  });

  it('stops when asked, and names a text that ends inside a quoted cell', () => {
    const file = path.join(dir, 'open.csv');
    writeFileSync(file, 'a,b\n1,"open\n');
    const first: string[][] = [];
    new DelimitedFile(file).forEach(',', (r) => {
      first.push(r);
      return false;
    });
    expect(first).toEqual([['a', 'b']]);
    expect(() => new DelimitedFile(file).forEach(',', () => true)).toThrow(/ends inside a quoted cell/);
  });
});

describe('loadAuditData reads as loadCsv does', () => {
  it('gives the dataset loadCsv gives for the same rows: kinds, domains, codes, dropped rows', () => {
    const rng = createRng(11);
    const lines = ['sex,grade,score,city,y'];
    for (let i = 0; i < 3000; i++) {
      const missing = rng.bernoulli(0.02);
      lines.push(
        [
          rng.bernoulli(0.5) ? 'F' : 'M',
          rng.int(1, 7),
          missing ? 'NA' : rng.uniform(0, 100).toFixed(2),
          `"${['Köln', 'a,b', 'Paris'][rng.int(0, 2)]}"`,
          rng.bernoulli(0.4) ? 'yes' : 'no',
        ].join(','),
      );
    }
    const text = `${lines.join('\n')}\n`;
    const file = path.join(dir, 'mixed.csv');
    writeFileSync(file, text);
    const columns = ['sex', 'grade', 'score', 'city'];
    const both = (missing: 'drop' | 'mode') => ({
      data: loadAuditData({ file, outcome: 'y', favorable: 'yes', protected: ['sex'], columns, missing }),
      want: loadCsv(text, { outcome: 'y', favorable: 'yes', protected: ['sex'], columns }, { missing }),
    });
    const { data, want } = both('drop');
    expect(data.dataset.schema).toEqual(want.schema);
    expect(data.dataset.x).toEqual(want.x);
    expect(data.dataset.y).toEqual(want.y);
    expect(
      data.notes.some((n) =>
        n.startsWith(`${want.metadata.rowsDropped['missing value']} rows dropped for a missing value`),
      ),
    ).toBe(true);
    const { data: modes, want: wantModes } = both('mode');
    expect(modes.dataset.x).toEqual(wantModes.x);
    expect(modes.dataset.n).toBe(3000);
  });

  it('leaves out an identifier column of 200,000 distinct values, counted exactly', () => {
    const lines = ['id,sex,y'];
    for (let i = 0; i < 200_000; i++) lines.push(`p${i},${i % 2 ? 'F' : 'M'},${i % 3 ? 'yes' : 'no'}`);
    const file = path.join(dir, 'ids.csv');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const data = loadAuditData({ file, outcome: 'y', favorable: 'yes', protected: ['sex'] });
    expect(data.dataset.schema.attributes.map((a) => a.name)).toEqual(['sex']);
    expect(data.notes[0]).toBe(
      'column "id" is left out: 200000 distinct text values (an identifier, name or date?); list it in --columns to keep it',
    );
  });
});
