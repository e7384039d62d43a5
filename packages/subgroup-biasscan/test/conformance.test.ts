import { describeConformance } from '@fb/testkit';
import { biasScan } from '../src/index.js';

describeConformance(biasScan, {
  // Both directions, 3 restarts and 9 replicates on the 400-row fixture: well under a second.
  quickOptions: { numIters: 3, randomizationReplicates: 9 },
  // 100,000 replicates of a 50-restart scan: hours without a budget.
  longOptions: { numIters: 50, randomizationReplicates: 100_000 },
});
