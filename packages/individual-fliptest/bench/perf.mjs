// FlipTest on the 13-attribute census encoding, women mapped to men: seconds for the exact map at
// 1,000 and 5,000 rows per side, and the entropic plan's and map's costs relative to the exact one on the same
// samples. SIZES overrides the sizes (comma-separated). Data: FB_DATA_DIR, else ../shared/datasets.
import { loadCensus13 } from '@fb/datasets';
import { fitLogisticRegression } from '@fb/models';
import { protectingOnly, readCensus13 } from '@fb/testkit';
import { fliptest } from '../dist/index.js';

const sizes = (process.env.SIZES ?? '1000,5000').split(',').map(Number);
const dataset = protectingOnly(await readCensus13(loadCensus13), 'sex');
const model = fitLogisticRegression(dataset, { categorical: 'ordinal' });
console.log(`census13: ${dataset.n} rows; sex 0 (female) -> 1 (male); model ${model.description}`);

for (const sampleSize of sizes) {
  const run = (transport) => fliptest.run({ dataset, model }, { sampleSize, transport }, { seed: 1 });
  const exact = await run('exact');
  const entropic = await run('entropic');
  const e = exact.extras.attributes[0];
  const a = entropic.extras.attributes[0];
  const line = (name, r, x) =>
    `  ${name.padEnd(8)} ${r.extras.timings.sex.transportSeconds.toFixed(2).padStart(7)} s transport  ` +
    `${r.run.wallSeconds.toFixed(2).padStart(7)} s total  mean cost ${x.meanCost.toFixed(3)}  ` +
    `|F+| ${x.flipset.positive.length}  |F-| ${x.flipset.negative.length}` +
    (x.sinkhorn
      ? `  (${x.sinkhorn.iterations} Sinkhorn iterations, marginal error ${x.sinkhorn.marginalError.toExponential(1)})`
      : '');
  console.log(`${sampleSize} rows per side:`);
  console.log(line('exact', exact, e));
  console.log(line('entropic', entropic, a));
  console.log(
    `  entropic plan cost / exact OT cost: ${(a.sinkhorn.planCost / e.meanCost).toFixed(3)}; ` +
      `barycentric map cost / exact: ${(a.meanCost / e.meanCost).toFixed(3)}`,
  );
}
