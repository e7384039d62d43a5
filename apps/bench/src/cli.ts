#!/usr/bin/env node
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runStudy } from './run-study.js';
import { studies } from './study.js';

const usage = `usage: fairbench-study [--study <${Object.keys(studies).join('|')}>] [--out <dir>] [--fresh]

  --study   which study to run (default: default)
  --out     result directory (default: results/<study>); finished cells there are kept and skipped
  --fresh   discard stored cells and run everything again`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      study: { type: 'string', default: 'default' },
      out: { type: 'string' },
      fresh: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const study = studies[values.study!];
  if (!study || !Object.hasOwn(studies, values.study!)) {
    console.error(`unknown study "${values.study}"\n${usage}`);
    process.exitCode = 2;
    return;
  }
  const outDir = resolve(values.out ?? `results/${study.name}`);
  const { table } = await runStudy(study, { outDir, fresh: values.fresh! });
  console.log(`\n${table}\n`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exitCode = 1;
});
