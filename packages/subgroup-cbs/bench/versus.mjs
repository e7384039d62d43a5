// Two builds of CBS side by side in one process (not a test): each of the study's base cells (those of
// bench/cells.mjs: seed 1, the three trained models) run by build A, then by build B, `rounds` times,
// with the fit cache off; prints the CPU seconds of each and whether every scan's score, resamples and
// p-values are the same. A build is a `dist/index.js`: this package's (after `pnpm build`), or one made by
// `bench/make-baseline.sh <commit> <directory>` (bundled with that commit's scan and models).
//   node bench/versus.mjs <A index.js> <B index.js> [scanType] [rounds]
import { loadavg } from 'node:os';
import path from 'node:path';
import { cellsOf } from './cells.mjs';

const [a, b, scanType = 'sufficiency-predictions', rounds = '3'] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: node bench/versus.mjs <A index.js> <B index.js> [scanType] [rounds]');
const builds = [await import(path.resolve(a)), await import(path.resolve(b))];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`load average at start: ${load()}`);
const { audit, fitted } = await cellsOf(1);

async function cell(build, model) {
  build.cbsFitCache?.configure({ maxBytes: 0 });
  const c0 = process.cpuUsage();
  const result = await build.cbs.run({ dataset: audit, model }, { scanType }, { seed: 1 });
  const c = process.cpuUsage(c0);
  return { seconds: (c.user + c.system) / 1e6, scans: JSON.stringify(result.extras.scans) };
}

// Warm-up: each build's first cell compiles its code.
for (const build of builds) await cell(build, fitted[0][1]);
const totals = [0, 0];
let same = 0;
let cells = 0;
for (let round = 0; round < Number(rounds); round++) {
  for (const [label, model] of fitted) {
    const [x, y] = [await cell(builds[0], model), await cell(builds[1], model)];
    totals[0] += x.seconds;
    totals[1] += y.seconds;
    cells++;
    if (x.scans === y.scans) same++;
    console.log(
      `round ${round + 1} ${label.padEnd(19)} A ${x.seconds.toFixed(2)} s, B ${y.seconds.toFixed(2)} s`,
    );
  }
}
console.log(
  `${scanType}: A ${totals[0].toFixed(1)} s, B ${totals[1].toFixed(1)} s, A/B ${(totals[0] / totals[1]).toFixed(2)}x; ` +
    `${same} of ${cells} cells with the same scans`,
);
console.log(`load average at end: ${load()}`);
