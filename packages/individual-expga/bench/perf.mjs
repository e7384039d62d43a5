// ExpGA on the 13-attribute census encoding with protected gender, race and age in turn, against the
// literature's MLP 64-32-16-8-4. Run after `pnpm build`: node bench/perf.mjs [seconds per attribute,
// default 60] [attributes, default sex,race,age]. Prints discriminatory inputs found in the budget, per
// second, and seconds to the first 1,000.
import { loadCensus13 } from '@fb/datasets';
import { fitMlp } from '@fb/models';
import { attributeRunsFromArgv, benchCensus13 } from '@fb/testkit';
import { expga } from '../dist/index.js';

await benchCensus13({
  detector: expga,
  loadCensus13,
  fit: (census) => fitMlp(census, { layers: [64, 32, 16, 8, 4], seed: 1 }),
  // The original code's census settings; the generations are raised so that the time budget ends the run.
  ...attributeRunsFromArgv({ thresholdRank: 7, generations: 100_000_000 }),
  extras: ({ extras: x }) =>
    `seeds ${x.seeds} of ${x.explained} explained in ${x.timings.seedSeconds.toFixed(1)} s`,
});
