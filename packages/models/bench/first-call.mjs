// First calls against later ones, in a fresh process for one kind of model (run by bench/perf.mjs, once
// per kind; prints one JSON object): the 100-tree forest or a depth-10 tree fitted three times on Adult,
// the first model's predict on the 100,000 benchmark rows three times, then the second model's first
// predict (what a later model pays once the process is warm). Not a test.
// Usage: node bench/first-call.mjs <dataDir> forest|tree
import { loadAdult } from '@fb/datasets';
import { fit } from '../dist/index.js';
import { benchRows } from './rows.mjs';

const [dataDir, kind] = process.argv.slice(2);
const options = {
  forest: { model: 'random-forest', nEstimators: 100, seed: 0 },
  tree: { model: 'decision-tree', maxDepth: 10 },
}[kind];
if (!options) throw new Error(`usage: first-call.mjs <dataDir> forest|tree (got ${kind})`);
const train = await loadAdult({ dataDir, split: 'train' });
const test = await loadAdult({ dataDir, split: 'test' });
const big = benchRows(train, test);
const seconds = (fn) => {
  const t0 = performance.now();
  fn();
  return (performance.now() - t0) / 1000;
};
const fits = [];
const models = [];
for (let r = 0; r < 3; r++) {
  const t0 = performance.now();
  models.push(await fit(train, { ...options, ...(kind === 'forest' ? { seed: r } : {}) }));
  fits.push((performance.now() - t0) / 1000);
}
const predicts = [];
for (let r = 0; r < 3; r++) predicts.push(seconds(() => models[0].predict(big)));
const secondModelFirstPredict = seconds(() => models[1].predict(big));
console.log(JSON.stringify({ fits, predicts, secondModelFirstPredict }));
