// SliceFinder under a null (not a test). Run after `pnpm build`:
//   node bench/calibration.mjs [runs]        (default 200)
// Each run draws a data set whose loss is independent of every attribute (constant predicted
// probability, labels drawn independently; the protected attributes depend on age and job, or not)
// and runs SliceFinder with its defaults. Every reported slice is a false discovery, so the share of
// runs reporting any slice is the family-wise error of the whole search, and the mean number
// reported bounds the expected false discoveries, which α-investing keeps at most W₀/(1 − α).
import { formatRejectionRate, nullWorld, rejectionRate } from '@fb/testkit/calibration';
import { slicefinder } from '../dist/index.js';

const runs = Number(process.argv[2] ?? 200);
const alpha = 0.05;
const started = performance.now();
for (const protectedDependsOnFeatures of [true, false]) {
  for (const approach of ['both', 'lattice', 'decision-tree']) {
    let withSlices = 0;
    let slices = 0;
    for (let r = 0; r < runs; r++) {
      const { dataset, model } = nullWorld(`slicefinder-calibration-${r}`, {
        n: 2000,
        signal: 'none',
        protectedDependsOnFeatures,
      });
      const result = await slicefinder.run({ dataset, model }, { approach, alpha }, { seed: r });
      const found = result.findings.subgroups.length;
      slices += found;
      if (found > 0) withSlices++;
    }
    const label = `${approach}, protected ${protectedDependsOnFeatures ? 'dependent on' : 'independent of'} features`;
    console.log(formatRejectionRate(label, rejectionRate(withSlices, runs, alpha)));
    console.log(
      `  false slices per run ${(slices / runs).toFixed(3)} (bound W0/(1 - alpha) = ${(alpha / (1 - alpha)).toFixed(3)})`,
    );
  }
}
console.log(`${runs} runs per line, n = 2000, ${((performance.now() - started) / 1000).toFixed(0)} s`);
