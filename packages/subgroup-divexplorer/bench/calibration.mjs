// DivExplorer's p-values under a null (not a test). Run after `pnpm build`:
//   node bench/calibration.mjs [runs]        (default 200)
// Each run draws a `nullWorld` of `@fb/testkit` (2,000 rows) whose labels are independent of every
// attribute (signal 'none'), with the protected attributes dependent on the others or not, and runs
// DivExplorer on the favourable-label rate (metric 'label-rate', defaults otherwise: top 5 by |Δ|).
// Every pattern's divergence is null, so every p ≤ 0.05 is a false rejection. Printed: the share of
// runs with a reported (top-k) pattern at p ≤ 0.05, and the share of all frequent patterns with p ≤
// 0.05 when k covers them all (each p-value on its own, before any selection).
import { formatRejectionRate, nullWorld, rejectionRate } from '@fb/testkit/calibration';
import { divexplorer } from '../dist/index.js';

const runs = Number(process.argv[2] ?? 200);
const level = 0.05;
const started = performance.now();
for (const protectedDependsOnFeatures of [true, false]) {
  let anyReported = 0;
  let patterns = 0;
  let small = 0;
  for (let r = 0; r < runs; r++) {
    const { dataset, model } = nullWorld(`divexplorer-calibration-${r}`, {
      n: 2000,
      signal: 'none',
      protectedDependsOnFeatures,
    });
    const top = await divexplorer.run({ dataset, model }, { metrics: ['label-rate'] });
    if (top.findings.subgroups.some((s) => s.pValue <= level)) anyReported++;
    const all = await divexplorer.run(
      { dataset, model },
      { metrics: ['label-rate'], k: 2000, redundancyThreshold: null },
    );
    for (const s of all.findings.subgroups) {
      patterns++;
      if (s.pValue <= level) small++;
    }
  }
  const world = protectedDependsOnFeatures ? 'protected dependent on features' : 'protected independent';
  console.log(
    formatRejectionRate(`top-5 patterns, any p <= 0.05, ${world}`, rejectionRate(anyReported, runs, level)),
  );
  console.log(formatRejectionRate(`every frequent pattern, ${world}`, rejectionRate(small, patterns, level)));
}
console.log(`${runs} runs per setting, n = 2000, ${((performance.now() - started) / 1000).toFixed(0)} s`);
