// Timings of the GerryFair auditor (not a test). Run after `pnpm build`: node bench/perf.mjs
// A logistic model over three protected attributes (2 x 6 x 3 values) and two others, with an FP excess
// planted in one intersection; one audit, then the audit with 999 permutations, at two sizes.
import { createDataset, createRng, defineSchema } from '@fb/core';
import { probabilityModel } from '@fb/testkit';
import { gerryfair } from '../dist/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'race', kind: 'categorical', protected: true, categories: ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'] },
    { name: 'age', kind: 'categorical', protected: true, categories: ['<25', '25-45', '>45'] },
    { name: 'priors', kind: 'ordinal', protected: false, min: 0, max: 10, step: 1 },
    { name: 'charge', kind: 'categorical', protected: false, categories: ['F', 'M'] },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});
const model = probabilityModel('planted-fp-excess', (r) => {
  const z = -0.8 + 0.2 * r[3] - 0.4 * r[4] + (r[0] === 1 && r[1] === 2 ? 1 : 0);
  return 1 / (1 + Math.exp(-z));
});

function makeDataset(n, seed) {
  const rng = createRng(seed);
  const x = new Float64Array(n * 5);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    x.set([rng.int(0, 1), rng.int(0, 5), rng.int(0, 2), rng.int(0, 10), rng.int(0, 1)], 5 * i);
    const z = -0.8 + 0.2 * x[5 * i + 3] - 0.4 * x[5 * i + 4];
    y[i] = rng.bernoulli(1 / (1 + Math.exp(-z))) ? 1 : 0;
  }
  return createDataset({ schema, x, y });
}

// Warm-up run (JIT) before timing.
await gerryfair.run(
  { dataset: makeDataset(2000, 'warm-up'), model },
  { permutations: 99, gamma: 0 },
  { seed: 1 },
);

for (const n of [6172, 50000]) {
  const dataset = makeDataset(n, `perf-${n}`);
  for (const permutations of [0, 999]) {
    const t = performance.now();
    const r = await gerryfair.run(
      { dataset, model },
      { direction: 'higher', predictions: 'probabilities', gamma: 0, permutations },
      { seed: 1 },
    );
    const s = (performance.now() - t) / 1000;
    const [f] = r.findings.subgroups;
    console.log(
      `${n} rows, ${permutations} permutations: ${s.toFixed(3)} s;` +
        ` gamma ${f?.score.toFixed(5)}, p ${f?.pValue}, members ${f?.details.members}, exact ${f?.details.exact}`,
    );
  }
}
