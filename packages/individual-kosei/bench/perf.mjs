// KOSEI on the 13-attribute census encoding with protected gender, race and age in turn, against the
// literature's MLP 64-32-16-8-4. Run after `pnpm build`: node bench/perf.mjs [seconds per attribute,
// default 60] [attributes, default sex,race,age]. Prints discriminatory inputs found in the budget, per
// second, and seconds to the first 1,000.
import { loadCensus13 } from '@fb/datasets';
import { fitMlp } from '@fb/models';
import { attributeRunsFromArgv, benchCensus13 } from '@fb/testkit';
import { kosei } from '../dist/index.js';

await benchCensus13({
  detector: kosei,
  loadCensus13,
  fit: (census) => fitMlp(census, { layers: [64, 32, 16, 8, 4], seed: 1 }),
  // The original's 2000 global draws; its local limit (2000 per global hit) is spent within seconds
  // here, so it is raised until the queue or the time budget ends the walk.
  ...attributeRunsFromArgv({ globalIterations: 2000, localLimit: 1_000_000 }),
});
