import { describeConformance } from '@fb/testkit';
import { limi } from '../src/index.js';

describeConformance(limi, {
  quickOptions: { generator: 'pca', boundarySamples: 4000, maxTested: 3000 },
  // The fixture's continuous attribute makes nearly every decoded candidate new: probing runs for minutes.
  longOptions: { generator: 'pca', boundarySamples: 4000, maxTested: 1_000_000_000 },
});
