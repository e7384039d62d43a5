// Generator figures (not a test). Run after `pnpm build`: pnpm --filter @fb/synth bench
// Five rounds, each: generate with the default threads, a plain copula sampler of the same size (the
// same copula, rows x attributes, one thread), generate on one thread, the plain sampler again; medians
// and the ratio within each round (median and range over rounds) are printed with the load average.
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { createRng } from '@fb/core';
import { fitCopula, generate, sampleCopula } from '../dist/index.js';

const mb = (b) => (b / 2 ** 20).toFixed(0);
let peakRss = 0;
const timer = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);
const median = (v) => [...v].sort((a, b) => a - b)[(v.length - 1) >> 1];
const range = (v) => `(${Math.min(...v).toFixed(2)}-${Math.max(...v).toFixed(2)})`;

// 1,000,000 rows x 20 attributes, 500 pairs: ~900,000 subgroup rows (1,600-2,000 per pair) + 10% background.
// Background rows lie outside all 1,000 subgroups, so the subgroups are specific (5-7 defining
// attributes, values drawn uniformly): about 23% of the population is then outside every subgroup.
const options = {
  seed: 1,
  attributes: 20,
  pairs: 500,
  valueSampling: 'uniform',
  minIntersectionality: 2,
  minGranularity: 3,
  maxGranularity: 4,
  minGroupSize: 1600,
  maxGroupSize: 2000,
  backgroundShare: 0.1,
};
const ROUNDS = 5;
const autoThreads = Math.min(8, availableParallelism());
console.log(`load average ${loadavg()[0].toFixed(1)} on entry; ${ROUNDS} rounds`);
const times = { auto: [], one: [], plain: [] };
const ratios = { auto: [], one: [] };
let result;
for (let round = 0; round < ROUNDS; round++) {
  for (const threads of ['auto', 1]) {
    const t0 = performance.now();
    const r = generate({ ...options, threads });
    const seconds = (performance.now() - t0) / 1000;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    result = r;
    const t1 = performance.now();
    const plain = sampleCopula(r.copula, r.dataset.n, createRng(round));
    const plainSeconds = (performance.now() - t1) / 1000;
    if (plain.length !== r.dataset.x.length) throw new Error('plain sampler: wrong size');
    const key = threads === 'auto' ? 'auto' : 'one';
    times[key].push(seconds);
    times.plain.push(plainSeconds);
    ratios[key].push(seconds / plainSeconds);
  }
}
const r = result;
const biasedRows = r.truth.counterfactualLabel.reduce((s, v, i) => s + (v !== r.dataset.y[i] ? 1 : 0), 0);
console.log(
  `generate: ${r.dataset.n.toLocaleString('en')} rows x ${r.dataset.d} attributes, ${r.truth.pairs.length} pairs, ` +
    `${biasedRows} rows whose counterfactual label differs; peak RSS ${mb(peakRss)} MB`,
);
const s = (v) => `${median(v).toFixed(2)} s`;
console.log(
  `  generate, threads auto = ${autoThreads}: ${s(times.auto)}; threads 1: ${s(times.one)}; ` +
    `plain copula sampler (sampleCopula, same copula and size, one thread): ${s(times.plain)} (medians)`,
);
console.log(
  `  ratio generate / plain sampler (median over rounds, range): ${median(ratios.auto).toFixed(2)}x ${range(ratios.auto)} ` +
    `with threads auto, ${median(ratios.one).toFixed(2)}x ${range(ratios.one)} on one thread; per row: ${((median(times.one) / r.dataset.n) * 1e6).toFixed(1)} us ` +
    `vs ${((median(times.plain) / r.dataset.n) * 1e6).toFixed(1)} us on one thread`,
);
console.log(`load average ${loadavg()[0].toFixed(1)} at the end of generate`);

const dataDir = process.env.FB_DATA_DIR ?? path.resolve(import.meta.dirname, '../../../../shared/datasets');
if (existsSync(dataDir)) {
  const { loadAdult } = await import('@fb/datasets');
  const adult = await loadAdult({ dataDir });
  fitCopula(adult);
  const fits = [];
  for (let rep = 0; rep < 5; rep++) {
    const t0 = performance.now();
    fitCopula(adult);
    fits.push((performance.now() - t0) / 1000);
  }
  fits.sort((a, b) => a - b);
  console.log(
    `fitCopula on Adult (${adult.n} rows x ${adult.d} attributes): median ${fits[2].toFixed(3)} s (min ${fits[0].toFixed(3)}, max ${fits[4].toFixed(3)}; first, cold call excluded)`,
  );
} else console.log(`fitCopula on Adult: skipped, no data at ${dataDir}`);
clearInterval(timer);
