// This build's `generate` side by side with another build's, in one process (not a test): seven rounds,
// alternating which version goes first, each timing fifteen calls at 10,119 rows (the bench's small data
// set, with ensembleSize 0 and with the defaults); with `big`, three rounds of one call at 1,003,599 rows
// on one thread. Prints medians and the other / this ratio per round (median and range).
// Run after `pnpm build`: node bench/versus.mjs <other build's dist/index.js> [big]
// (for example a checkout of an earlier commit, installed and built apart: git worktree add <dir> <commit>)
import path from 'node:path';
import { largeOptions, smallOptions } from './options.mjs';

const other = process.argv[2];
if (!other) throw new Error('usage: node bench/versus.mjs <other dist/index.js> [big]');
const [before, now] = await Promise.all([
  import(path.resolve(other)),
  import(path.join(import.meta.dirname, '../dist/index.js')),
]);
const big = largeOptions;
const small = smallOptions;
const median = (v) => [...v].sort((a, b) => a - b)[(v.length - 1) >> 1];
const time = (m, o, k) => {
  const ts = [];
  for (let i = 0; i < k; i++) {
    const t0 = performance.now();
    m.generate(o);
    ts.push(performance.now() - t0);
  }
  return median(ts);
};
const range = (v) => `${median(v).toFixed(2)} (${Math.min(...v).toFixed(2)}-${Math.max(...v).toFixed(2)})`;
const inTurn = (round) =>
  round % 2
    ? [
        ['now', now],
        ['before', before],
      ]
    : [
        ['before', before],
        ['now', now],
      ];
for (const m of [before, now]) for (let i = 0; i < 5; i++) m.generate(small);
const rounds = [];
for (let round = 0; round < 7; round++) {
  const r = {};
  for (const [name, m] of inTurn(round)) {
    r[`${name} none`] = time(m, { ...small, ensembleSize: 0 }, 15);
    r[`${name} defaults`] = time(m, small, 15);
  }
  rounds.push(r);
}
for (const kind of ['none', 'defaults']) {
  const at = (name) => median(rounds.map((r) => r[`${name} ${kind}`])).toFixed(1);
  console.log(
    `10,119 rows, ${kind === 'none' ? 'ensembleSize 0' : 'defaults'}: other ${at('before')} ms, this ${at('now')} ms, ` +
      `other / this ${range(rounds.map((r) => r[`before ${kind}`] / r[`now ${kind}`]))}`,
  );
}
if (process.argv[3] === 'big') {
  const b = [];
  for (let round = 0; round < 3; round++) {
    const r = {};
    for (const [name, m] of inTurn(round)) r[name] = time(m, { ...big, threads: 1 }, 1);
    b.push(r);
  }
  console.log(
    `1,003,599 rows, threads 1: other ${median(b.map((r) => r.before)).toFixed(0)} ms, this ${median(b.map((r) => r.now)).toFixed(0)} ms, ` +
      `other / this ${range(b.map((r) => r.before / r.now))}`,
  );
}
