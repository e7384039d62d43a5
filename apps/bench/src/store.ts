import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

/** What the store keeps per finished cell. */
export interface CellRecord {
  key: string;
  scenario: string;
  seed: number;
  method: string;
  label: string;
  modelAccuracy: number;
  metrics: { tsn: number; dsn: number; sur: number; dss: number | null; queries: number };
  stopReason: string;
  wallSeconds: number;
  /** Evaluation against the planted truth. */
  hit: boolean;
  /** Individual: precision of pairs; subgroup: best Jaccard with the planted subgroup. */
  quality: number | null;
  qualityName: 'precision' | 'jaccard';
  pValue: number | null;
}

/**
 * Append-only JSON Lines store: one line per finished cell, written with a single append, so a
 * killed run loses nothing finished and a rerun skips what is stored. A torn last line (a kill in
 * mid-write) is ignored on reading.
 */
export class ResultStore {
  readonly path: string;
  constructor(path: string, fresh = false) {
    this.path = path;
    mkdirSync(dirname(path), { recursive: true });
    if (fresh && existsSync(path)) rmSync(path);
  }

  read(): CellRecord[] {
    if (!existsSync(this.path)) return [];
    const out: CellRecord[] = [];
    for (const line of readFileSync(this.path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as CellRecord);
      } catch {
        // torn line from an interrupted write: the cell will be rerun
      }
    }
    return out;
  }

  append(record: CellRecord): void {
    appendFileSync(this.path, `${JSON.stringify(record)}\n`);
  }
}
