// Null calibration of the value-disparity baseline: its Bonferroni-adjusted top p-value on the kit's
// null worlds (sex and race depend on age and job; the model is the true probability). Prints the
// rejection rate at 0.05 with its interval. `pnpm --filter @fb/baselines calibration [runs] [rows]`.
import { formatRejectionRate, nullWorld, rejectionRate } from '@fb/testkit/calibration';
import { valueDisparity } from '../dist/index.js';

const runs = Number(process.argv[2] ?? 1000);
const rows = Number(process.argv[3] ?? 600);
let rejected = 0;
for (let s = 0; s < runs; s++) {
  const { dataset, model } = nullWorld(`value-disparity-${s}`, { n: rows });
  const result = await valueDisparity.run({ dataset, model }, {}, { seed: s });
  const top = result.findings.subgroups[0];
  if (top && top.pValue <= 0.05) rejected++;
}
console.log(
  formatRejectionRate(
    `value-disparity, ${runs} null data sets of ${rows} rows (protected attributes depend on the others), top p <= 0.05; a family-wise level of 5% must not be exceeded`,
    rejectionRate(rejected, runs, 0.05),
  ),
);
