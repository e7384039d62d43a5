import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { skill } from '../analyse/skill.js';
import { appRoot } from '../paths.js';
import { type Cell, expandCells } from '../plan/cells.js';
import type { Study } from '../plan/config.js';
import { writeReport } from '../report/report.js';
import { skillSummary } from '../report/skill-summary.js';
import { type PoolEvents, type PoolOptions, runPool } from './pool.js';
import { StudyProgress } from './progress.js';
import { type CellRecord, mayPassAgain } from './record.js';
import { ResultStore } from './store.js';

export interface RunStudyOptions {
  outDir: string;
  /** Discard the stored cells first. Otherwise the run resumes: stored cells are skipped. */
  fresh?: boolean;
  /** Run again the cells stored as failed. */
  retryFailed?: boolean;
  /**
   * How many more times a cell that fails in this run is run, by fresh workers once the others are
   * done (default 1). A failure that a second run does not repeat (a worker crash, an overrun under
   * load) then leaves no hole; the record keeps the earlier errors (`retriedAfter`). The toolkit's
   * typed errors (bad input, a broken contract) are not run again: every run repeats them.
   */
  retries?: number;
  /** Run only cells matching every filter: `method`, `label`, `dataset` or `model` -> accepted values. */
  only?: Partial<Record<'method' | 'label' | 'dataset' | 'model', string[]>>;
  /** Run only the cells this picks from the matching ones (e.g. a sample for a time estimate). */
  select?: (cells: readonly Cell[]) => Cell[];
  workers?: number;
  /** The worker script (default: worker.js next to this module, i.e. in dist). */
  workerUrl?: URL;
  /**
   * Runs the cells and reports each back (default: `runPool`, worker threads on this machine). Another
   * executor may run them elsewhere; the store is written here either way, one cell at a time.
   */
  executor?: CellExecutor;
  /** Aborting stops the pool at once, like a kill. */
  signal?: AbortSignal;
  /** Called after each cell is stored. */
  onStored?: (record: CellRecord) => void;
  /** Write the report (default true). */
  report?: boolean;
  progress?: { tty?: boolean; write?: (text: string) => void };
}

/** The longest timeout a Node timer can hold, 2^31 - 1 ms, in whole seconds (24.8 days). */
export const MAX_TIMER_SECONDS = 2_147_483;

/** Runs cells, calling `events.onFinish` once per cell with its record (the signature of `runPool`). */
export type CellExecutor = (cells: readonly Cell[], opts: PoolOptions, events: PoolEvents) => Promise<void>;

export interface StudyOutcome {
  cells: number;
  skipped: number;
  ran: number;
  failed: number;
  /** Wall-clock seconds from handing out the first cell to storing the last, without the report. */
  runSeconds: number;
  reportPath: string | null;
  /** The skill table in a few lines for the terminal (null without a report). */
  summary: string | null;
}

/** One line for the end of a run: what ran, how long it took and the cells per hour. */
export function describeOutcome(o: StudyOutcome): string {
  const time = o.runSeconds < 120 ? `${o.runSeconds.toFixed(1)} s` : `${(o.runSeconds / 60).toFixed(1)} min`;
  const rate = o.ran > 0 && o.runSeconds > 0 ? `, ${Math.round((o.ran / o.runSeconds) * 3600)} cells/h` : '';
  return `${o.ran} cells run (${o.failed} failed) in ${time}${rate}; ${o.skipped} already stored, of ${o.cells}`;
}

function matches(cell: Cell, only: NonNullable<RunStudyOptions['only']>): boolean {
  const fields = {
    method: cell.plan.method,
    label: cell.plan.label,
    dataset: cell.dataset.label,
    model: cell.model.label,
  };
  return Object.entries(only).every(([k, vs]) => !vs || vs.includes(fields[k as keyof typeof fields]));
}

