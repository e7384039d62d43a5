import { describeConformance } from '@fb/testkit';
import { gerryfair as detector } from '../src/index.js';

// quickOptions: about a second on the kit's fixture; longOptions: far past any budget the kit sets.
describeConformance(detector, {
  quickOptions: { permutations: 199 },
  longOptions: { permutations: 1_000_000_000 },
});
