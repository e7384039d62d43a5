#!/usr/bin/env node
// How long each detector takes to return after an abort: run on the conformance fixture (5,000 rows)
// with default options, abort at `--at` seconds (default 1.5), print the lag per method. White-box
// methods (ADF) need a model with gradients, which the fixture's has not: they report that.
// Usage: node src/abort-latency.mjs [--at 1.5]
import { loadavg } from 'node:os';
import { methodRegistry } from '@fb/bench';
import { makeFixture } from '@fb/testkit';

const at = Number(process.argv[process.argv.indexOf('--at') + 1]) || 1.5;
const { dataset, model } = makeFixture(5000);
console.log(
  `abort at ${at} s; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const det of methodRegistry) {
  const t0 = performance.now();
  // The lag is counted from when the abort event fires (a loaded machine fires timers late).
  const signal = AbortSignal.timeout(at * 1000);
  let fired = Number.NaN;
  signal.addEventListener('abort', () => (fired = performance.now()));
  try {
    const r = await det.run({ dataset, model }, {}, { signal, seed: 1 });
    const end = performance.now();
    const wall = (end - t0) / 1000;
    const lag = r.run.aborted
      ? `returned ${((end - fired) / 1000).toFixed(3)} s after the abort fired (at ${((fired - t0) / 1000).toFixed(3)} s)`
      : `finished (${r.run.stopReason}) before the abort`;
    const kept = r.findings.kind === 'individual' ? `, ${r.findings.pairs.length} pairs kept` : '';
    console.log(`${det.id.padEnd(24)} ${wall.toFixed(3)} s  ${lag}${kept}`);
  } catch (e) {
    console.log(`${det.id.padEnd(24)} ${e.name}: ${e.message}`);
  }
}
