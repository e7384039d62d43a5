#!/usr/bin/env node
// How far past its time budget each detector returns: every method of the study's registry on the
// conformance fixture of --rows rows (default 20,000), with budget.maxSeconds --seconds (default 3)
// and nothing else to stop it. Prints the wall time and the seconds past the limit per method.
// With --wide n, the data is the corpus's wide table instead: --rows rows of n attributes.
// Usage: node src/budget-overrun.mjs [--rows 20000] [--seconds 3] [--wide 60] [--only id,id]
import { loadavg } from 'node:os';
import { methodRegistry } from '@fb/bench';
import { makeFixture } from '@fb/testkit';
import { wideTable } from './wide.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const rows = Number(arg('rows', 20000));
const seconds = Number(arg('seconds', 3));
const only = arg('only', null)?.split(',');
const wide = arg('wide', null);
const { dataset, model } = wide ? wideTable(rows, Number(wide)) : makeFixture(rows);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(
  `${rows} rows${wide ? ` x ${wide} attributes` : ''}, budget ${seconds} s; load average ${load()}`,
);
for (const det of methodRegistry) {
  if (only && !only.includes(det.id)) continue;
  const t0 = performance.now();
  try {
    const r = await det.run({ dataset, model }, {}, { seed: 1, budget: { maxSeconds: seconds } });
    const wall = (performance.now() - t0) / 1000;
    console.log(
      `${det.id.padEnd(24)} ${wall.toFixed(2)} s  ${(wall - seconds).toFixed(2)} s past the limit  (${r.run.stopReason})`,
    );
  } catch (e) {
    console.log(
      `${det.id.padEnd(24)} ${((performance.now() - t0) / 1000).toFixed(2)} s  ${e.name}: ${e.message}`,
    );
  }
}
console.log(`load average ${load()}`);
