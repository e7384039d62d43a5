import { describeConformance } from '@fb/testkit';
import { slicefinder as detector } from '../src/index.js';

describeConformance(detector, {
  // Both searches with the original defaults: a fraction of a second on the 400-row fixture.
  quickOptions: {},
  // Nothing reaches an effect size of 1000, so every slice is crossed again, up to 5 predicates, with
  // every distinct hours value its own slice: millions of candidates.
  longOptions: { approach: 'lattice', epsilon: 1000, degree: 5, maxValues: 100_000, bins: 100_000 },
});
