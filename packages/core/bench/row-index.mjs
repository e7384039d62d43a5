// The row index adding 1M distinct 20-value rows in batches of 1,000 (the query bookkeeping's pattern),
// fresh index per round. With BASELINE=<the built dist/index.js of another @fb/core>, that version's
// RowIndex runs beside this one in interleaved rounds (alternating which goes first) and the ratio of
// each round is printed: a side-by-side comparison on the same rows. Prints figures; not a test.
// Run after `pnpm build`: [BASELINE=...] node bench/row-index.mjs [rounds]
import os from 'node:os';
import { defineSchema, RowIndex } from '../dist/index.js';
import { distinctRows } from './distinct-rows.mjs';

const N = 1_000_000;
const rounds = Number(process.argv[2] ?? 15);
// 20 ordinal attributes of 2 to 12 values (every value a small integer, as category codes are).
const d = 20;
const schema = defineSchema({
  attributes: Array.from({ length: d }, (_, j) => ({
    name: `a${j}`,
    kind: 'ordinal',
    protected: j === 0,
    min: 0,
    max: 1 + (j % 11),
    step: 1,
  })),
  outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
});
const distinct = distinctRows(schema, N, 'bookkeeping');
const versions = [['this', RowIndex]];
if (process.env.BASELINE) versions.push(['baseline', (await import(process.env.BASELINE)).RowIndex]);
const ids = new Int32Array(1000);
const times = Object.fromEntries(versions.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  for (const [name, Index] of round % 2 ? [...versions].reverse() : versions) {
    const index = new Index(d);
    const t0 = performance.now();
    for (let at = 0; at < distinct.length; at += 1000 * d)
      index.getOrAddAll(distinct.subarray(at, at + 1000 * d), 1000, ids);
    times[name].push(((performance.now() - t0) / N) * 1e3);
  }
}
const middle = (v) => [...v].sort((a, b) => a - b)[(v.length - 1) >> 1];
console.log(
  `row index: ${N.toLocaleString('en')} distinct ${d}-value rows in batches of 1,000, ${rounds} rounds, load ${os.loadavg()[0].toFixed(1)}`,
);
for (const [name] of versions)
  console.log(`  ${name.padEnd(8)} median ${middle(times[name]).toFixed(3)} us a row`);
if (process.env.BASELINE) {
  const ratios = times.baseline.map((b, r) => b / times.this[r]).sort((a, b) => a - b);
  console.log(
    `  baseline / this, per round: median ${middle(ratios).toFixed(2)}x (${ratios[0].toFixed(2)}-${ratios.at(-1).toFixed(2)})`,
  );
}
