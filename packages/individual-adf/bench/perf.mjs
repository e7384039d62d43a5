// ADF on the 13-attribute census encoding, one protected attribute at a time, as in the ADF and
// LIMI papers. Prints discriminatory inputs found within the budget, per second, and seconds to
// 1,000. Budget per run: BENCH_SECONDS (default 60). Data: FB_DATA_DIR, else ../shared/datasets.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDataset } from '@fb/core';
import { loadCensus13 } from '@fb/datasets';
import * as models from '@fb/models';
import { adf } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.FB_DATA_DIR ?? path.resolve(here, '../../../../shared/datasets');
const seconds = Number(process.env.BENCH_SECONDS ?? 60);
const census = await loadCensus13({ dataDir });

/** The census data with only `name` protected. */
function protecting(name) {
  const schema = {
    ...census.schema,
    attributes: census.schema.attributes.map((a) => ({ ...a, protected: a.name === name })),
  };
  return createDataset({ schema, x: census.x, y: census.y, name: `census13-${name}` });
}

// The ADF paper's 64-32-16-8-4-2 MLP (ordinal inputs, as the literature's numeric encoding), trained
// once on all rows: marking a different attribute protected does not change the data.
const epochs = Number(process.env.MLP_EPOCHS ?? 30);
const t0 = performance.now();
const model =
  process.env.MODEL === 'logistic'
    ? models.fitLogisticRegression(census, { categorical: 'ordinal' })
    : await models.fitMlp(census, { layers: [64, 32, 16, 8, 4], categorical: 'ordinal', epochs, seed: 1 });
const fitSeconds = (performance.now() - t0) / 1000;
const accuracy = models.accuracy(model, census);

console.log(
  `census13: ${census.n} rows; model ${model.description} fitted in ${fitSeconds.toFixed(1)} s, training accuracy ${(100 * accuracy).toFixed(2)} %; budget ${seconds} s per run`,
);
for (const refinement of ['none', 'eidig']) {
  for (const attribute of ['sex', 'race', 'age']) {
    const dataset = protecting(attribute);
    let to1000 = null;
    const r = await adf.run(
      { dataset, model },
      { refinement },
      {
        seed: 1,
        budget: { maxSeconds: seconds },
        progressIntervalMs: 0,
        onProgress: (p) => {
          if (to1000 === null && p.discriminatory >= 1000) to1000 = p.elapsedSeconds;
        },
      },
    );
    const { tsn, dsn, sur } = r.metrics;
    const s = r.run.wallSeconds;
    const x = r.extras;
    console.log(
      `${refinement.padEnd(5)} ${attribute.padEnd(5)} DSN ${String(dsn).padStart(7)} ` +
        `TSN ${String(tsn).padStart(8)} SUR ${(100 * sur).toFixed(1).padStart(5)} %  ${(dsn / s).toFixed(1).padStart(7)} /s  ` +
        `to 1,000: ${to1000 === null ? 'n/a' : `${to1000.toFixed(1)} s`}  seeds ${x.seedsUsed}/${x.seeds}  ` +
        `global ${x.globalDiscriminatory}/${x.globalTested}  gradient rows ${x.gradientRows}  ${s.toFixed(1)} s (${r.run.stopReason})`,
    );
  }
}
