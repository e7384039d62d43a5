// Timings of the bias scan (not a test). Run after `pnpm build`: node bench/perf.mjs
// 1. One scan of 50,000 records x 10 attributes x 5 values, 10 iterations, penalty 1, Bernoulli, one direction
//    (AIF360 takes about 4 s for this setting on a 2-core machine).
// 2. The randomisation test with 200 replicas on COMPAS-sized data (6,172 records, 5 attributes of arity 2-6).
import { createDataset, createRng, defineSchema } from '@fb/core';
import { biasScan } from '../dist/index.js';

/** A logistic model over coded attributes: batch predictProba, no per-row objects. */
function logisticModel(d, weight) {
  const prob = (x, o) => {
    let z = -0.5;
    for (let m = 0; m < d; m++) z += weight(m, x[o + m]);
    return 1 / (1 + Math.exp(-z));
  };
  return {
    nFeatures: d,
    nClasses: 2,
    prob,
    predict: (x) => Int32Array.from({ length: x.length / d }, (_, i) => (prob(x, i * d) >= 0.5 ? 1 : 0)),
    predictProba(x) {
      const n = x.length / d;
      const out = new Float64Array(2 * n);
      for (let i = 0; i < n; i++) {
        const p = prob(x, i * d);
        out[2 * i] = 1 - p;
        out[2 * i + 1] = p;
      }
      return out;
    },
  };
}

function makeDataset(n, arities, seed, planted) {
  const d = arities.length;
  const schema = defineSchema({
    attributes: arities.map((k, m) => ({
      name: `a${m}`,
      kind: 'categorical',
      protected: m === 0,
      categories: Array.from({ length: k }, (_, v) => `v${v}`),
    })),
    outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
  });
  const model = logisticModel(d, (m, v) => 0.15 * (v - 2) * (m % 3 === 0 ? 1 : -0.5));
  const rng = createRng(seed);
  const x = new Float64Array(n * d);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    for (let m = 0; m < d; m++) x[i * d + m] = rng.int(0, arities[m] - 1);
    const p = model.prob(x, i * d);
    const odds = (p / (1 - p)) * (planted(x, i * d) ? 0.5 : 1);
    y[i] = rng.next() < odds / (1 + odds) ? 1 : 0;
  }
  return { dataset: createDataset({ schema, x, y }), model };
}

const describe = (s) => s.conditions.map((c) => `${c.attribute}∈{${c.values}}`).join(' ∧ ');

{
  const { dataset, model } = makeDataset(
    50_000,
    new Array(10).fill(5),
    'perf-50k',
    (x, o) => x[o] <= 1 && x[o + 1] === 3,
  );
  const options = { direction: 'negative', numIters: 10, penalty: 1, randomizationReplicates: 0 };
  await biasScan.run({ dataset, model }, options, { seed: 'warm-up' });
  const times = [];
  let result;
  for (let rep = 0; rep < 5; rep++) {
    result = await biasScan.run({ dataset, model }, options, { seed: rep });
    times.push(result.extras.timings.scanSeconds);
  }
  times.sort((a, b) => a - b);
  const [top] = result.findings.subgroups;
  console.log(
    `scan, 50,000 x 10 x 5, 10 iterations: median ${times[2].toFixed(3)} s (min ${times[0].toFixed(3)}, max ${times[4].toFixed(3)}); ` +
      `score ${top.score.toFixed(4)} on ${top.size} records: ${describe(top)}`,
  );
}

{
  const { dataset, model } = makeDataset(
    6_172,
    [2, 6, 3, 2, 3],
    'perf-compas',
    (x, o) => x[o] === 1 && x[o + 2] === 0,
  );
  const options = { direction: 'negative', numIters: 10, penalty: 1, randomizationReplicates: 200 };
  const result = await biasScan.run({ dataset, model }, options, { seed: 1 });
  const [top] = result.findings.subgroups;
  const t = result.extras.timings;
  console.log(
    `randomisation test, 6,172 x 5 attributes, 10 iterations, 200 replicas: ${t.randomizationSeconds.toFixed(2)} s ` +
      `(main scan ${t.scanSeconds.toFixed(3)} s); top subgroup ${describe(top)}, score ${top.score.toFixed(3)}, p = ${top.pValue}`,
  );
}
