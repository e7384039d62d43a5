import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { expandCells } from '../src/plan/cells.js';
import { runStudy } from '../src/run/run-study.js';
import { ResultStore } from '../src/run/store.js';
import { cleanTempDirs, tempDir, tinyStudy, workerUrl } from './helpers.js';

afterEach(cleanTempDirs);

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const quiet = { tty: false, write: () => {} };

async function storedKeys(outDir: string): Promise<string[]> {
  const store = await ResultStore.open(join(outDir, 'cells.duckdb'));
  try {
    return (await store.records()).map((r) => r.key);
  } finally {
    store.close();
  }
}

/** Run the CLI on a study file and SIGKILL it as soon as it reports `killAfter` stored cells. */
function runAndKill(studyFile: string, outDir: string, killAfter: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, '--study', studyFile, '--out', outDir, '--workers', '1'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let seen = 0;
    let buffer = '';
    child.stderr.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      seen = (buffer.match(/^\[\d+\/\d+\]/gm) ?? []).length;
      if (seen >= killAfter) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve(seen) : reject(new Error(`exited: ${buffer}`)),
    );
  });
}

describe('resume', () => {
  it('a study killed mid-run loses no stored cell and a rerun completes it without duplicates', async () => {
    const dir = tempDir();
    const studyFile = join(dir, 'tiny.json');
    const study = tinyStudy({ seeds: [1, 2, 3, 4] });
    writeFileSync(studyFile, JSON.stringify(study));
    const outDir = join(dir, 'out');
    const reported = await runAndKill(studyFile, outDir, 3);
    const afterKill = await storedKeys(outDir);
    // Every cell reported as stored before the kill is in the store (commits precede the report line).
    expect(afterKill.length).toBeGreaterThanOrEqual(reported);
    const all = (await expandCells(study)).map((c) => c.key);
    expect(afterKill.length).toBeLessThan(all.length);

    const outcome = await runStudy(study, { outDir, workerUrl, report: false, progress: quiet });
    expect(outcome.skipped).toBe(afterKill.length);
    expect(outcome.ran).toBe(all.length - afterKill.length);
    const final = await storedKeys(outDir);
    expect(final).toHaveLength(all.length);
    expect(new Set(final)).toEqual(new Set(all));
    // The cells stored before the kill were kept, not run again.
    const again = await runStudy(study, { outDir, workerUrl, report: false, progress: quiet });
    expect(again).toMatchObject({ ran: 0, skipped: all.length });
  }, 60_000);

  it('aborting the pool keeps exactly the cells reported stored; --only narrows the rerun', async () => {
    const outDir = tempDir();
    // Cells finish faster than the store commits them; with 16 cells the abort after the second
    // commit still comes long before the last cell is done, even on a loaded machine.
    const study = tinyStudy({ seeds: [1, 2, 3, 4, 5, 6, 7, 8] });
    const controller = new AbortController();
    let stored = 0;
    await runStudy(study, {
      outDir,
      workerUrl,
      report: false,
      progress: quiet,
      signal: controller.signal,
      onStored: () => {
        if (++stored === 2) controller.abort();
      },
    });
    // A cell finished while the abort was being handled may still be written, and is then reported.
    expect(stored).toBeGreaterThanOrEqual(2);
    expect(await storedKeys(outDir)).toHaveLength(stored);
    expect(stored).toBeLessThan(16);
    const only = await runStudy(study, {
      outDir,
      workerUrl,
      report: false,
      progress: quiet,
      only: { label: ['A random'] },
    });
    const cells = await expandCells(study);
    const keys = await storedKeys(outDir);
    expect(keys).toHaveLength(new Set(keys).size);
    for (const c of cells.filter((c) => c.plan.label === 'A random')) expect(keys).toContain(c.key);
    expect(only.skipped + only.ran).toBe(8);
    expect(keys).toHaveLength(stored + only.ran);
  }, 60_000);
});

describe('failures', () => {
  it('records a throwing cell and an overrunning cell as failed and goes on', async () => {
    const outDir = tempDir();
    // granularity 3 exceeds the 2 non-protected attributes of the second scenario: the generator throws.
    const study = tinyStudy({
      seeds: [1],
      synthetic: {
        generator: 'planted-pair',
        base: { rows: 300, otherValues: 3 },
        factors: { otherAttributes: [3, 2], granularity: [3] },
      },
    });
    const outcome = await runStudy(study, { outDir, workerUrl, report: false, progress: quiet, workers: 2 });
    expect(outcome).toMatchObject({ ran: 4, failed: 2 });
    const store = await ResultStore.open(join(outDir, 'cells.duckdb'));
    const records = await store.records();
    store.close();
    const failed = records.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.dataset.label).sort()).toEqual([
      'otherAttributes=2, granularity=3',
      'otherAttributes=2, granularity=3',
    ]);
    expect(failed[0]!.error).toMatch(/OptionsError: granularity 3 exceeds/);
    expect(records.filter((r) => r.status === 'done')).toHaveLength(2);

    const overrun = await runStudy(tinyStudy({ seeds: [1], cellTimeoutSeconds: 0.001 }), {
      outDir: tempDir(),
      workerUrl,
      report: false,
      progress: quiet,
    });
    expect(overrun).toMatchObject({ ran: 2, failed: 2 });
  }, 60_000);
});
