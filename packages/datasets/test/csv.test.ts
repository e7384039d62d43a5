import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DataError, SchemaError } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { AGE_BANDS, binAttribute, loadCsv, parseDelimited } from '../src/index.js';

const text = [
  'sex,age,city,score,hired',
  'f,23,Oslo,0.5,yes',
  'm,41,Rome,1.25,no',
  'f,35,Oslo,2,yes',
  'm,?,Rome,3,no',
].join('\n');
const declared = { outcome: 'hired', favorable: 'yes', protected: ['sex'] };

describe('loadCsv', () => {
  it('infers kinds, codes categories in sorted order, keeps the favourable label', () => {
    const ds = loadCsv(text, declared, { missing: 'drop' });
    expect(ds.n).toBe(3);
    const [sex, age, city, score] = ds.schema.attributes;
    expect(sex).toMatchObject({ kind: 'categorical', protected: true, categories: ['f', 'm'] });
    expect(age).toMatchObject({ kind: 'ordinal', min: 23, max: 41 });
    expect(city).toMatchObject({ kind: 'categorical', categories: ['Oslo', 'Rome'] });
    expect(score).toMatchObject({ kind: 'continuous', min: 0.5, max: 2 });
    expect(ds.schema.outcome).toMatchObject({ labels: ['no', 'yes'], favorable: 1 });
    expect(Array.from(ds.x.subarray(0, 4))).toEqual([0, 23, 0, 0.5]);
    expect(Array.from(ds.y)).toEqual([1, 0, 1]);
    expect(ds.metadata.rowsDropped['missing value']).toBe(1);
  });

  it('missing policy: error names line and column; mode fills the most frequent value', () => {
    expect(() => loadCsv(text, declared)).toThrow(/line 5, column "age"/);
    const ds = loadCsv(`${text}\nm,41,Rome,1,no`, declared, { missing: 'mode' });
    expect(ds.n).toBe(5);
    expect(ds.x[3 * 4 + 1]).toBe(41);
  });

  it('honours declared kinds, category order, column subset and delimiter detection', () => {
    const semi = 'grade;sex;ok\nlow;f;1\nhigh;m;0\nmid;f;1\n';
    const ds = loadCsv(semi, {
      outcome: 'ok',
      favorable: '1',
      protected: ['sex'],
      categories: { grade: ['low', 'mid', 'high'] },
      kinds: { grade: 'ordinal' },
    });
    expect(ds.schema.attributes[0]).toMatchObject({ kind: 'ordinal', categories: ['low', 'mid', 'high'] });
    expect(Array.from(ds.x)).toEqual([0, 0, 2, 1, 1, 0]);
    const sub = loadCsv(text, { ...declared, columns: ['sex', 'city'] }, { missing: 'drop' });
    expect(sub.schema.attributes.map((a) => a.name)).toEqual(['sex', 'city']);
  });

  it('reads a file path, gzipped or not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fb-csv-'));
    writeFileSync(join(dir, 'a.csv'), text);
    writeFileSync(join(dir, 'a.csv.gz'), gzipSync(text));
    expect(loadCsv(join(dir, 'a.csv'), declared, { missing: 'drop' }).n).toBe(3);
    expect(loadCsv(join(dir, 'a.csv.gz'), declared, { missing: 'drop' }).n).toBe(3);
  });

  it('clear errors for bad declarations and data', () => {
    expect(() => loadCsv(text, { ...declared, outcome: 'salary' })).toThrow(SchemaError);
    expect(() => loadCsv(text, { ...declared, protected: ['gender'] }, { missing: 'drop' })).toThrow(
      /"gender"/,
    );
    expect(() => loadCsv(text, { ...declared, favorable: 'maybe' }, { missing: 'drop' })).toThrow(
      /labels: no, yes/,
    );
    expect(() => loadCsv(text, { ...declared, kinds: { city: 'continuous' } }, { missing: 'drop' })).toThrow(
      /holds text/,
    );
    expect(() => loadCsv('a,b\n1,2,3\n', { outcome: 'b', favorable: '2', protected: ['a'] })).toThrow(
      DataError,
    );
    expect(() => loadCsv('s,y\nf,1\nm,1\n', { outcome: 'y', favorable: '1', protected: ['s'] })).toThrow(
      /single label/,
    );
    expect(() => loadCsv('/no/such/file.csv', declared)).toThrow(/no CSV file/);
  });
});

describe('parseDelimited', () => {
  it('handles quotes, doubled quotes, CRLF and a # inside a cell', () => {
    expect(parseDelimited('a;"b;c"\r\n"say ""hi""";Poss ID#\r\n', ';')).toEqual([
      ['a', 'b;c'],
      ['say "hi"', 'Poss ID#'],
    ]);
  });
});

describe('binAttribute', () => {
  it('bins a numeric attribute into ordered bands, keeping the protected flag', () => {
    const ds = loadCsv('age,s,y\n18,a,1\n25,b,0\n44,a,1\n65,b,0\n90,a,1\n', {
      outcome: 'y',
      favorable: '1',
      protected: ['age', 's'],
    });
    const binned = binAttribute(ds, 'age', AGE_BANDS);
    expect(binned.schema.attributes[0]).toMatchObject({
      kind: 'ordinal',
      protected: true,
      categories: ['<25', '25-45', '45-65', '>=65'],
    });
    expect([0, 1, 2, 3, 4].map((i) => binned.x[i * 2])).toEqual([0, 1, 1, 3, 3]);
    expect(() => binAttribute(ds, 's', [1])).toThrow(/categorical/);
    expect(() => binAttribute(ds, 'age', [30, 20])).toThrow(/increasing/);
  });
});
