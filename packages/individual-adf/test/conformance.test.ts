import { describeConformance, makeFixture } from '@fb/testkit';
import { adf } from '../src/index.js';
import { DifferentiablePlantedModel } from './fixtures.js';

describeConformance(adf, {
  quickOptions: { maxGlobal: 40, maxLocal: 40 },
  // Local walks of a million steps from every discriminatory seed: far past any budget the kit sets.
  longOptions: { maxGlobal: 1_000_000, maxLocal: 1_000_000 },
  fixture: () => ({ dataset: makeFixture().dataset, model: new DifferentiablePlantedModel() }),
});
