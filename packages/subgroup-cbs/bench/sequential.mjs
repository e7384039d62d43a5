// Sequential against fixed resampling test, side by side in one run (not a test). After `pnpm build`:
//   node bench/sequential.mjs [nullRuns] [biasedRuns]          (defaults 20 and 4)
// Calibration set: `nullWorld`s of `@fb/testkit/calibration` (2,000 rows, the outcome and the model
// depending on age within job only, sex and race dependent on age and job in half of them), and
// biased worlds whose model doubles the odds of the favourable prediction for women. Null worlds are
// scanned with CBS's defaults (every class of sex and race, both directions, 99 resamples, Bonferroni
// over the 10 scans: the smallest p-value possible is 10/100, so nothing is rejected at 0.05) and with
// the class sex = 1 only (2 scans, smallest p-value 0.02); biased ones with the class sex = 1. Each is
// scanned twice with the same seed, `stopping: 'sequential'` (the default) and `'fixed'`, alternating
// which runs first. Prints the wall-time ratio and whether every reported subgroup gets the same
// decision at 0.05 (and at 0.01). Then the article study's cells with and without the fit cache
// (bench/cells.mjs, seed 1, the scan types of the data and model-output questions).
import { loadavg } from 'node:os';
import { nullWorld, shiftedOddsModel } from '@fb/testkit/calibration';
import { cbs } from '../dist/index.js';
import { benchCells } from './cells.mjs';

const nullRuns = Number(process.argv[2] ?? 20);
const biasedRuns = Number(process.argv[3] ?? 4);

const favouringWomen = (model) => shiftedOddsModel(model, 2, (x, o) => x[o] === 1);

const worldOf = (r) =>
  nullWorld(`cbs-sequential-${r}`, {
    n: 2000,
    signal: 'interaction',
    protectedDependsOnFeatures: r % 2 === 0,
  });
{
  const { dataset, model } = worldOf('warm-up');
  await cbs.run({ dataset, model }, { stopping: 'fixed', permutations: 9 }, { seed: 0 });
}
const load = loadavg()[0];
// 99 resamples in every setting (the default for one or two scans; ten scans get 399 by default).
const sexOnly = { protectedAttribute: 'sex', protectedValues: [1], permutations: 99 };
// [label, runs, biased model, options]
const settings = [
  ['null worlds, every class (10 scans), 99 resamples', nullRuns, false, { permutations: 99 }],
  ['null worlds, every class (10 scans), default resamples (399)', nullRuns, false, {}],
  ['null worlds, class sex = 1 (2 scans)', nullRuns, false, sexOnly],
  ['biased worlds, class sex = 1 (2 scans)', biasedRuns, true, sexOnly],
];
const lines = [];
let scans = 0;
let agree05 = 0;
let agree01 = 0;
for (const [label, runs, biased, options] of settings) {
  const total = {
    sequential: { time: 0, resamples: 0, rejections: 0 },
    fixed: { time: 0, resamples: 0, rejections: 0 },
  };
  for (let r = 0; r < runs; r++) {
    const { dataset, model } = worldOf(r);
    const order = r % 2 === 0 ? ['sequential', 'fixed'] : ['fixed', 'sequential'];
    const summaries = {};
    for (const stopping of order) {
      const t0 = performance.now();
      const result = await cbs.run(
        { dataset, model: biased ? favouringWomen(model) : model },
        { ...options, stopping },
        { seed: r },
      );
      const t = total[stopping];
      t.time += (performance.now() - t0) / 1000;
      // Every scan's own summary, found subgroup or not: its resamples and its adjusted p-value.
      summaries[stopping] = result.extras.scans;
      for (const s of result.extras.scans) t.resamples += s.permutationsCompleted;
      t.rejections += result.findings.subgroups.filter((s) => s.pValue <= 0.05).length;
    }
    summaries.sequential.forEach((s, i) => {
      const f = summaries.fixed[i];
      if (f.score !== s.score) throw new Error(`run ${r}: the two tests scanned differently`);
      if (!(s.score > 0)) return;
      scans++;
      if (s.pValue <= 0.05 === f.pValue <= 0.05) agree05++;
      if (s.pValue <= 0.01 === f.pValue <= 0.01) agree01++;
    });
  }
  const { sequential: q, fixed: f } = total;
  lines.push(
    `  ${runs} ${label}: fixed ${f.time.toFixed(1)} s (${f.resamples} resamples, ${f.rejections} p <= 0.05), ` +
      `sequential ${q.time.toFixed(1)} s (${q.resamples} resamples, ${q.rejections} p <= 0.05): ${(f.time / q.time).toFixed(2)}x faster`,
  );
}
console.log(`CBS, 99 resamples, 2,000 rows; load ${load.toFixed(2)} on 2 cores at start`);
for (const line of lines) console.log(line);
console.log(`  same decision at 0.05 for ${agree05}/${scans} scans, at 0.01 for ${agree01}/${scans}`);

// The study's cells: the fit cache against the uncached path, same run, same decisions, for the two
// scan types the study's questions use (data: sufficiency-predictions; model output:
// separation-predictions). Target of issue 44: CBS at least 3x faster with the same decisions.
console.log("\nCBS on the article study's base scenario (seed 1; logistic regression, random forest, MLP)");
const { totals, same, cells } = await benchCells([1], ['sufficiency-predictions', 'separation-predictions']);
let uncached = 0;
let cached = 0;
for (const [key, seconds] of totals) {
  if (key.endsWith(' uncached')) uncached += seconds;
  if (key.endsWith(' cached') && !key.endsWith(' uncached')) cached += seconds;
}
console.log(
  `  CBS cells, CPU seconds: uncached ${uncached.toFixed(1)} s, fit cache ${cached.toFixed(1)} s: ${(uncached / cached).toFixed(2)}x ` +
    `(target 3x), same decisions in ${same}/${cells} cells`,
);
