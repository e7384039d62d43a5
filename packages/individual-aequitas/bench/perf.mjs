// Throughput of AEQUITAS on the 13-attribute census domain with a linear model.
// Run after `pnpm build`: node bench/perf.mjs
import { createDataset, createRng, defineSchema } from '@fb/core';
import { aequitas } from '../dist/index.js';

const bounds = [
  ['age', 1, 9],
  ['workclass', 0, 7],
  ['fnlwgt', 0, 39],
  ['education', 0, 15],
  ['marital_status', 0, 6],
  ['occupation', 0, 13],
  ['relationship', 0, 5],
  ['race', 0, 4],
  ['sex', 0, 1],
  ['capital_gain', 0, 99],
  ['capital_loss', 0, 39],
  ['hours_per_week', 0, 99],
  ['native_country', 0, 39],
];
const schema = defineSchema({
  attributes: bounds.map(([name, min, max]) => ({
    name,
    kind: 'ordinal',
    protected: name === 'sex',
    min,
    max,
    step: 1,
  })),
  outcome: { name: 'income', labels: ['<=50K', '>50K'], favorable: 1 },
});
const d = bounds.length;
const w = [0.4, 0.05, 0.01, 0.2, -0.1, 0.05, -0.15, 0.1, 0.8, 0.03, 0.02, 0.03, 0];
const bias = -7.5;
const model = {
  nFeatures: d,
  nClasses: 2,
  description: 'linear',
  predict(x) {
    const n = x.length / d;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      let z = bias;
      for (let j = 0; j < d; j++) z += w[j] * x[i * d + j];
      out[i] = z > 0 ? 1 : 0;
    }
    return out;
  },
};

const rng = createRng('bench');
const n = 500;
const x = new Float64Array(n * d);
for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) x[i * d + j] = rng.int(bounds[j][1], bounds[j][2]);
const dataset = createDataset({ schema, x, y: model.predict(x), name: 'census-domain' });

for (const strategy of ['random', 'semi-directed', 'fully-directed']) {
  const r = await aequitas.run({ dataset, model }, { strategy }, { seed: 1, budget: { maxSeconds: 30 } });
  const { tsn, dsn, sur, distinctQueries } = r.metrics;
  const s = r.run.wallSeconds;
  console.log(
    `${strategy.padEnd(14)} TSN ${String(tsn).padStart(7)}  DSN ${String(dsn).padStart(7)}  SUR ${(100 * sur).toFixed(2).padStart(6)} %  ` +
      `${s.toFixed(2)} s  ${Math.round(tsn / s)} tested/s  ${Math.round(distinctQueries / s)} queries/s  (${r.run.stopReason})`,
  );
}
