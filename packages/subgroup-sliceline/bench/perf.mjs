// SliceLine on the errors of a random forest on Adult (not a test). Run after `pnpm build`:
//   node bench/perf.mjs
// Setting of the SIGMOD paper's Adult figure (5.6 s on a 112-core server): α 0.95, K 5, max level 3.
// Data from FB_DATA_DIR, else the repository's ../shared/datasets.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunController } from '@fb/core';
import { loadAdult } from '@fb/datasets';
import { fitRandomForest } from '@fb/models';
import { minSupportRows, oneHot, predictionErrors, recodeDataset, sliceLine } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.FB_DATA_DIR ?? path.resolve(here, '../../../../shared/datasets');
const adult = await loadAdult({ dataDir });

let t0 = performance.now();
const forest = fitRandomForest(adult, { nEstimators: 20, maxDepth: 10, seed: 1 });
const predicted = forest.predict(adult.x);
console.log(`Adult train: ${adult.n} rows x ${adult.d} attributes; forest of 20 trees (depth 10) fitted and`);
console.log(`  predicted in ${((performance.now() - t0) / 1000).toFixed(2)} s`);

const params = { k: 5, alpha: 0.95, maxLevel: 3, minSupport: minSupportRows(10, adult.n) };
t0 = performance.now();
const table = recodeDataset(adult, { maxValues: 20, bins: 10 });
const x2 = oneHot(table);
console.log(`recode + one-hot: ${x2.l} one-hot columns in ${((performance.now() - t0) / 1000).toFixed(3)} s`);

const describe = (s) =>
  Array.from(s.predicates, (c) => {
    const f = x2.featureOf[c];
    const cond = table.attributes[f].condition(c - x2.offsets[f]);
    return 'values' in cond
      ? `${cond.attribute}=${cond.values[0]}`
      : `${cond.attribute}∈[${cond.min},${cond.max}]`;
  }).join(' ∧ ');

for (const type of ['false-positive', 'false-negative', 'misclassification']) {
  const e = predictionErrors(adult, predicted, type);
  // One warm-up run so that the figure reflects optimised code, then the median of 5.
  await sliceLine(x2, e, params, new RunController());
  const times = [];
  let res;
  for (let rep = 0; rep < 5; rep++) {
    const t = performance.now();
    res = await sliceLine(x2, e, params, new RunController());
    times.push((performance.now() - t) / 1000);
  }
  times.sort((a, b) => a - b);
  const evaluated = res.levels.reduce((acc, l) => acc + l.evaluated, 0);
  const candidates = res.levels.reduce((acc, l) => acc + l.candidates, 0);
  console.log(
    `${type}: mean error ${res.averageError.toFixed(4)}; median ${times[2].toFixed(3)} s (min ${times[0].toFixed(3)}, max ${times[4].toFixed(3)}); ` +
      `${candidates} candidates, ${evaluated} evaluated`,
  );
  for (const s of res.top) {
    console.log(
      `  score ${s.score.toFixed(3)}  size ${s.size}  error rate ${(s.error / s.size).toFixed(3)}  ${describe(s)}`,
    );
  }
}

// The whole detector: recode, one batch prediction, FP and FN scans (the ClearBias wrapper's setting).
const { sliceline } = await import('../dist/index.js');
const times = [];
let result;
for (let rep = 0; rep < 3; rep++) {
  result = await sliceline.run({ dataset: adult, model: forest }, { k: 5, alpha: 0.95, maxLevel: 3 });
  times.push(result.run.wallSeconds);
}
times.sort((a, b) => a - b);
console.log(
  `sliceline.run (FP + FN, recode and prediction included): median ${times[1].toFixed(3)} s ` +
    `(min ${times[0].toFixed(3)}, max ${times[2].toFixed(3)}); ${result.metrics.dsn} slices reported`,
);
