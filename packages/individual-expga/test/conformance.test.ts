import { describeConformance } from '@fb/testkit';
import { expga } from '../src/index.js';

describeConformance(expga, {
  quickOptions: { globalSamples: 100, seeds: 20, limeSamples: 200, generations: 30 },
  // The fixture has a continuous attribute, so mutations keep producing new inputs: this runs for minutes.
  longOptions: { globalSamples: 1000, seeds: 100, limeSamples: 200, generations: 100_000_000 },
});
