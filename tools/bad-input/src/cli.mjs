#!/usr/bin/env node
// Runs the whole corpus and prints one line per file, the totals and every case that failed.
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { caseFiles, GOOD, runFile, summary } from './corpus.mjs';

const all = [];
for (const file of caseFiles()) {
  const name = basename(fileURLToPath(file), '.mjs');
  const results = await runFile(file);
  console.log(summary(name, results));
  all.push(...results.map((r) => ({ ...r, file: name })));
}
console.log(summary('total', all));
const bad = all.filter((r) => !GOOD.has(r.outcome));
for (const r of bad) console.log(`  ${r.file} / ${r.id}: ${r.outcome}: ${r.detail}`);
process.exitCode = bad.length > 0 ? 1 : 0;
