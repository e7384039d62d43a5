import { describeConformance } from '@fb/testkit';
import { sg } from '../src/index.js';

describeConformance(sg, {
  quickOptions: { sampleLimit: 20, limeSamples: 200 },
  // Solutions keep joining the queue, so a limit this large runs for hours.
  longOptions: { sampleLimit: 100_000_000, limeSamples: 200 },
});
