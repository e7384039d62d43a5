import { bounds, protectedIndices } from '@fb/core';
import { describe, expect, it } from 'vitest';
import {
  type LoadedDataset,
  loadAdult,
  loadBank,
  loadBankLiterature,
  loadCensus13,
  loadCompas,
  loadCredit,
  loadGerman,
} from '../src/index.js';
import { DATA_DIR, HAS_DATA } from './data-dir.js';

const opts = { dataDir: DATA_DIR };
const positives = (ds: LoadedDataset) => ds.y.reduce((s, v) => s + v, 0);
const col = (ds: LoadedDataset, name: string) => {
  const j = ds.schema.attributes.findIndex((a) => a.name === name);
  return Array.from({ length: ds.n }, (_, i) => ds.x[i * ds.d + j]!);
};
const count = (values: number[], v: number) => values.filter((u) => u === v).length;
const row = (ds: LoadedDataset, i: number) => Array.from(ds.x.subarray(i * ds.d, (i + 1) * ds.d));
const protectedNames = (ds: LoadedDataset) =>
  protectedIndices(ds.schema).map((j) => ds.schema.attributes[j]!.name);

describe.skipIf(!HAS_DATA)('original files (row counts, balance and values of the dataset notes)', () => {
  it('Adult train: 30,162 complete rows of 32,561; 24.1 % positive with missing kept', async () => {
    const complete = await loadAdult(opts);
    expect(complete.n).toBe(30162);
    expect(complete.metadata.rowsDropped['missing value (?)']).toBe(2399);
    const all = await loadAdult({ ...opts, missing: 'keep' });
    expect(all.n).toBe(32561);
    expect(positives(all)).toBe(7841);
    const sex = col(all, 'sex');
    expect([count(sex, 0), count(sex, 1)]).toEqual([10771, 21790]);
    const race = col(all, 'race'); // White, Asian-Pac-Islander, Amer-Indian-Eskimo, Other, Black
    expect([0, 1, 2, 3, 4].map((v) => count(race, v))).toEqual([27816, 1039, 311, 271, 3124]);
    expect(protectedNames(all).sort()).toEqual(['race', 'sex']);
    expect(all.metadata.protected).toEqual(['race', 'sex']);
    // First record: 39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States
    expect(row(all, 0)).toEqual([39, 5, 77516, 0, 13, 2, 8, 3, 0, 1, 2174, 0, 40, 0]);
    expect(all.y[0]).toBe(0);
  });

  it('Adult: protected attributes on request, with the same encoding', async () => {
    const plain = await loadAdult({ ...opts, missing: 'keep' });
    const withAge = await loadAdult({ ...opts, missing: 'keep', protected: ['age', 'race', 'sex'] });
    expect(protectedNames(withAge).sort()).toEqual(['age', 'race', 'sex']);
    expect(withAge.metadata.protected).toEqual(['age', 'race', 'sex']);
    // Only the protected flags differ: same values, same categories.
    expect(withAge.x).toEqual(plain.x);
    expect(withAge.schema.attributes.map(({ protected: _, ...a }) => a)).toEqual(
      plain.schema.attributes.map(({ protected: _, ...a }) => a),
    );
    const sexOnly = await loadAdult({ ...opts, protected: ['sex'] });
    expect(protectedNames(sexOnly)).toEqual(['sex']);
    await expect(loadAdult({ ...opts, protected: ['gender'] as never })).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
      details: { option: '/protected' },
    });
  });

  it('Adult test: skips the header line, strips label periods', async () => {
    const test = await loadAdult({ ...opts, split: 'test', missing: 'keep' });
    expect(test.n).toBe(16281);
    expect(positives(test)).toBe(3846);
    expect((await loadAdult({ ...opts, split: 'test' })).n).toBe(15060);
  });

  it('German credit: 700 good / 300 bad, sex from A9, age and foreign worker', async () => {
    const g = await loadGerman(opts);
    expect(g.n).toBe(1000);
    expect(positives(g)).toBe(700);
    const sex = col(g, 'sex');
    expect([count(sex, 0), count(sex, 1)]).toEqual([310, 690]);
    expect(col(g, 'age').filter((a) => a > 25).length).toBe(810);
    const foreign = col(g, 'foreign_worker');
    expect([count(foreign, 0), count(foreign, 1)]).toEqual([963, 37]);
    expect(protectedNames(g).sort()).toEqual(['age', 'foreign_worker', 'sex']);
  });

  it('Bank: 45,211 rows, 11.7 % positive, marital and age counts', async () => {
    const b = await loadBank(opts);
    expect(b.n).toBe(45211);
    expect(positives(b)).toBe(5289);
    const marital = col(b, 'marital'); // married, divorced, single
    expect([0, 1, 2].map((v) => count(marital, v))).toEqual([27214, 5207, 12790]);
    expect(col(b, 'age').filter((a) => a < 25).length).toBe(809);
    // First record: 58;"management";"married";"tertiary";"no";2143;...
    expect(row(b, 0).slice(0, 6)).toEqual([58, 3, 0, 3, 0, 2143]);
  });

  it('COMPAS: ProPublica filter leaves 6,172 rows; scores aligned with rows', async () => {
    const c = await loadCompas(opts);
    expect(c.n).toBe(6172);
    expect(c.metadata.rowsRead).toBe(7214);
    expect(c.schema.outcome.favorable).toBe(0);
    expect(c.decileScore.length).toBe(c.n);
    for (let i = 0; i < c.n; i++) {
      expect(c.decileScore[i]).toBeGreaterThanOrEqual(1);
      expect(c.compasPrediction[i]).toBe(c.decileScore[i]! >= 5 ? 1 : 0);
    }
    const bw = await loadCompas({ ...opts, race: 'black-white' });
    expect(bw.schema.attributes.find((a) => a.name === 'race')!.categories).toEqual([
      'African-American',
      'Caucasian',
    ]);
    expect(bw.n + bw.metadata.rowsDropped['race not African-American or Caucasian']!).toBe(6172);
  });

  it('census13: the literature file row by row, 2,427 rows outside the bounds', async () => {
    const c = await loadCensus13(opts);
    expect(c.n).toBe(32561 - 2427);
    expect(c.metadata.rowsDropped['outside the declared bounds']).toBe(2427);
    // The first rows of the shared census file (columns a..m, label n).
    expect(row(c, 0)).toEqual([3, 5, 3, 0, 2, 8, 3, 0, 1, 2, 0, 40, 0]);
    expect(row(c, 1)).toEqual([5, 1, 4, 0, 0, 4, 2, 0, 1, 0, 0, 13, 0]);
    expect(row(c, 4)).toEqual([2, 0, 16, 0, 0, 5, 0, 4, 0, 0, 0, 40, 12]);
    const bnds = c.schema.attributes.map((a) => bounds(a));
    expect(bnds).toEqual([
      [1, 9],
      [0, 7],
      [0, 39],
      [0, 15],
      [0, 6],
      [0, 13],
      [0, 5],
      [0, 4],
      [0, 1],
      [0, 99],
      [0, 39],
      [0, 99],
      [0, 39],
    ]);
    const clipped = await loadCensus13({ ...opts, outOfBounds: 'clip' });
    expect(clipped.n).toBe(32561);
    expect(positives(clipped)).toBe(7841);
  });

  it('credit (literature encoding): all rows in bounds, age uses 1..7', async () => {
    const c = await loadCredit(opts);
    expect(c.n).toBe(1000);
    expect(positives(c)).toBe(700);
    const ages = new Set(col(c, 'age'));
    expect([...ages].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // german.data line 1: A11 6 A34 A43 1169 A65 A75 4 A93 A101 4 A121 67 A143 A152 2 A173 1 A192 A201 1
    expect(row(c, 0)).toEqual([0, 6, 4, 3, 11, 4, 4, 4, 0, 0, 4, 0, 6, 2, 1, 2, 2, 1, 1, 0]);
    expect(c.y[0]).toBe(1);
  });

  it('bank (literature encoding): the literature file row by row, pdays binary', async () => {
    const b = await loadBankLiterature(opts);
    expect(b.n).toBe(45211);
    expect(row(b, 0)).toEqual([5, 3, 0, 3, 0, 42, 1, 0, 0, 5, 4, 26, 1, 1, 0, 0]);
    expect(row(b, 25)).toEqual([4, 0, 0, 1, 0, -8, 1, 0, 0, 5, 4, 17, 1, 1, 0, 0]);
    expect(new Set(col(b, 'pdays'))).toEqual(new Set([0, 1]));
    expect(Math.max(...col(b, 'balance'))).toBe(179);
  });
});
