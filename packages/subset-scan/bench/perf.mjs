// Timing of one subset scan per score function (not a test). Run after `pnpm build`: node bench/perf.mjs
// Setting: 10 attributes x 5 values, 10 iterations, penalty 1, one direction; median of 3 runs.
// `node bench/perf.mjs <reference dist/index.js>` times another build of this package beside this one, in
// the same process, the two alternating run by run, and says whether each scan's result is the same.
import { createRng } from '@fb/core';
import { scanSubsets } from '../dist/index.js';

const reference = process.argv[2] ? (await import(process.argv[2])).scanSubsets : null;

const ATTRIBUTES = 10;
const VALUES = 5;

/** Records with a planted subgroup (attribute 0 in {0, 1} and attribute 1 = 3) whose signal is negative. */
function makeData(n, score, seed) {
  const rng = createRng(seed);
  const codes = Array.from({ length: ATTRIBUTES }, () => new Int32Array(n));
  const expected = new Float64Array(n);
  const observed = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let z = -0.5;
    for (let m = 0; m < ATTRIBUTES; m++) {
      const v = rng.int(0, VALUES - 1);
      codes[m][i] = v;
      z += 0.15 * (v - 2) * (m % 3 === 0 ? 1 : -0.5);
    }
    const planted = codes[0][i] <= 1 && codes[1][i] === 3;
    if (score === 'gaussian') {
      expected[i] = z;
      observed[i] = z + rng.normal(planted ? -0.3 : 0, 1);
      continue;
    }
    const p = score === 'berk-jones' ? 0.4 : 1 / (1 + Math.exp(-z));
    expected[i] = p;
    const odds = (p / (1 - p)) * (planted ? 0.5 : 1);
    observed[i] = rng.next() < odds / (1 + odds) ? 1 : 0;
  }
  return { codes, arity: new Array(ATTRIBUTES).fill(VALUES), observed, expected };
}

const summary = (result) =>
  JSON.stringify([result.score, result.size, result.subset.map((v) => v && [...v])]);
const describe = (result) =>
  result.subset
    .map((v, m) => (v ? `a${m}∈{${[...v]}}` : null))
    .filter(Boolean)
    .join(' ∧ ');
const seconds = (scan, data, config, seed) => {
  const t0 = performance.now();
  const result = scan(data, config, createRng(seed));
  return { s: (performance.now() - t0) / 1000, result };
};
const median = (v) => [...v].sort((a, b) => a - b)[1];

for (const score of ['bernoulli', 'poisson', 'gaussian', 'berk-jones']) {
  for (const n of [10_000, 50_000]) {
    const data = makeData(n, score, `perf-${score}-${n}`);
    const config = { score, direction: 'negative', iterations: 10, penalty: 1 };
    scanSubsets(data, config, createRng('warm-up'));
    reference?.(data, config, createRng('warm-up'));
    const times = [];
    const before = [];
    let result;
    let same = true;
    for (let rep = 0; rep < 3; rep++) {
      const r = reference && seconds(reference, data, config, rep);
      const now = seconds(scanSubsets, data, config, rep);
      if (r) {
        before.push(r.s);
        same &&= summary(r.result) === summary(now.result);
      }
      times.push(now.s);
      result = now.result;
    }
    const line =
      `${score.padEnd(10)} ${String(n).padStart(6)} records: median ${median(times).toFixed(3)} s ` +
      `(min ${Math.min(...times).toFixed(3)}); score ${result.score.toFixed(4)} on ${result.size} records: ${describe(result)}`;
    const versus = reference
      ? `; reference ${median(before).toFixed(3)} s (min ${Math.min(...before).toFixed(3)}): ` +
        `${(median(before) / median(times)).toFixed(2)}x, same results: ${same ? 'yes' : 'NO'}`
      : '';
    console.log(line + versus);
  }
}
