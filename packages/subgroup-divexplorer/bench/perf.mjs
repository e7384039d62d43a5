// FP-growth and the whole DivExplorer detector (not a test). Run after `pnpm build`:
//   node bench/perf.mjs
// Setting of the reference figure (divexplorer 0.2.6 fpgrowth: ~8 s at 100,000 rows on a 2-core machine):
// 8 attributes x 4 values, one boolean outcome.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDataset, createRng, defineSchema, RunController } from '@fb/core';
import { loadAdult } from '@fb/datasets';
import { fitRandomForest } from '@fb/models';
import { divexplorer, fpGrowth, rowStatistics } from '../dist/index.js';

const ATTRIBUTES = 8;
const VALUES = 4;

function synthetic(n, seed) {
  const rng = createRng(seed);
  const transactions = new Int32Array(n * ATTRIBUTES);
  const outcome = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let z = -1;
    for (let j = 0; j < ATTRIBUTES; j++) {
      const v = rng.int(0, VALUES - 1);
      transactions[i * ATTRIBUTES + j] = j * VALUES + v;
      if (j < 3 && v === 0) z += 0.8;
    }
    outcome[i] = rng.bernoulli(1 / (1 + Math.exp(-z))) ? 1 : 0;
  }
  return { transactions, stats: rowStatistics([{ kind: 'boolean', values: outcome }], n) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const n of [10_000, 100_000]) {
  const { transactions, stats } = synthetic(n, `perf-${n}`);
  for (const minSupport of [0.05, 0.01]) {
    const minCount = Math.ceil(minSupport * n);
    await fpGrowth(
      transactions,
      ATTRIBUTES,
      ATTRIBUTES * VALUES,
      stats,
      2,
      minCount,
      1000,
      new RunController(),
    );
    const times = [];
    let res;
    for (let rep = 0; rep < 5; rep++) {
      const t0 = performance.now();
      res = await fpGrowth(
        transactions,
        ATTRIBUTES,
        ATTRIBUTES * VALUES,
        stats,
        2,
        minCount,
        1000,
        new RunController(),
      );
      times.push((performance.now() - t0) / 1000);
    }
    console.log(
      `fpGrowth ${n} rows x ${ATTRIBUTES} attributes x ${VALUES} values, min support ${minSupport}: ` +
        `median ${median(times).toFixed(3)} s (min ${Math.min(...times).toFixed(3)}, max ${Math.max(...times).toFixed(3)}); ${res.count} patterns`,
    );
  }
}

// The whole detector on the synthetic 100,000 rows (label rate; FP-growth, divergence, Shapley values).
{
  const n = 100_000;
  const { transactions, stats } = synthetic(n, 'perf-100000');
  const schema = defineSchema({
    attributes: Array.from({ length: ATTRIBUTES }, (_, j) => ({
      name: `a${j}`,
      kind: 'categorical',
      protected: j === 0,
      categories: Array.from({ length: VALUES }, (_, v) => `v${v}`),
    })),
    outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
  });
  const x = Float64Array.from(transactions, (it) => it % VALUES);
  const y = Int32Array.from({ length: n }, (_, i) => stats[2 * i]);
  const dataset = createDataset({ schema, x, y });
  for (const minSupport of [0.05, 0.01]) {
    const times = [];
    let result;
    for (let rep = 0; rep < 3; rep++) {
      result = await divexplorer.run({ dataset }, { metrics: ['label-rate'], minSupport });
      times.push(result.run.wallSeconds);
    }
    console.log(
      `divexplorer.run label-rate, 100,000 rows, min support ${minSupport}: median ${median(times).toFixed(3)} s; ` +
        `${result.extras.patterns} patterns; timings ${JSON.stringify(result.extras.timings)}`,
    );
  }
}

// Adult with a random forest: FPR and FNR divergence at support 0.05.
const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.FB_DATA_DIR ?? path.resolve(here, '../../../../shared/datasets');
const adult = await loadAdult({ dataDir });
const forest = fitRandomForest(adult, { nEstimators: 20, maxDepth: 10, seed: 1 });
const times = [];
let result;
for (let rep = 0; rep < 3; rep++) {
  result = await divexplorer.run({ dataset: adult, model: forest }, {});
  times.push(result.run.wallSeconds);
}
console.log(
  `Adult (${adult.n} rows), forest, FPR + FNR, min support 0.05: median ${median(times).toFixed(3)} s; ` +
    `${result.extras.patterns} patterns; timings ${JSON.stringify(result.extras.timings)}`,
);
for (const s of result.findings.subgroups) {
  const desc = s.conditions
    .map((c) => ('values' in c ? `${c.attribute}=${c.values}` : `${c.attribute}∈[${c.min},${c.max}]`))
    .join(' ∧ ');
  console.log(
    `  ${s.details.metric} Δ ${s.effect.toFixed(3)} t ${s.details.t?.toFixed(1)} support ${s.details.support.toFixed(3)}  ${desc}`,
  );
}
