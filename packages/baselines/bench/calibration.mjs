// Null calibration of the value-disparity baseline: its Bonferroni-adjusted top p-value on data
// without bias, where a protected attribute depends on another attribute. Prints the rejection rate
// at 0.05 with its Wilson interval. `pnpm --filter @fb/baselines calibration [runs] [rows]`.
import { createDataset, defineSchema, Rng } from '@fb/core';
import { wilsonInterval } from '@fb/eval';
import { valueDisparity } from '../dist/index.js';

const runs = Number(process.argv[2] ?? 1000);
const rows = Number(process.argv[3] ?? 600);
const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'group', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
    { name: 'edu', kind: 'ordinal', protected: false, min: 0, max: 4, step: 1 },
    { name: 'job', kind: 'categorical', protected: false, categories: ['x', 'y', 'z'] },
  ],
  outcome: { name: 'ok', labels: ['no', 'yes'], favorable: 1 },
});
const logit = (r) => 0.6 * (r[2] - 2) + (r[3] === 1 ? 0.5 : 0);
const model = {
  nFeatures: 4,
  nClasses: 2,
  predictProba(x) {
    const out = new Float64Array((x.length / 4) * 2);
    for (let i = 0; i < x.length / 4; i++) {
      const p = 1 / (1 + Math.exp(-logit([x[4 * i], x[4 * i + 1], x[4 * i + 2], x[4 * i + 3]])));
      out[2 * i] = 1 - p;
      out[2 * i + 1] = p;
    }
    return out;
  },
  predict(x) {
    const p = this.predictProba(x);
    return Int32Array.from({ length: x.length / 4 }, (_, i) => (p[2 * i + 1] >= 0.5 ? 1 : 0));
  },
};
let rejected = 0;
for (let s = 0; s < runs; s++) {
  const rng = Rng.create(`calibration-${s}`);
  const x = new Float64Array(rows * 4);
  const y = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    const edu = Math.floor(rng.next() * 5);
    const row = [
      rng.next() < 0.2 + 0.15 * edu ? 1 : 0,
      Math.floor(rng.next() * 3),
      edu,
      Math.floor(rng.next() * 3),
    ];
    x.set(row, 4 * i);
    y[i] = rng.next() < 1 / (1 + Math.exp(-logit(row))) ? 1 : 0;
  }
  const result = await valueDisparity.run(
    { dataset: createDataset({ schema, x, y }), model },
    {},
    { seed: s },
  );
  const top = result.findings.subgroups[0];
  if (top && top.pValue <= 0.05) rejected++;
}
const ci = wilsonInterval(rejected, runs);
console.log(
  `value-disparity, ${runs} null data sets of ${rows} rows (sex depends on edu): top p <= 0.05 in ${rejected} (${(100 * ci.rate).toFixed(1)}%, 95% CI ${(100 * ci.lo).toFixed(1)}-${(100 * ci.hi).toFixed(1)}%); a family-wise level of 5% must not be exceeded`,
);
