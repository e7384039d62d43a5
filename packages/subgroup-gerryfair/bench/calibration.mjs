// GerryFair's permutation p-value under a null (not a test). Run after `pnpm build`:
//   node bench/calibration.mjs [runs] [permutations]        (defaults 200 and 19)
// Each run draws a `nullWorld` of `@fb/testkit` (2,000 rows; outcomes and the model's probability
// depend on age, hours and job only) with sex and race drawn independently of everything, so every
// group of the protected attributes has the same false positive rate in expectation. (When the
// protected attributes depend on the features, their false positive rates truly differ, which is
// the marginal unfairness GerryFair audits: not a null.) A run rejects when a reported group has
// p ≤ 0.05; with 19 permutations that is a test of exact level 0.05.
import { formatRejectionRate, nullWorld, rejectionRate } from '@fb/testkit/calibration';
import { gerryfair } from '../dist/index.js';

const runs = Number(process.argv[2] ?? 200);
const permutations = Number(process.argv[3] ?? 19);
const level = 0.05;
const started = performance.now();
for (const [label, options] of [
  ['gamma 0 (every group reported)', { gamma: 0 }],
  ['defaults (gamma 0.01)', {}],
]) {
  let rejected = 0;
  for (let r = 0; r < runs; r++) {
    const { dataset, model } = nullWorld(`gerryfair-calibration-${r}`, {
      n: 2000,
      protectedDependsOnFeatures: false,
    });
    const result = await gerryfair.run({ dataset, model }, { ...options, permutations }, { seed: r });
    if (result.findings.subgroups.some((s) => s.pValue !== null && s.pValue <= level)) rejected++;
  }
  console.log(formatRejectionRate(label, rejectionRate(rejected, runs, level)));
}
console.log(
  `${runs} runs per line, ${permutations} permutations, ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