/** Run the study's unfinished cells in the worker pool, storing each as it finishes; then report. */
export async function runStudy(study: Study, opts: RunStudyOptions): Promise<StudyOutcome> {
  const store = await ResultStore.open(join(opts.outDir, 'cells.duckdb'), { fresh: opts.fresh ?? false });
  try {
    const cells = await expandCells(study);
    const stored = await store.statuses();
    const matching = cells.filter((c) => matches(c, opts.only ?? {}));
    const selected = opts.select ? opts.select(matching) : matching;
    const todo = selected.filter((c) => {
      const s = stored.get(c.key);
      return s === undefined || (s === 'failed' && opts.retryFailed);
    });
    const workers = opts.workers ?? study.workers ?? availableParallelism();
    const write = opts.progress?.write ?? ((t: string) => process.stderr.write(t));
    write(
      `study "${study.name}": ${cells.length} cells, ${selected.length} selected, ${selected.length - todo.length} already stored, ${todo.length} to run ${opts.executor ? 'by the given executor' : `on ${Math.min(workers, Math.max(1, todo.length))} workers`}\n`,
    );
    let failed = 0;
    let ran = 0;
    const execute = opts.executor ?? runPool;
    const retries = opts.retries ?? 1;
    const started = performance.now();
    // Errors of earlier attempts in this run, by cell key.
    const earlier = new Map<string, string[]>();
    let pass = todo;
    for (let attempt = 0; pass.length > 0; attempt++) {
      const again: Cell[] = [];
      const progress = new StudyProgress(pass.length, workers, opts.progress);
      await execute(
        pass,
        {
          workers,
          // Node timers hold at most 2^31 - 1 ms; a longer timeout would fire at once (every cell an overrun).
          cellTimeoutSeconds: Math.min(study.cellTimeoutSeconds, MAX_TIMER_SECONDS),
          workerUrl: opts.workerUrl ?? new URL('dist/worker.js', appRoot),
          ...(opts.signal ? { signal: opts.signal } : {}),
        },
        {
          onStart: (cell) => progress.start(cell),
          onEnd: (cell) => progress.end(cell),
          onProgress: (cell, p) =>
            progress.progress(
              cell,
              `${p.phase}${p.share !== null ? ` ${Math.round(100 * p.share)}%` : ''} tested=${p.tested} ${p.elapsedSeconds.toFixed(1)}s`,
            ),
          onFinish: async (record, cell) => {
            const before = earlier.get(record.key);
            const stored = before ? { ...record, retriedAfter: before } : record;
            // Stored even when it will run again, so that an interrupted run loses nothing.
            await store.put(stored);
            progress.finish(stored);
            if (mayPassAgain(record) && attempt < retries) {
              earlier.set(record.key, [...(before ?? []), record.error ?? 'failed']);
              again.push(cell);
              return;
            }
            ran++;
            if (record.status === 'failed') failed++;
            opts.onStored?.(stored);
          },
        },
      );
      progress.close();
      if (opts.signal?.aborted) break;
      if (again.length > 0) {
        write(
          `${again.length} failed cell${again.length === 1 ? '' : 's'}: running ${again.length === 1 ? 'it' : 'them'} again on fresh workers (attempt ${attempt + 2} of ${retries + 1})\n`,
        );
      }
      pass = again;
    }
    const runSeconds = (performance.now() - started) / 1000;
    let reportPath: string | null = null;
    let summary: string | null = null;
    if (opts.report ?? true) {
      const current = new Set(cells.map((c) => c.key));
      const records = (await store.records()).filter((r) => current.has(r.key));
      const elapsedSeconds = await store.elapsedSeconds(current);
      reportPath = await writeReport(study, records, opts.outDir, { elapsedSeconds });
      summary = skillSummary(skill(records));
      write(`report: ${reportPath}\n`);
    }
    return {
      cells: cells.length,
      skipped: selected.length - todo.length,
      ran,
      failed,
      runSeconds,
      reportPath,
      summary,
    };
  } finally {
    store.close();
  }
}
