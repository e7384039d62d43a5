// Fit and prediction timings on synthetic census-like data. Run `pnpm build` first, then
// `node bench/perf.mjs`. Not a test: it prints seconds.
import { createDataset, defineSchema, Rng } from '@fb/core';
import { accuracy, fitLogisticRegression } from '../dist/index.js';

const cat = (name, k, prot = false) => ({
  name,
  kind: 'categorical',
  protected: prot,
  categories: Array.from({ length: k }, (_, i) => `${name}${i}`),
});
const ord = (name, min, max) => ({ name, kind: 'ordinal', protected: false, min, max });

// 14 attributes shaped like the Adult census table: 8 categorical (104 levels), 6 ordinal.
const schema = defineSchema({
  attributes: [
    ord('age', 17, 90),
    cat('workclass', 8),
    ord('fnlwgt-bin', 0, 99),
    cat('education', 16),
    ord('education-num', 1, 16),
    cat('marital-status', 7),
    cat('occupation', 14),
    cat('relationship', 6),
    cat('race', 5, true),
    cat('sex', 2, true),
    ord('capital-gain-bin', 0, 19),
    ord('capital-loss-bin', 0, 19),
    ord('hours-per-week', 1, 99),
    cat('native-country', 41),
  ],
  outcome: { name: 'income', labels: ['<=50K', '>50K'], favorable: 1 },
});

function synthesise(n, rng, effects) {
  const d = schema.attributes.length;
  const x = new Float64Array(n * d);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let eta = -1;
    schema.attributes.forEach((a, j) => {
      let v;
      if (a.kind === 'categorical') {
        v = Math.min(a.categories.length - 1, Math.floor(a.categories.length * rng.next() ** 2));
        eta += effects[j][v];
      } else {
        v = Math.round(a.min + (a.max - a.min) * rng.next() ** 1.5);
        eta += (effects[j][0] * (v - a.min)) / (a.max - a.min);
      }
      x[i * d + j] = v;
    });
    y[i] = rng.next() < 1 / (1 + Math.exp(-eta)) ? 1 : 0;
  }
  return createDataset({ schema, x, y });
}

const rng = Rng.create('models-perf');
const effects = schema.attributes.map((a) =>
  Array.from({ length: a.categories?.length ?? 1 }, () => rng.normal(0, a.categories ? 0.5 : 1.5)),
);
const train = synthesise(30000, rng.fork('train'), effects);
const test = synthesise(100000, rng.fork('test'), effects);

const seconds = (t0) => ((performance.now() - t0) / 1000).toFixed(3);
for (const options of [{}, { solver: 'lbfgs' }, { categorical: 'ordinal' }]) {
  let t0 = performance.now();
  const model = fitLogisticRegression(train, options);
  const fit = seconds(t0);
  t0 = performance.now();
  const labels = model.predict(test.x);
  const predict = seconds(t0);
  t0 = performance.now();
  model.scoreGradient(test.x);
  const grad = seconds(t0);
  console.log(
    `${model.description} solver=${model.solver}: ${model.encoder.encodedWidth} encoded columns, ` +
      `fit 30,000 rows ${fit} s (${model.iterations} iterations, converged=${model.converged}), ` +
      `predict 100,000 rows ${predict} s, scoreGradient 100,000 rows ${grad} s, ` +
      `test accuracy ${accuracy(model, test).toFixed(4)} (${labels.length} labels)`,
  );
}
