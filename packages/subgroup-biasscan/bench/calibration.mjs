// BiasScan under a null (not a test). Run after `pnpm build`:
//   node bench/calibration.mjs [runs] [replicates]        (defaults 200 and 19)
// Each run draws a `nullWorld` of `@fb/testkit` (2,000 rows; the outcomes are drawn from the model's
// probabilities, so no subgroup is mis-predicted), with the protected attributes dependent on the
// other features or not, and runs BiasScan with its defaults (both directions). A run rejects when
// any reported subgroup has p ≤ 0.05; with 19 replicates that is a test of exact level 0.05 when the
// two directions are adjusted together.
import { formatRejectionRate, nullWorld, rejectionRate } from '@fb/testkit/calibration';
import { biasScan } from '../dist/index.js';

const runs = Number(process.argv[2] ?? 200);
const replicates = Number(process.argv[3] ?? 19);
const level = 0.05;
const started = performance.now();
for (const protectedDependsOnFeatures of [true, false]) {
  let rejected = 0;
  let rejectedUnadjusted = 0;
  for (let r = 0; r < runs; r++) {
    const { dataset, model } = nullWorld(`biasscan-calibration-${r}`, {
      n: 2000,
      protectedDependsOnFeatures,
    });
    const result = await biasScan.run(
      { dataset, model },
      { randomizationReplicates: replicates },
      { seed: r },
    );
    const subgroups = result.findings.subgroups;
    if (subgroups.some((s) => s.pValue !== null && s.pValue <= level)) rejected++;
    if (subgroups.some((s) => s.details.unadjustedPValue !== null && s.details.unadjustedPValue <= level))
      rejectedUnadjusted++;
  }
  const world = protectedDependsOnFeatures ? 'protected dependent on features' : 'protected independent';
  console.log(formatRejectionRate(`adjusted (max-T), ${world}`, rejectionRate(rejected, runs, level)));
  console.log(formatRejectionRate(`unadjusted, ${world}`, rejectionRate(rejectedUnadjusted, runs, level)));
}
console.log(
  `${runs} runs per line, ${replicates} replicates, defaults otherwise, ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
