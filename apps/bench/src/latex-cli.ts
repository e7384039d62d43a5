#!/usr/bin/env node
import { resolve } from 'node:path';
import { compileLatex, tablesDocument } from './report/latex.js';

// `pnpm --filter @fb/bench latex <result dir>`: typeset every generated table of a study report.
const dir = resolve(process.argv[2] ?? 'results/default');
const MAX_OVERFULL_PT = 5;
try {
  const outcome = compileLatex(dir, 'tables', tablesDocument(`${dir}/tables`, 'Study tables'));
  const worst = Math.max(0, ...outcome.overfull);
  console.log(`${outcome.pdf}: ${outcome.overfull.length} overfull lines, widest ${worst.toFixed(1)} pt`);
  if (worst > MAX_OVERFULL_PT) {
    console.error(
      `a table is ${worst.toFixed(1)} pt wider than its column or page (limit ${MAX_OVERFULL_PT} pt)`,
    );
    process.exitCode = 1;
  }
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
}
