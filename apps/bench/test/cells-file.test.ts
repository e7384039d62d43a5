import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readCells } from '../src/report/cells-file.js';
import { staleTables } from '../src/report/recompute.js';
import { writeReport } from '../src/report/report.js';
import { cleanTempDirs, tempDir, tinyStudy } from './helpers.js';
import { sampleRecords } from './records.js';

afterEach(cleanTempDirs);

describe('the per-cell results beside a report', () => {
  it('hold every record and the study, and recompute every table as written', async () => {
    const dir = tempDir();
    const records = sampleRecords();
    await writeReport(tinyStudy(), records, dir);
    const back = readCells(dir);
    // Every record, whatever order the store gave them in (the file is in key order).
    const byKey = (rs: typeof records) => [...rs].sort((a, b) => (a.key < b.key ? -1 : 1));
    expect(back.records).toEqual(byKey(records));
    expect(back.study.name).toBe(tinyStudy().name);
    expect(await staleTables(dir)).toEqual([]);
  });

  it('name a table whose CSV no longer matches the records, and one no report makes', async () => {
    const dir = tempDir();
    await writeReport(tinyStudy(), sampleRecords(), dir);
    const path = join(dir, 'tables', 'models.csv');
    writeFileSync(path, readFileSync(path, 'utf8').replace('0.8', '0.9'));
    writeFileSync(join(dir, 'tables', 'extra.csv'), 'a\n1\n');
    expect(await staleTables(dir)).toEqual(['extra', 'models']);
  });

  it('give the same bytes for the same records in any order', async () => {
    const a = tempDir();
    const b = tempDir();
    await writeReport(tinyStudy(), sampleRecords(), a);
    await writeReport(tinyStudy(), sampleRecords().reverse(), b);
    expect(readFileSync(join(a, 'cells.jsonl.gz'))).toEqual(readFileSync(join(b, 'cells.jsonl.gz')));
  });
});
