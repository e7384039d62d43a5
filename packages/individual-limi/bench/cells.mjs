// LIMI in study cells (not a test). After `pnpm build`: node bench/cells.mjs
// The 13-attribute census data and the 64-32-16-8-4-2 MLP; one cell per protected attribute (sex, race,
// age), each with a time budget of CELL_SECONDS (default 60). Side by side in one run: LIMI training its
// default VAE inside every cell (`limi`), and LIMI searching with one VAE fitted beforehand on the same
// rows (`fitLimiGenerator` once, then `limiWith` in every cell; its training time printed apart).
// ATTRIBUTES narrows the cells; VAE_EPOCHS sets the epochs of both (default: LIMI's 30).
import { loadavg } from 'node:os';
import { loadCensus13 } from '@fb/datasets';
import { fitMlp } from '@fb/models';
import { fitBenchModel, protectingOnly, readCensus13 } from '@fb/testkit';
import { fitLimiGenerator, limi, limiWith } from '../dist/index.js';

const seconds = Number(process.env.CELL_SECONDS ?? 60);
const attributes = (process.env.ATTRIBUTES ?? 'sex,race,age').split(',');
const options = process.env.VAE_EPOCHS ? { epochs: Number(process.env.VAE_EPOCHS) } : {};
const census = await readCensus13(loadCensus13);
const model = await fitBenchModel(
  census,
  (data) => fitMlp(data, { layers: [64, 32, 16, 8, 4], categorical: 'ordinal', epochs: 30, seed: 1 }),
  `${seconds} s per cell`,
);

const loadBefore = loadavg()[0];
const fitted = await fitLimiGenerator(census, options, 1);
console.log(
  `VAE fitted once on ${census.n} rows: ${fitted.trainingSeconds.toFixed(1)} s (${fitted.options.epochs} epochs; load ${loadBefore.toFixed(2)} on 2 cores)`,
);
const reused = limiWith(fitted);
const line = (label, r) => {
  const t = r.extras.timings;
  return (
    `  ${label.padEnd(22)} DSN ${String(r.metrics.dsn).padStart(7)} TSN ${String(r.metrics.tsn).padStart(7)} ` +
    `generator ${(t.generatorSeconds ?? 0).toFixed(1)} s, boundary ${(t.boundarySeconds ?? 0).toFixed(1)} s, ` +
    `probing ${(t.probeSeconds ?? 0).toFixed(1)} s (${r.run.stopReason}; SVM ${r.extras.boundary?.svmStoppedBy ?? '-'})`
  );
};
for (const attribute of attributes) {
  const dataset = protectingOnly(census, attribute);
  const load = loadavg()[0];
  const own = await limi.run({ dataset, model }, options, { seed: 1, budget: { maxSeconds: seconds } });
  const prefit = await reused.run({ dataset, model }, options, { seed: 1, budget: { maxSeconds: seconds } });
  console.log(`${attribute}, ${seconds} s per cell (load ${load.toFixed(2)} on 2 cores):`);
  console.log(line('VAE trained in the cell', own));
  console.log(line('VAE fitted beforehand', prefit));
}
