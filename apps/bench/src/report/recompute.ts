import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCells } from './cells-file.js';
import { buildReport } from './report.js';
import { csv, type Table } from './tables.js';

/**
 * Recompute every table of a report folder from its per-cell results and compare each with the CSV
 * the folder holds: the names of tables that differ, are missing, or are there without being made.
 * `derived` makes the tables built from the report's own (the article's), once the report's are checked.
 */
export async function staleTables(dir: string, derived?: (dir: string) => Table[]): Promise<string[]> {
  const { study, records } = readCells(dir);
  const report = await buildReport(study, records);
  const out: string[] = [];
  const made = new Set<string>();
  for (const t of [...report.tables, ...(derived ? derived(dir) : [])]) {
    made.add(`${t.name}.csv`);
    const path = join(dir, 'tables', `${t.name}.csv`);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== csv(t)) out.push(t.name);
  }
  for (const f of readdirSync(join(dir, 'tables'))) {
    if (f.endsWith('.csv') && !made.has(f)) out.push(f.slice(0, -4));
  }
  return out.sort();
}
