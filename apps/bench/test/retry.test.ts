import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expandCells } from '../src/plan/cells.js';
import { buildReport } from '../src/report/report.js';
import { failedRecord, mayPassAgain } from '../src/run/record.js';
import { type CellExecutor, runStudy } from '../src/run/run-study.js';
import { ResultStore } from '../src/run/store.js';
import { cleanTempDirs, tempDir, tinyStudy } from './helpers.js';

afterEach(cleanTempDirs);

const quiet = { tty: false, write: () => {} };

/**
 * An executor that fails cell `flaky` on its first attempt only and cell `broken` every time; every
 * other cell passes. It records the size of each pass it is given.
 */
function scriptedExecutor(flaky: string, broken: string, passes: number[]): CellExecutor {
  const attempts = new Map<string, number>();
  return async (cells, _opts, events) => {
    passes.push(cells.length);
    for (const cell of cells) {
      const n = (attempts.get(cell.key) ?? 0) + 1;
      attempts.set(cell.key, n);
      const record = failedRecord(cell, `Error: attempt ${n} failed`, 0.1);
      const fails = cell.key === broken || (cell.key === flaky && n === 1);
      const metrics = { tsn: 10, dsn: 0, sur: 0, dss: null, pairs: 0, queries: 10, distinctQueries: 10 };
      await events.onFinish(
        fails ? record : { ...record, status: 'done', error: null, family: 'individual', metrics },
        cell,
      );
    }
  };
}

describe('retries', () => {
  it('runs a failed cell again in a later pass; the stored record keeps the earlier errors', async () => {
    const outDir = tempDir();
    const study = tinyStudy();
    const cells = await expandCells(study);
    const [flaky, broken] = [cells[0]!.key, cells[1]!.key];
    const passes: number[] = [];
    const executor = scriptedExecutor(flaky, broken, passes);
    const outcome = await runStudy(study, { outDir, executor, retries: 2, report: false, progress: quiet });
    // Every cell once, then the two failures, then the one still failing.
    expect(passes).toEqual([cells.length, 2, 1]);
    expect(outcome).toMatchObject({ ran: cells.length, failed: 1 });

    const store = await ResultStore.open(join(outDir, 'cells.duckdb'));
    const records = await store.records();
    store.close();
    expect(records).toHaveLength(cells.length);
    const byKey = new Map(records.map((r) => [r.key, r]));
    expect(byKey.get(flaky)).toMatchObject({
      status: 'done',
      error: null,
      retriedAfter: ['Error: attempt 1 failed'],
    });
    expect(byKey.get(broken)).toMatchObject({
      status: 'failed',
      error: 'Error: attempt 3 failed',
      retriedAfter: ['Error: attempt 1 failed', 'Error: attempt 2 failed'],
    });
    const once = records.filter((r) => r.key !== flaky && r.key !== broken);
    expect(once.every((r) => r.status === 'done' && r.retriedAfter === undefined)).toBe(true);

    const report = await buildReport(study, records);
    expect(report.markdown).toContain('Cells that failed, then passed when run again');
    expect(report.tables.find((t) => t.name === 'retried')?.rows).toEqual([
      [cells[0]!.plan.label, cells[0]!.blockLabel, 'Error: attempt 1 failed'],
    ]);
  });

  it("does not run again a cell that failed on one of the toolkit's typed errors", async () => {
    const study = tinyStudy();
    const cells = await expandCells(study);
    const passes: number[] = [];
    const executor: CellExecutor = async (pass, _opts, events) => {
      passes.push(pass.length);
      for (const cell of pass) {
        await events.onFinish(failedRecord(cell, 'OptionsError: granularity 3 exceeds 2', 0.1), cell);
      }
    };
    const outcome = await runStudy(study, { outDir: tempDir(), executor, report: false, progress: quiet });
    expect(passes).toEqual([cells.length]);
    expect(outcome).toMatchObject({ ran: cells.length, failed: cells.length });
    expect(mayPassAgain(failedRecord(cells[0]!, 'worker exited with code 134', 1))).toBe(true);
    expect(mayPassAgain(failedRecord(cells[0]!, 'overrun: still running after 120 s', 1))).toBe(true);
    expect(mayPassAgain(failedRecord(cells[0]!, 'DataError: every row has the same outcome', 1))).toBe(false);
  });

  it('retries 0 runs each cell once, and the default runs a failure once more', async () => {
    const study = tinyStudy();
    const cells = await expandCells(study);
    for (const [retries, expected] of [
      [0, [cells.length]],
      [undefined, [cells.length, 2]],
    ] as const) {
      const passes: number[] = [];
      const executor = scriptedExecutor(cells[0]!.key, cells[1]!.key, passes);
      const outcome = await runStudy(study, {
        outDir: tempDir(),
        executor,
        ...(retries === undefined ? {} : { retries }),
        report: false,
        progress: quiet,
      });
      expect(passes).toEqual(expected);
      expect(outcome.failed).toBe(retries === 0 ? 2 : 1);
    }
  });
});
