#!/usr/bin/env node
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadStudy } from './config.js';
import { parseOnly } from './only.js';
import { runStudy } from './run-study.js';

const usage = `usage: fairbench-study [--study <name|file>] [--out <dir>] [--resume | --fresh] [--retry-failed]
                       [--only method=<id>[,<id>...]] [--workers <n>]

  --study         a study in studies/ (default, smoke, full) or a JSON/YAML file (default: default)
  --out           result directory (default: results/<study name>)
  --resume        continue a stopped run: stored cells are skipped (the default)
  --fresh         discard the stored cells and run everything again
  --retry-failed  run again the cells stored as failed
  --only          run only matching cells: method=, label=, dataset= or model= (repeatable)
  --workers       worker threads (default: the study's, else one per core)`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      study: { type: 'string', default: 'default' },
      out: { type: 'string' },
      fresh: { type: 'boolean', default: false },
      resume: { type: 'boolean', default: false },
      'retry-failed': { type: 'boolean', default: false },
      only: { type: 'string', multiple: true, default: [] },
      workers: { type: 'string' },
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
  const controller = new AbortController();
  process.once('SIGINT', () => {
    process.stderr.write('\ninterrupted: finished cells are stored; rerun to resume\n');
    controller.abort();
  });
  const outcome = await runStudy(study, {
    outDir: resolve(values.out ?? `results/${study.name}`),
    fresh: values.fresh!,
    retryFailed: values['retry-failed']!,
    only: parseOnly(values.only!),
    ...(workers !== undefined ? { workers } : {}),
    signal: controller.signal,
  });
  if (controller.signal.aborted) process.exitCode = 130;
  console.log(
    `${outcome.ran} cells run (${outcome.failed} failed), ${outcome.skipped} already stored, of ${outcome.cells}`,
  );
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
