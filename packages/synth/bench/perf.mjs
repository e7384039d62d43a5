// Generator figures (not a test). Run after `pnpm build`: pnpm --filter @fb/synth bench
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fitCopula, generate } from '../dist/index.js';

const mb = (b) => (b / 2 ** 20).toFixed(0);
let peakRss = 0;
const timer = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);

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
// Default threads ('auto': one per core), then the calling thread alone; the output is the same.
for (const threads of ['auto', 1]) {
  const t0 = performance.now();
  const r = generate({ ...options, threads });
  const seconds = (performance.now() - t0) / 1000;
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const biasedRows = r.truth.counterfactualLabel.reduce((s, v, i) => s + (v !== r.dataset.y[i] ? 1 : 0), 0);
  console.log(
    `generate (threads ${threads}${threads === 'auto' ? ` = ${Math.min(8, availableParallelism())}` : ''}): ` +
      `${r.dataset.n.toLocaleString('en')} rows x ${r.dataset.d} attributes, ${r.truth.pairs.length} pairs: ` +
      `${seconds.toFixed(2)} s, peak RSS ${mb(peakRss)} MB; rows whose counterfactual label differs: ${biasedRows}`,
  );
}

const dataDir = process.env.FB_DATA_DIR ?? path.resolve(import.meta.dirname, '../../../../shared/datasets');
if (existsSync(dataDir)) {
  const { loadAdult } = await import('@fb/datasets');
  const adult = await loadAdult({ dataDir });
  fitCopula(adult);
  const times = [];
  for (let rep = 0; rep < 5; rep++) {
    const t0 = performance.now();
    fitCopula(adult);
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  console.log(
    `fitCopula on Adult (${adult.n} rows x ${adult.d} attributes): median ${times[2].toFixed(3)} s (min ${times[0].toFixed(3)}, max ${times[4].toFixed(3)}; first, cold call excluded)`,
  );
} else console.log(`fitCopula on Adult: skipped, no data at ${dataDir}`);
clearInterval(timer);
