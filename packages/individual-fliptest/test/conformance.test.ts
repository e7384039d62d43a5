import { describeConformance } from '@fb/testkit';
import { fliptest } from '../src/index.js';

describeConformance(fliptest, {
  quickOptions: {},
  // TSN and DSN are the flipsets' (mapped members, flipping pairs); findings.pairs are the direct checks.
  ownCounts: true,
  // Entropic OT that never meets its tolerance: Sinkhorn iterates until a budget stops it.
  longOptions: {
    transport: 'entropic',
    entropy: 0.001,
    sinkhornIterations: 1_000_000_000,
    sinkhornTolerance: 1e-300,
  },
});
