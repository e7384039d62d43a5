import { describeConformance, makeFixture } from '@fb/testkit';
import { slicefinder as detector } from '../src/index.js';

describeConformance(detector, {
  // The planted-bias fixture at 2,000 rows: at 400 no slice is significant under α-investing.
  fixture: () => makeFixture(2000),
  // Both searches with the original defaults: a fraction of a second.
  quickOptions: {},
  // Nothing reaches an effect size of 1000, so every slice is crossed again, up to 5 predicates, with
  // every distinct hours value its own slice and no smallest size: millions of candidates.
  longOptions: {
    approach: 'lattice',
    epsilon: 1000,
    degree: 5,
    maxValues: 100_000,
    bins: 100_000,
    minSize: 1,
  },
});
