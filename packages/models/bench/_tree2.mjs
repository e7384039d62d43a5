import { Rng } from '@fb/core';
import { loadAdult } from '@fb/datasets';
import { fit } from '../dist/index.js';
const train = await loadAdult({ dataDir: '/work/shared/datasets', split: 'train' });
const test = await loadAdult({ dataDir: '/work/shared/datasets', split: 'test' });
const d = train.d;
const big = new Float64Array(100_000 * d);
const rng = Rng.create('models-bench');
for (let i = 0; i < 100_000; i++) {
  big.set(test.x.subarray((i % test.n) * d, (i % test.n) * d + d), i * d);
  if (i < test.n) continue;
  for (let k = 0; k < 2; k++) {
    const j = rng.int(0, d - 1);
    big[i * d + j] = train.x[rng.int(0, train.n - 1) * d + j];
  }
}
const m = await fit(train, { model: 'decision-tree' });
let steps = 0;
for (let i = 0; i < 100000; i++) steps += m.decisionPath(big, i * d).length - 1;
console.log('mean path', steps / 1e5);
for (let r = 0; r < 5; r++) {
  let t0 = performance.now();
  m.apply(big);
  const a = performance.now() - t0;
  t0 = performance.now();
  m.predict(big);
  console.log('apply', a.toFixed(1), 'predict', (performance.now() - t0).toFixed(1));
}
