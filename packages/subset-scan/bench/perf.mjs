// Timing of one subset scan per score function (not a test). Run after `pnpm build`: node bench/perf.mjs
// Setting: 10 attributes x 5 values, 10 iterations, penalty 1, one direction; median of 3 runs.
import { createRng } from '@fb/core';
import { scanSubsets } from '../dist/index.js';

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

for (const score of ['bernoulli', 'poisson', 'gaussian', 'berk-jones']) {
  for (const n of [10_000, 50_000]) {
    const data = makeData(n, score, `perf-${score}-${n}`);
    const config = { score, direction: 'negative', iterations: 10, penalty: 1 };
    scanSubsets(data, config, createRng('warm-up'));
    const times = [];
    let result;
    for (let rep = 0; rep < 3; rep++) {
      const t0 = performance.now();
      result = scanSubsets(data, config, createRng(rep));
      times.push((performance.now() - t0) / 1000);
    }
    times.sort((a, b) => a - b);
    const subset = result.subset
      .map((v, m) => (v ? `a${m}∈{${[...v]}}` : null))
      .filter(Boolean)
      .join(' ∧ ');
    console.log(
      `${score.padEnd(10)} ${String(n).padStart(6)} records: median ${times[1].toFixed(3)} s ` +
        `(min ${times[0].toFixed(3)}); score ${result.score.toFixed(4)} on ${result.size} records: ${subset}`,
    );
  }
}
