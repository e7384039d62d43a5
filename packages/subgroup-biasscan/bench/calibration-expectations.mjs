// mdssBiasScan (expectations without a model) under a null (not a test). Run after `pnpm build`:
//   node bench/calibration-expectations.mjs [runs] [replicates]        (defaults 200 and 19)
// Two settings, each on `nullWorld`s of `@fb/testkit` (2,000 rows, protected attributes dependent on
// the other features), defaults otherwise (both directions):
// - given: the true probabilities of the outcomes, passed as P(favourable) per row (no model);
// - null: no expectations (AIF360's default, every row expects the observed favourable rate) on worlds
//   whose outcomes are drawn with one probability for every row (signal "none"), so that the constant
//   expectation is right up to its estimate.
// A run rejects when any reported subgroup has p ≤ 0.05 (with 19 replicates a test of exact level 0.05
// when the expectations are the true probabilities).
import { RunController } from '@fb/core';
import { formatRejectionRate, nullWorld, rejectionRate } from '@fb/testkit/calibration';
import { mdssBiasScan } from '../dist/index.js';

const runs = Number(process.argv[2] ?? 200);
const replicates = Number(process.argv[3] ?? 19);
const level = 0.05;
const started = performance.now();
for (const setting of ['given', 'null']) {
  let rejected = 0;
  for (let r = 0; r < runs; r++) {
    const { dataset, p } = nullWorld(`biasscan-expectations-${setting}-${r}`, {
      n: 2000,
      signal: setting === 'null' ? 'none' : 'features',
    });
    const { subgroups } = await mdssBiasScan(
      dataset,
      setting === 'null' ? null : p,
      { randomizationReplicates: replicates },
      new RunController({ seed: r }),
    );
    if (subgroups.some((s) => s.pValue !== null && s.pValue <= level)) rejected++;
  }
  console.log(formatRejectionRate(`expectations ${setting}`, rejectionRate(rejected, runs, level)));
}
console.log(
  `${runs} runs per line, ${replicates} replicates, defaults otherwise, ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
