// Timings of the Multiaccuracy Boost auditor (not a test). Run after `pnpm build`: node bench/perf.mjs
// COMPAS-sized data (6,172 rows; sex, race (6), age (3), priors (3), charge (2)) and a model that
// over-estimates the favourable probability of one intersection; both directions of the reference and the
// CBS paper's one-direction audit, without and with 19 null replicas, then 50,000 rows.
import { createDataset, createRng, defineSchema } from '@fb/core';
import { probabilityModel } from '@fb/testkit';
import { multiaccuracy } from '../dist/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'race', kind: 'categorical', protected: true, categories: ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'] },
    { name: 'age', kind: 'categorical', protected: true, categories: ['<25', '25-45', '>45'] },
    { name: 'priors', kind: 'categorical', protected: false, categories: ['0', '1-5', '>5'] },
    { name: 'charge', kind: 'categorical', protected: false, categories: ['F', 'M'] },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});
const truth = (x, o) => 1 / (1 + Math.exp(-(-0.5 + 0.4 * x[o + 3] - 0.3 * x[o + 4] + 0.2 * x[o + 2])));
const model = probabilityModel('planted-over-estimate', (r) => {
  const z = -0.5 + 0.4 * r[3] - 0.3 * r[4] + 0.2 * r[2] + (r[0] === 1 && r[1] === 2 ? 0.8 : 0);
  return 1 / (1 + Math.exp(-z));
});

function makeDataset(n, seed) {
  const rng = createRng(seed);
  const x = new Float64Array(n * 5);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    x.set([rng.int(0, 1), rng.int(0, 5), rng.int(0, 2), rng.int(0, 2), rng.int(0, 1)], 5 * i);
    y[i] = rng.bernoulli(truth(x, 5 * i)) ? 1 : 0;
  }
  return createDataset({ schema, x, y });
}

await multiaccuracy.run({ dataset: makeDataset(2000, 'warm-up'), model }, { replicas: 3 }, { seed: 1 });

for (const [n, settings] of [
  [
    6172,
    [
      ['both', 0],
      ['both', 19],
      ['over', 0],
      ['over', 19],
    ],
  ],
  [
    50000,
    [
      ['both', 0],
      ['over', 0],
    ],
  ],
]) {
  const dataset = makeDataset(n, `perf-${n}`);
  for (const [direction, replicas] of settings) {
    const t = performance.now();
    const r = await multiaccuracy.run({ dataset, model }, { direction, replicas }, { seed: 1 });
    const s = (performance.now() - t) / 1000;
    const [f] = r.findings.subgroups;
    console.log(
      `${n} rows, direction ${direction}, ${replicas} replicas: ${s.toFixed(2)} s; ${r.extras.rounds} rounds,` +
        ` best ${f?.details.partition} (round ${f?.details.round}), score ${f?.score.toFixed(4)}, p ${f?.pValue}`,
    );
  }
}
