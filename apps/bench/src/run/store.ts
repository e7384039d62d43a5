import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { CellRecord } from './record.js';

const schema = [
  `CREATE TABLE IF NOT EXISTS cells (
    key VARCHAR PRIMARY KEY,
    block VARCHAR NOT NULL,
    dataset VARCHAR NOT NULL,
    seed INTEGER NOT NULL,
    model VARCHAR NOT NULL,
    method VARCHAR NOT NULL,
    label VARCHAR NOT NULL,
    family VARCHAR,
    status VARCHAR NOT NULL,
    error VARCHAR,
    wall_seconds DOUBLE NOT NULL,
    recall DOUBLE,
    "precision" DOUBLE,
    record JSON NOT NULL,
    finished_at TIMESTAMP NOT NULL DEFAULT current_timestamp
  )`,
  `CREATE TABLE IF NOT EXISTS groups (
    key VARCHAR NOT NULL,
    pair_id INTEGER NOT NULL,
    found BOOLEAN NOT NULL,
    similarity DOUBLE,
    granularity INTEGER,
    intersectionality INTEGER,
    bias_magnitude DOUBLE,
    size INTEGER,
    uncertainty DOUBLE,
    gap DOUBLE,
    PRIMARY KEY (key, pair_id)
  )`,
];

/** The store's file is held by another process (another run of the study). */
export class StoreInUseError extends Error {
  override name = 'StoreInUseError';
}

/**
 * The study's store: an embedded DuckDB file written by one thread only. Each finished cell is one
 * transaction (its row in `cells` and its injected groups in `groups`), so a killed run loses no
 * finished cell and never keeps half of one; a rerun skips the keys already stored.
 */
export class ResultStore {
  readonly path: string;
  private readonly instance: DuckDBInstance;
  private readonly db: DuckDBConnection;

  private constructor(path: string, instance: DuckDBInstance, db: DuckDBConnection) {
    this.path = path;
    this.instance = instance;
    this.db = db;
  }

  /**
   * Open (or create) the store, taking DuckDB's lock on the file: a store another process has open is
   * a `StoreInUseError`. `fresh` empties the store after the lock is taken, so a fresh run can never
   * delete the store of a run still going.
   */
  static async open(path: string, opts: { fresh?: boolean } = {}): Promise<ResultStore> {
    mkdirSync(dirname(path), { recursive: true });
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(path);
    } catch (e) {
      const message = (e as Error).message;
      if (/lock/i.test(message)) {
        throw new StoreInUseError(
          `the store ${path} is in use by another run; wait for it to finish or stop it first (${message})`,
        );
      }
      // An unreadable file nobody holds: --fresh discards it (no lock to respect), a resume does not.
      if (!opts.fresh || !existsSync(path)) throw e;
      for (const p of [path, `${path}.wal`]) rmSync(p, { force: true });
      instance = await DuckDBInstance.create(path);
    }
    const db = await instance.connect();
    if (opts.fresh) for (const table of ['groups', 'cells']) await db.run(`DROP TABLE IF EXISTS ${table}`);
    for (const sql of schema) await db.run(sql);
    return new ResultStore(path, instance, db);
  }

  /** Status of every stored cell, by key. */
  async statuses(): Promise<Map<string, CellRecord['status']>> {
    const reader = await this.db.runAndReadAll('SELECT key, status FROM cells');
    return new Map(reader.getRows().map(([k, s]) => [String(k), String(s) as CellRecord['status']]));
  }

  /** Store one cell (replacing an earlier record of the same key) in one transaction. */
  async put(r: CellRecord): Promise<void> {
    await this.db.run('BEGIN TRANSACTION');
    try {
      await this.db.run('DELETE FROM groups WHERE key = $1', [r.key]);
      await this.db.run('DELETE FROM cells WHERE key = $1', [r.key]);
      await this.db.run(
        `INSERT INTO cells (key, block, dataset, seed, model, method, label, family, status, error, wall_seconds, recall, "precision", record)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          r.key,
          r.block,
          r.dataset.label,
          r.seed,
          r.model,
          r.plan.method,
          r.plan.label,
          r.family,
          r.status,
          r.error,
          r.wallSeconds,
          r.score?.recall ?? null,
          r.score?.precision ?? null,
          JSON.stringify(r),
        ],
      );
      for (const g of r.score?.groups ?? []) {
        const f = g.factors;
        await this.db.run('INSERT INTO groups VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)', [
          r.key,
          g.pair,
          g.found,
          f.similarity,
          f.granularity,
          f.intersectionality,
          f.biasMagnitude,
          f.size,
          f.uncertainty,
          f.gap,
        ]);
      }
      await this.db.run('COMMIT');
    } catch (e) {
      await this.db.run('ROLLBACK');
      throw e;
    }
  }

  /** Every stored record, in the order the cells finished. */
  async records(): Promise<CellRecord[]> {
    const reader = await this.db.runAndReadAll('SELECT record FROM cells ORDER BY finished_at, key');
    return reader.getRows().map(([json]) => JSON.parse(String(json)) as CellRecord);
  }

  /**
   * Elapsed seconds while the cells with these keys ran: the union of their intervals, each from its
   * start (finish time minus its block preparation, method and scoring seconds) to its finish, so
   * that the pauses of a run stopped and resumed later are not counted. Null when none is stored.
   */
  async elapsedSeconds(keys: ReadonlySet<string>): Promise<number | null> {
    const reader = await this.db.runAndReadAll('SELECT key, epoch(finished_at), record FROM cells');
    const intervals: [number, number][] = [];
    for (const [key, end, json] of reader.getRows()) {
      if (!keys.has(String(key))) continue;
      const r = JSON.parse(String(json)) as CellRecord;
      const busy = r.wallSeconds + (r.costs?.prepareSeconds ?? 0) + (r.costs?.scoreSeconds ?? 0);
      intervals.push([Number(end) - busy, Number(end)]);
    }
    return intervals.length ? unionLength(intervals) : null;
  }

  close(): void {
    this.db.closeSync();
    this.instance.closeSync();
  }
}

/** Total length of the union of intervals [start, end]. */
export function unionLength(intervals: readonly (readonly [number, number])[]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let from = Number.NEGATIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const [start, end] of sorted) {
    if (start > to) {
      if (to > from) total += to - from;
      from = start;
      to = end;
    } else if (end > to) to = end;
  }
  return to > from ? total + (to - from) : total;
}
