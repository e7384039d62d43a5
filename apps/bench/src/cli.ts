#!/usr/bin/env node
import { existsSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { expandCells } from './plan/cells.js';
import { loadStudy, type Study } from './plan/config.js';
import { estimateStudy, formatEstimate, sampleBlocks } from './plan/estimate.js';
import { parseOnly } from './plan/only.js';
import { dataFitKey } from './run/prefit.js';
import { describeOutcome, runStudy } from './run/run-study.js';
import { ResultStore } from './run/store.js';

/** How many of these cells the store at `path` holds. */
async function countKept(path: string, keys: ReadonlySet<string>): Promise<number> {
  const store = await ResultStore.open(path);
  try {
    return (await store.records()).filter((r) => keys.has(r.key)).length;
  } finally {
    store.close();
  }
}

/** Run a stratified sample of the study's blocks (into its own store) and print the time estimate. */
async function estimate(
  study: Study,
  outDir: string,
  perPlan: number,
  workers: number | undefined,
  signal: AbortSignal,
  fresh: boolean,
): Promise<void> {
  const cells = await expandCells(study);
  const sample = sampleBlocks(cells, perPlan);
  const keys = new Set(sample.map((c) => c.key));
  const storePath = join(outDir, 'cells.duckdb');
  // Sampled cells the store already holds are read, not run: an estimate made after its study is no test of it.
  const before = !fresh && existsSync(storePath) ? await countKept(storePath, keys) : 0;
  await runStudy(study, {
    outDir,
    fresh,
    select: (matching) => matching.filter((c) => keys.has(c.key)),
    ...(workers !== undefined ? { workers } : {}),
    // A sampled cell's time is its one run's.
    retries: 0,
    report: false,
    signal,
  });
  const store = await ResultStore.open(storePath);
  try {
    const sampled = (await store.records()).filter((r) => keys.has(r.key));
    const w = workers ?? study.workers ?? availableParallelism();
    console.log(
      `${cells.length} cells; ${sampled.length} sampled (the cells of ${perPlan} blocks per kind and size of data, question and model, and of one more block for a method plan and kind and size of data they miss). Load: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const e = estimateStudy(cells, sampled, dataFitKey);
    console.log(formatEstimate(e, w));
    // Kept beside the study's results, for the time targets of `pnpm bench:perf` to compare with a run.
    const { plans: _plans, ...totals } = e;
    writeFileSync(
      join(outDir, 'estimate.json'),
      `${JSON.stringify({ study: study.name, perStratum: perPlan, cells: cells.length, sampled: sampled.length, ranByEstimate: sampled.length - before, workers: w, load: loadavg(), at: new Date().toISOString(), ...totals }, null, 2)}\n`,
    );
  } finally {
    store.close();
  }
}

const usage = `usage: fairbench-study [--study <name|file>] [--out <dir>] [--resume | --fresh] [--retry-failed]
                       [--retries <n>] [--only method=<id>[,<id>...]] [--workers <n>] [--estimate <k>]

  --study         a study in studies/ (default, smoke, full) or a JSON/YAML file (default: default)
  --out           result directory (default: results/<study name>)
  --resume        continue a stopped run: stored cells are skipped (the default)
  --fresh         discard the stored cells and run everything again
  --retry-failed  run again the cells stored as failed
  --retries       run a cell that fails in this run up to n more times, by fresh workers once the
                  other cells are done (default 1; 0: never)
  --only          run only matching cells: method=, label=, dataset= or model= (repeatable)
  --workers       worker threads (default: the study's, else one per core)
  --estimate      run every cell of k sampled blocks (data set, seed, question, model) of each
                  kind of data (planted bias, no bias, real), size of data (a real data set, or
                  the rows and group sizes generated), question and model, stored like any
                  cell, and print the study's estimated time and where it goes (kept in
                  <out>/estimate.json); with --fresh, on an emptied store, so that no cell of an
                  earlier run is read instead of timed`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      study: { type: 'string', default: 'default' },
      out: { type: 'string' },
      fresh: { type: 'boolean', default: false },
      resume: { type: 'boolean', default: false },
      'retry-failed': { type: 'boolean', default: false },
      retries: { type: 'string', default: '1' },
      only: { type: 'string', multiple: true, default: [] },
      workers: { type: 'string' },
      estimate: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  if (values.fresh && values.resume) throw new Error('--fresh and --resume exclude each other');
  const study = loadStudy(values.study!);
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers > 0)) {
    throw new Error(`--workers must be a positive integer, got ${values.workers}`);
  }
  const retries = Number(values.retries);
  if (!(Number.isInteger(retries) && retries >= 0)) {
    throw new Error(`--retries must be a whole number of at least 0, got ${values.retries}`);
  }
  const controller = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('\ninterrupted: finished cells are stored; rerun to resume\n');
    controller.abort();
  });
  const outDir = resolve(values.out ?? `results/${study.name}`);
  if (values.estimate !== undefined) {
    const perPlan = Number(values.estimate);
    if (!(Number.isInteger(perPlan) && perPlan > 0)) {
      throw new Error(`--estimate must be a positive integer, got ${values.estimate}`);
    }
    await estimate(study, outDir, perPlan, workers, controller.signal, values.fresh!);
    return;
  }
  const outcome = await runStudy(study, {
    outDir,
    fresh: values.fresh!,
    retryFailed: values['retry-failed']!,
    retries,
    only: parseOnly(values.only!),
    ...(workers !== undefined ? { workers } : {}),
    signal: controller.signal,
  });
  if (controller.signal.aborted) process.exitCode = 130;
  if (outcome.summary) console.log(`\n${outcome.summary}\n`);
  console.log(describeOutcome(outcome));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
