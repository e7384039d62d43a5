// Many SG runs in one process, as a study's worker thread makes them: each stopped by a short seconds
// cap (so some stop mid-check), against a random forest on 10 attributes. Prints resident memory every
// 50 runs and any run that outlasts its cap by more than 5 s. Not a test.
// Run after `pnpm build`: node bench/many-runs.mjs [runs, default 400]
import { createDataset, createRng, defineSchema } from '@fb/core';
import { fit } from '@fb/models';
import { sg } from '../dist/index.js';

const runs = Number(process.argv[2] ?? 400);
const d = 10;
const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['female', 'male'] },
    ...Array.from({ length: d - 1 }, (_, j) => ({
      name: `a${j}`,
      kind: 'ordinal',
      protected: false,
      min: 0,
      max: 9,
    })),
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});
const rng = createRng('many-runs');
const n = 2000;
const x = new Float64Array(n * d);
const y = new Int32Array(n);
for (let i = 0; i < n; i++) {
  x[i * d] = rng.int(0, 1);
  for (let j = 1; j < d; j++) x[i * d + j] = rng.int(0, 9);
  y[i] = Number(x[i * d + 1] + x[i * d + 2] + 3 * x[i * d] + rng.normal(0, 2) > 10);
}
const dataset = createDataset({ schema, x, y });
const model = await fit(dataset, { model: 'random-forest', seed: 1 });

let worst = 0;
const started = performance.now();
for (let r = 0; r < runs; r++) {
  const cap = 0.05 + ((r * 37) % 20) / 40; // 0.05 to 0.525 s
  const t0 = performance.now();
  const result = await sg.run(
    { dataset, model },
    { limeSamples: 500 },
    { seed: r, budget: { maxSeconds: cap } },
  );
  const over = (performance.now() - t0) / 1000 - cap;
  worst = Math.max(worst, over);
  if (over > 5) console.log(`run ${r}: ${over.toFixed(1)} s past its ${cap} s cap`);
  if (r % 50 === 0) {
    const rss = process.memoryUsage().rss / 1e6;
    console.log(
      `run ${r}: resident ${rss.toFixed(0)} MB (${result.extras.solverChecks} Z3 checks in this run)`,
    );
  }
}
console.log(
  `${runs} runs in ${((performance.now() - started) / 1000).toFixed(0)} s; longest past its cap ${worst.toFixed(2)} s`,
);
