// How far past its time budget the search runs on wide data: 20,000 rows of 200 three-valued
// attributes (two protected), labels depending on the first. Run after `pnpm build`:
//   node bench/budget.mjs
import { loadavg } from 'node:os';
import { createDataset, createRng, defineSchema } from '@fb/core';
import { fairNaiveBayes } from '../dist/index.js';

const n = 20_000;
const d = 200;
const attributes = Array.from({ length: d }, (_, j) => ({
  name: `a${j}`,
  kind: 'categorical',
  protected: j < 2,
  categories: ['u', 'v', 'w'],
}));
const schema = defineSchema({ attributes, outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 } });
const rng = createRng(1);
const x = new Float64Array(n * d);
const y = new Int32Array(n);
for (let i = 0; i < n; i++) {
  for (let j = 0; j < d; j++) x[i * d + j] = Math.floor(rng.next() * 3);
  y[i] = rng.next() < 0.3 + (x[i * d] === 0 ? 0.2 : 0) ? 1 : 0;
}
const dataset = createDataset({ schema, x, y });
for (const maxSeconds of [3, 10]) {
  const t0 = performance.now();
  const r = await fairNaiveBayes.run({ dataset }, {}, { seed: 1, budget: { maxSeconds } });
  const wall = (performance.now() - t0) / 1000;
  console.log(
    `budget ${maxSeconds} s: ${wall.toFixed(1)} s wall, stop ${r.run.stopReason} (load ${loadavg()[0].toFixed(2)})`,
  );
}
