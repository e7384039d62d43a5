import { describeConformance } from '../src/index.js';
import { protectedGaps, randomTesting } from './reference-detectors.js';

// Two minimal but honest detectors: the kit must pass them.
describeConformance(randomTesting, {
  quickOptions: { samples: 300 },
  longOptions: { samples: 50_000_000, batchSize: 8 },
});
describeConformance(protectedGaps, { quickOptions: {}, longOptions: { spinSeconds: 30 } });
