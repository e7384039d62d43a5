// Multiaccuracy Boost's replica p-value under a null (not a test). Run after `pnpm build`:
//   node bench/calibration.mjs [runs] [replicas]        (defaults 200 and 19)
// Each run draws a `nullWorld` of `@fb/testkit` (2,000 rows; outcomes drawn from the model's
// probabilities, so the predictions are calibrated on every group), with the protected attributes
// dependent on the other features or not. A run rejects when its partition has p ≤ 0.05; with 19
// replicas that is a test of exact level 0.05.
import { formatRejectionRate, nullWorld, rejectionRate } from '@fb/testkit/calibration';
import { multiaccuracy } from '../dist/index.js';

const runs = Number(process.argv[2] ?? 200);
const replicas = Number(process.argv[3] ?? 19);
const level = 0.05;
const started = performance.now();
for (const protectedDependsOnFeatures of [true, false]) {
  let rejected = 0;
  for (let r = 0; r < runs; r++) {
    const { dataset, model } = nullWorld(`multiaccuracy-calibration-${r}`, {
      n: 2000,
      protectedDependsOnFeatures,
    });
    const result = await multiaccuracy.run({ dataset, model }, { replicas }, { seed: r });
    if (result.findings.subgroups.some((s) => s.pValue !== null && s.pValue <= level)) rejected++;
  }
  const world = protectedDependsOnFeatures ? 'protected dependent on features' : 'protected independent';
  console.log(formatRejectionRate(world, rejectionRate(rejected, runs, level)));
}
console.log(
  `${runs} runs per line, ${replicas} replicas, defaults otherwise, ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
