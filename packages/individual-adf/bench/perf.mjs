// ADF on the 13-attribute census encoding, one protected attribute at a time, as in the ADF and
// LIMI papers. Prints discriminatory inputs found within the budget, per second, and seconds to
// 1,000. Budget per run: BENCH_SECONDS (default 60). Data: FB_DATA_DIR, else ../shared/datasets.
import { loadCensus13 } from '@fb/datasets';
import { fitLogisticRegression, fitMlp } from '@fb/models';
import { benchCensus13 } from '@fb/testkit';
import { adf } from '../dist/index.js';

// The ADF paper's 64-32-16-8-4-2 MLP (ordinal inputs, as the literature's numeric encoding), trained
// once on all rows: marking a different attribute protected does not change the data.
const epochs = Number(process.env.MLP_EPOCHS ?? 30);
await benchCensus13({
  detector: adf,
  loadCensus13,
  fit: (census) =>
    process.env.MODEL === 'logistic'
      ? fitLogisticRegression(census, { categorical: 'ordinal' })
      : fitMlp(census, { layers: [64, 32, 16, 8, 4], categorical: 'ordinal', epochs, seed: 1 }),
  seconds: Number(process.env.BENCH_SECONDS ?? 60),
  runs: ['none', 'eidig'].flatMap((refinement) =>
    ['sex', 'race', 'age'].map((attribute) => ({
      label: `${refinement.padEnd(5)} ${attribute.padEnd(5)}`,
      attribute,
      options: { refinement },
    })),
  ),
  extras: ({ extras: x }) =>
    `seeds ${x.seedsUsed}/${x.seeds}  global ${x.globalDiscriminatory}/${x.globalTested}  gradient rows ${x.gradientRows}`,
});
