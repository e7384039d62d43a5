import { describeConformance } from '@fb/testkit';
import { multiaccuracy as detector } from '../src/index.js';

// quickOptions: about a second on the kit's fixture; longOptions: far past any budget the kit sets.
describeConformance(detector, {
  quickOptions: { replicas: 19 },
  longOptions: { replicas: 1_000_000_000, maxIterations: 1_000_000, threshold: 0 },
});
