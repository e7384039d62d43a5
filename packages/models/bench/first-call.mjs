// First calls against later ones, in a fresh process (run by bench/perf.mjs; prints one JSON object):
// the 100-tree forest and a depth-10 tree fitted three times on Adult, and each first model's predict on
// the 100,000 benchmark rows three times. Not a test.
import { loadAdult } from '@fb/datasets';
import { fit } from '../dist/index.js';
import { benchRows } from './rows.mjs';

const dataDir = process.argv[2];
const train = await loadAdult({ dataDir, split: 'train' });
const test = await loadAdult({ dataDir, split: 'test' });
const big = benchRows(train, test);
const seconds = (fn) => {
  const t0 = performance.now();
  const out = fn();
  return [(performance.now() - t0) / 1000, out];
};
const out = {};
for (const [name, options] of [
  ['forest', { model: 'random-forest', nEstimators: 100, seed: 0 }],
  ['tree', { model: 'decision-tree', maxDepth: 10 }],
]) {
  const fits = [];
  const predicts = [];
  let first;
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    const model = await fit(train, options);
    fits.push((performance.now() - t0) / 1000);
    first ??= model;
  }
  for (let r = 0; r < 3; r++) predicts.push(seconds(() => first.predict(big))[0]);
  out[name] = { fits, predicts };
}
console.log(JSON.stringify(out));
