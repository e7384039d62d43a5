import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProgressLine } from './progress.js';
import { reportMarkdown, resultsTable } from './report.js';
import { runCell } from './run-cell.js';
import { ResultStore } from './store.js';
import { expandCells, type Study } from './study.js';

export interface RunStudyOptions {
  outDir: string;
  fresh?: boolean;
  log?: (line: string) => void;
}

/** Run every unfinished cell of the study, store each as it finishes, then write the report. */
export async function runStudy(
  study: Study,
  opts: RunStudyOptions,
): Promise<{ report: string; table: string }> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const store = new ResultStore(join(opts.outDir, 'cells.jsonl'), opts.fresh ?? false);
  const finished = new Set(store.read().map((r) => r.key));
  const cells = expandCells(study);
  const todo = cells.filter((c) => !finished.has(c.key));
  log(
    `study "${study.name}": ${cells.length} cells, ${cells.length - todo.length} already stored, ${todo.length} to run`,
  );
  const progress = new ProgressLine();
  const t0 = performance.now();
  for (const [k, cell] of todo.entries()) {
    const prefix = `[${k + 1}/${todo.length}] ${cell.plan.label} | ${cell.scenario.label} | seed ${cell.seed}:`;
    const record = await runCell(study, cell, (p) => progress.update(prefix, p));
    store.append(record);
    progress.done(
      `${prefix} ${record.hit ? 'HIT ' : 'miss'} ${record.qualityName}=${record.quality?.toFixed(3) ?? '–'} TSN=${record.metrics.tsn} DSN=${record.metrics.dsn} ${record.wallSeconds.toFixed(1)}s (${record.stopReason})`,
    );
  }
  const records = store.read();
  const report = reportMarkdown(study, records);
  writeFileSync(join(opts.outDir, 'report.md'), report);
  log(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s; report: ${join(opts.outDir, 'report.md')}`);
  return { report, table: resultsTable(study, records) };
}
