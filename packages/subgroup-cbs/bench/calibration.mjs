// CBS under nulls (not a test). Run after `pnpm build`:
//   node bench/calibration.mjs [runs] [resamples] [defaults]     (defaults 200, 19, no)
// Each run draws a `nullWorld` of `@fb/testkit` (2,000 rows; the outcome and the model's probability
// depend on age within job only, so I ⊥ A | C, X holds for every scan type; a logistic event model
// additive in the attributes cannot fit it), with sex and race dependent on age and job, or
// independent of everything. With 19 resamples a p-value of at most 0.05 means that no resample
// reached the observed score: a test of exact level 0.05 when the resampling matches the null.
// `defaults` adds the default configuration (every class of sex and race, both directions,
// Bonferroni-adjusted), five times slower.
import { formatRejectionRate, nullWorld, rejectionRate } from '@fb/testkit/calibration';
import { cbs } from '../dist/index.js';

const runs = Number(process.argv[2] ?? 200);
const permutations = Number(process.argv[3] ?? 19);
const withDefaults = process.argv[4] === 'defaults';
const level = 0.05;
const settings = [
  ['sex = female, positive', { protectedAttribute: 'sex', protectedValues: [1], direction: 'positive' }],
  ['sex = female, negative', { protectedAttribute: 'sex', protectedValues: [1], direction: 'negative' }],
  ...(withDefaults ? [['defaults: every class, both directions', {}]] : []),
];
const started = performance.now();
for (const protectedDependsOnFeatures of [true, false]) {
  for (const test of ['conditional-randomization', 'permutation']) {
    for (const [label, options] of settings) {
      let rejected = 0;
      for (let r = 0; r < runs; r++) {
        const { dataset, model } = nullWorld(`cbs-calibration-${r}`, {
          n: 2000,
          signal: 'interaction',
          protectedDependsOnFeatures,
        });
        const result = await cbs.run(
          { dataset, model },
          { ...options, test, permutations, iterations: 3 },
          { seed: r },
        );
        if (result.findings.subgroups.some((s) => s.pValue !== null && s.pValue <= level)) rejected++;
      }
      const world = protectedDependsOnFeatures ? 'A dependent on X' : 'A independent of X';
      console.log(formatRejectionRate(`${test}, ${label}, ${world}`, rejectionRate(rejected, runs, level)));
    }
  }
}
console.log(
  `${runs} runs per line, ${permutations} resamples, separation-recommendations, 3 scan iterations, ` +
    `${((performance.now() - started) / 1000).toFixed(0)} s`,
);
