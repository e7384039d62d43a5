// Sequential against fixed randomisation test, side by side in one run (not a test). After `pnpm build`:
//   node bench/sequential.mjs [nullRuns] [biasedRuns]          (defaults 40 and 10)
// Calibration set: `nullWorld`s of `@fb/testkit/calibration` (2,000 rows, protected attributes dependent
// on the features in half of them, outcomes drawn from the model: no subgroup mis-predicted), and
// biased worlds where the model multiplies the odds of the favourable outcome by 2 for women (over-predicted). Each data set is scanned with BiasScan's defaults (both directions,
// 100 replicates) twice with the same seed, `stopping: 'sequential'` (the default) and
// `'fixed'`, alternating which runs first. Prints the wall-time ratio and whether every reported
// subgroup gets the same decision at 0.05 (and at 0.01).
import { loadavg } from 'node:os';
import { nullWorld, shiftedOddsModel } from '@fb/testkit/calibration';
import { biasScan } from '../dist/index.js';

const nullRuns = Number(process.argv[2] ?? 40);
const biasedRuns = Number(process.argv[3] ?? 10);

const overPredicting = (model) => shiftedOddsModel(model, 2, (x, o) => x[o] === 1);

// Warm-up (compilation), not counted.
{
  const world = nullWorld('biasscan-sequential-warm-up', { n: 2000 });
  await biasScan.run({ dataset: world.dataset, model: world.model }, { stopping: 'fixed' }, { seed: 0 });
}
const load = loadavg()[0];
const blank = () => ({ time: 0, replicates: 0, rejections: 0 });
const totals = {
  null: { sequential: blank(), fixed: blank() },
  biased: { sequential: blank(), fixed: blank() },
};
let subgroups = 0;
let agree05 = 0;
let agree01 = 0;
for (let r = 0; r < nullRuns + biasedRuns; r++) {
  const kind = r >= nullRuns ? 'biased' : 'null';
  const world = nullWorld(`biasscan-sequential-${r}`, { n: 2000, protectedDependsOnFeatures: r % 2 === 0 });
  const model = kind === 'biased' ? overPredicting(world.model) : world.model;
  const order = r % 2 === 0 ? ['sequential', 'fixed'] : ['fixed', 'sequential'];
  const found = {};
  for (const test of order) {
    const t0 = performance.now();
    const result = await biasScan.run({ dataset: world.dataset, model }, { stopping: test }, { seed: r });
    const total = totals[kind][test];
    total.time += (performance.now() - t0) / 1000;
    total.replicates += result.extras.replicatesCompleted;
    found[test] = result.findings.subgroups;
    total.rejections += found[test].filter((s) => s.pValue <= 0.05).length;
  }
  found.sequential.forEach((s, i) => {
    const f = found.fixed[i];
    if (f.score !== s.score) throw new Error(`run ${r}: the two tests scanned differently`);
    subgroups++;
    if (s.pValue <= 0.05 === f.pValue <= 0.05) agree05++;
    if (s.pValue <= 0.01 === f.pValue <= 0.01) agree01++;
  });
}
console.log(
  `BiasScan defaults (both directions, 100 replicates), 2,000 rows; load ${load.toFixed(2)} on 2 cores at start`,
);
for (const [kind, runs] of [
  ['null', nullRuns],
  ['biased', biasedRuns],
]) {
  if (runs === 0) continue;
  const { sequential: s, fixed: f } = totals[kind];
  console.log(
    `  ${runs} ${kind} worlds: fixed ${f.time.toFixed(1)} s (${f.replicates} replicates, ${f.rejections} p <= 0.05), ` +
      `sequential ${s.time.toFixed(1)} s (${s.replicates} replicates, ${s.rejections} p <= 0.05): ${(f.time / s.time).toFixed(2)}x faster`,
  );
}
console.log(
  `  same decision at 0.05 for ${agree05}/${subgroups} subgroups, at 0.01 for ${agree01}/${subgroups}`,
);
