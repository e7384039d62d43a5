import { describeConformance } from '@fb/testkit';
import { limi as detector } from '../src/index.js';

// quickOptions: about a second on the kit's fixture; longOptions: far past any budget the kit sets.
describeConformance(detector, {
  quickOptions: { samples: 300 },
  longOptions: { samples: 50_000_000 },
});
