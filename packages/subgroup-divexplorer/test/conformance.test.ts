import { describeConformance, makeFixture } from '@fb/testkit';
import { divexplorer as detector } from '../src/index.js';

describeConformance(detector, {
  // The kit's fixture at 20,000 rows: with 400 rows even a support of one row yields too few patterns
  // (at most 400 · 2⁵) to outlast a time budget.
  fixture: () => makeFixture(20_000),
  // FPR and FNR divergence at support 0.05: a fraction of a second.
  quickOptions: {},
  // Support of one row with every distinct value an item: hundreds of thousands of patterns, each with
  // its Shapley terms.
  longOptions: { minSupport: 1 / 20_000, maxValues: 100_000, bins: 100_000, k: 1000 },
});
