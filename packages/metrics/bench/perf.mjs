// Speed of the group metrics on synthetic predictions, from the built package.
import { createRng } from '@fb/core';
import { groupDisparity, subgroupsFromColumns } from '../dist/index.js';

const rng = createRng(1);
for (const n of [100_000, 1_000_000]) {
  const a = Int32Array.from({ length: n }, () => rng.int(0, 4));
  const b = Int32Array.from({ length: n }, () => rng.int(0, 1));
  const yTrue = Int32Array.from({ length: n }, () => (rng.bernoulli(0.3) ? 1 : 0));
  const yPred = Int32Array.from({ length: n }, () => (rng.bernoulli(0.35) ? 1 : 0));
  let t = performance.now();
  const groups = subgroupsFromColumns({ a, b });
  const tGroups = performance.now() - t;
  t = performance.now();
  for (const m of ['statistical_parity', 'tpr', 'equalized_odds', 'theil_index']) {
    groupDisparity(m, { yTrue, yPred, subgroups: groups });
  }
  const tMetric = (performance.now() - t) / 4;
  let ci = '';
  if (n <= 100_000) {
    t = performance.now();
    groupDisparity('tpr', { yTrue, yPred, subgroups: groups }, { ci: { rounds: 200, seed: 1 } });
    ci = `, 200-round bootstrap CI ${(performance.now() - t).toFixed(0)} ms`;
  }
  console.log(
    `n=${n}, 10 groups: subgroups ${tGroups.toFixed(0)} ms, one metric ${tMetric.toFixed(1)} ms${ci}`,
  );
}
