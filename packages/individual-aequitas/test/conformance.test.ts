import { describeConformance } from '@fb/testkit';
import { aequitas } from '../src/index.js';

describeConformance(aequitas, {
  quickOptions: { globalIterations: 300, localIterations: 100 },
  // The fixture has a continuous attribute, so every global draw is a new sample: this runs for minutes.
  longOptions: { globalIterations: 10_000_000, localIterations: 1_000_000 },
});
