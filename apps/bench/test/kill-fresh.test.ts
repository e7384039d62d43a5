import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from '@fb/core';
import { afterEach, describe, expect, it } from 'vitest';
import { expandCells } from '../src/plan/cells.js';
import type { CellRecord } from '../src/run/record.js';
import { MAX_TIMER_SECONDS, runStudy } from '../src/run/run-study.js';
import { ResultStore, StoreInUseError } from '../src/run/store.js';
import { cleanTempDirs, tempDir, tinyStudy, workerUrl } from './helpers.js';

afterEach(cleanTempDirs);

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const quiet = { tty: false, write: () => {} };

async function stored(outDir: string): Promise<CellRecord[]> {
  const store = await ResultStore.open(join(outDir, 'cells.duckdb'));
  try {
    return await store.records();
  } finally {
    store.close();
  }
}

/** What must not depend on how often the run was interrupted (wall times and seconds per finding do). */
function comparable(r: CellRecord) {
  const { dss: _dss, ...metrics } = r.metrics ?? { dss: null };
  return { key: r.key, status: r.status, error: r.error, modelFingerprint: r.modelFingerprint, metrics };
}
const byKey = (rs: CellRecord[]) => rs.map(comparable).sort((a, b) => (a.key < b.key ? -1 : 1));

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function study(args: string[]): { child: ChildProcess; done: Promise<Finished>; stderr: () => string } {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<Finished>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done, stderr: () => stderr };
}

async function until(ready: () => boolean, seconds: number): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  while (!ready()) {
    if (performance.now() > deadline) throw new Error(`not ready after ${seconds} s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the real DuckDB store under kills and concurrent runs', () => {
  it('ten kill -9 at random points lose no stored cell and duplicate none', async () => {
    const dir = tempDir();
    const spec = tinyStudy({ seeds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] });
    const studyFile = join(dir, 'kill.json');
    writeFileSync(studyFile, JSON.stringify(spec));
    const all = (await expandCells(spec)).map((c) => c.key);
    const reference = await runStudy(spec, {
      outDir: join(dir, 'reference'),
      workerUrl,
      report: false,
      progress: quiet,
    });
    expect(reference.ran).toBe(all.length);

    const outDir = join(dir, 'killed');
    // Kill points drawn from the seeded generator: from before the first cell to mid-study.
    const rng = createRng('kill-test');
    let before = 0;
    let kills = 0;
    for (let k = 0; k < 10; k++) {
      const run = study(['--study', studyFile, '--out', outDir, '--workers', '1']);
      const delay = rng.uniform(0.2, 2.5);
      const timer = setTimeout(() => run.child.kill('SIGKILL'), delay * 1000);
      const end = await run.done;
      clearTimeout(timer);
      if (end.signal === 'SIGKILL') kills++;
      else expect(end.code, end.stderr).toBe(0);
      const keys = (await stored(outDir)).map((r) => r.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const key of keys) expect(all).toContain(key);
      // Nothing stored before a kill is ever lost.
      expect(keys.length).toBeGreaterThanOrEqual(before);
      before = keys.length;
      if (before === all.length) break;
    }
    expect(kills).toBeGreaterThan(0);
    const last = await runStudy(spec, { outDir, workerUrl, report: false, progress: quiet });
    expect(last).toMatchObject({ skipped: before, ran: all.length - before });
    const final = await stored(outDir);
    expect(final).toHaveLength(all.length);
    expect(byKey(final)).toEqual(byKey(await stored(join(dir, 'reference'))));
  }, 240_000);

  it('--fresh while another run holds the store refuses, and the first run keeps every cell', async () => {
    const dir = tempDir();
    // Cells that each search for a second of a large domain: the first run is still going when the
    // second starts (which takes several seconds on a loaded machine: five cells were not enough).
    const spec = tinyStudy({
      seeds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
      synthetic: {
        generator: 'planted-pair',
        base: { rows: 300, otherAttributes: 8, otherValues: 10 },
        factors: { bias: [-3] },
      },
      budget: { maxSeconds: 1 },
      methods: [
        {
          label: 'A random',
          method: 'aequitas',
          options: { strategy: 'random', globalIterations: 1_000_000, localIterations: 1_000_000 },
        },
      ],
    });
    const studyFile = join(dir, 'fresh.json');
    writeFileSync(studyFile, JSON.stringify(spec));
    const outDir = join(dir, 'out');
    const first = study(['--study', studyFile, '--out', outDir, '--workers', '1']);
    // Wait until the first run holds the store and has stored a cell.
    await until(() => /^\[\d+\/\d+\]/m.test(first.stderr()), 60);
    const second = await study(['--study', studyFile, '--out', outDir, '--fresh', '--workers', '1']).done;
    // The refusal is only a test of the lock if the first run was still going.
    expect(first.child.exitCode, `${second.stderr}\n${first.stderr()}`).toBeNull();
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).toMatch(/in use by another run/);
    const end = await first.done;
    expect(end.code, end.stderr).toBe(0);
    const ran = Number(/^(\d+) cells run/m.exec(end.stdout)?.[1]);
    const keys = (await stored(outDir)).map((r) => r.key);
    expect(keys).toHaveLength(ran);
    expect(new Set(keys)).toEqual(new Set((await expandCells(spec)).map((c) => c.key)));

    // With the store free, --fresh empties it and runs everything again.
    const again = await study(['--study', studyFile, '--out', outDir, '--fresh', '--workers', '1']).done;
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(
        `^${keys.length} cells run \\(0 failed\\) in [\\d.]+ s, \\d+ cells/h; 0 already stored`,
        'm',
      ),
    );
  }, 180_000);

  it('the store refuses a second opener in another process with StoreInUseError', async () => {
    const path = join(tempDir(), 'cells.duckdb');
    const holder = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { DuckDBInstance } = await import(${JSON.stringify(import.meta.resolve('@duckdb/node-api'))});
         const db = await DuckDBInstance.create(${JSON.stringify(path)});
         process.stdout.write('open\\n');
         setInterval(() => db, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      let out = '';
      holder.stdout!.on('data', (c: Buffer) => (out += c.toString()));
      await until(() => out.includes('open'), 30);
      await expect(ResultStore.open(path, { fresh: true })).rejects.toBeInstanceOf(StoreInUseError);
      await expect(ResultStore.open(path)).rejects.toBeInstanceOf(StoreInUseError);
    } finally {
      holder.kill('SIGKILL');
    }
  }, 60_000);

  it('a cellTimeoutSeconds beyond the timer limit runs the cells instead of failing them at once', async () => {
    const outcome = await runStudy(tinyStudy({ seeds: [1], cellTimeoutSeconds: 10 * MAX_TIMER_SECONDS }), {
      outDir: tempDir(),
      workerUrl,
      report: false,
      progress: quiet,
    });
    expect(outcome).toMatchObject({ ran: 2, failed: 0 });
  }, 60_000);
});
