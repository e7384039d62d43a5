import { describeConformance } from '@fb/testkit';
import { cbs as detector } from '../src/index.js';

describeConformance(detector, {
  // The fixture's model scores women aged 4-6 lower than men with the same outcome: a separation violation.
  quickOptions: { direction: 'negative', iterations: 3, permutations: 9 },
  // 100,000 permutations of a 500-iteration scan: hours without a budget.
  longOptions: { direction: 'negative', iterations: 500, permutations: 100_000 },
});
