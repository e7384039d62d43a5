// Timing of one MDSS scan (not a test). Run after `pnpm build`: node bench/perf.mjs
// Setting of the reference figure (AIF360: ~2 s for 10,000 records, ~4 s for 50,000):
// 10 attributes x 5 values, numIters 10, penalty 1, Bernoulli scoring, one direction.
import { createRng } from '@fb/core';
import { scanSubsets } from '../dist/index.js';

const ATTRIBUTES = 10;
const VALUES = 5;

function makeData(n, seed) {
  const rng = createRng(seed);
  const codes = Array.from({ length: ATTRIBUTES }, () => new Int32Array(n));
  const expectations = new Float64Array(n);
  const outcomes = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let z = -0.5;
    for (let m = 0; m < ATTRIBUTES; m++) {
      const v = rng.int(0, VALUES - 1);
      codes[m][i] = v;
      z += 0.15 * (v - 2) * (m % 3 === 0 ? 1 : -0.5);
    }
    const p = 1 / (1 + Math.exp(-z));
    expectations[i] = p;
    // Planted over-prediction: attribute 0 in {0, 1} and attribute 1 = 3 get the odds divided by 2.
    const planted = codes[0][i] <= 1 && codes[1][i] === 3;
    const odds = (p / (1 - p)) * (planted ? 0.5 : 1);
    outcomes[i] = rng.next() < odds / (1 + odds) ? 1 : 0;
  }
  return { coordinates: { n, codes, arity: new Array(ATTRIBUTES).fill(VALUES) }, expectations, outcomes };
}

const options = { scoring: 'bernoulli', direction: 'negative', numIters: 10, penalty: 1 };
for (const n of [10_000, 50_000]) {
  const { coordinates, expectations, outcomes } = makeData(n, `perf-${n}`);
  // One warm-up scan so that the figure reflects optimised code.
  scanSubsets(coordinates, expectations, outcomes, options, createRng('warm-up'));
  const times = [];
  let result;
  for (let rep = 0; rep < 3; rep++) {
    const t0 = performance.now();
    result = scanSubsets(coordinates, expectations, outcomes, options, createRng(rep));
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  const subset = result.subset
    .map((v, m) => (v ? `a${m}∈{${[...v]}}` : null))
    .filter(Boolean)
    .join(' ∧ ');
  console.log(
    `${n} records x ${ATTRIBUTES} attributes x ${VALUES} values: median ${times[1].toFixed(3)} s ` +
      `(min ${times[0].toFixed(3)}, max ${times[2].toFixed(3)}); best score ${result.score} on ${result.size} records: ${subset}`,
  );
}
