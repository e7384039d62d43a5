import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type Study, validateStudy } from '../plan/config.js';
import type { CellRecord } from '../run/record.js';

/** Records in key order: a report built from them depends on the records alone, not on run order. */
export const byKey = (a: CellRecord, b: CellRecord): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** The per-cell results beside a report: every stored record, one JSON line each, gzipped. */
export const CELLS_FILE = 'cells.jsonl.gz';
/** The study the records belong to, as validated (defaults filled in). */
export const STUDY_FILE = 'study.json';

/**
 * Write the records (in key order, so that the same results give the same bytes) and the study
 * beside a report: any table can then be recomputed without running the study again.
 */
export function writeCells(outDir: string, study: Study, records: readonly CellRecord[]): void {
  const lines = [...records]
    .sort(byKey)
    .map((r) => JSON.stringify(r))
    .join('\n');
  writeFileSync(join(outDir, CELLS_FILE), gzipSync(`${lines}\n`, { level: 9 }));
  writeFileSync(join(outDir, STUDY_FILE), `${JSON.stringify(study, null, 1)}\n`);
}

/** The study and records a report folder holds (see `writeCells`). */
export function readCells(dir: string): { study: Study; records: CellRecord[] } {
  const study = validateStudy(JSON.parse(readFileSync(join(dir, STUDY_FILE), 'utf8')), join(dir, STUDY_FILE));
  const text = gunzipSync(readFileSync(join(dir, CELLS_FILE))).toString('utf8');
  const records = text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as CellRecord);
  return { study, records };
}
