import { loadAdult } from '@fb/datasets';
import { evaluate, fitMlp } from '../dist/index.js';
const dataDir = '/work/shared/datasets';
const train = await loadAdult({ dataDir, split: 'train' });
const test = await loadAdult({ dataDir, split: 'test' });
const t0 = performance.now();
const mlp = await fitMlp(train, { epochs: 20, earlyStopping: false, learningRate: 0.001, seed: 0 });
const t1 = performance.now();
const rows = test.x.subarray(0, 10000 * test.d);
let g = 1e9;
for (let r = 0; r < 5; r++) {
  const a = performance.now();
  mlp.scoreGradient(rows);
  g = Math.min(g, performance.now() - a);
}
console.log(
  'fit',
  ((t1 - t0) / 1000).toFixed(2),
  'acc',
  evaluate(mlp, test).accuracy.toFixed(4),
  'grad',
  (g / 1000).toFixed(4),
);
