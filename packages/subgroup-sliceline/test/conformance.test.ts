import { describeConformance } from '@fb/testkit';
import { sliceline as detector } from '../src/index.js';
import { uniformErrors, wideFixture } from './wide-fixture.js';

describeConformance(detector, {
  fixture: wideFixture,
  // The defaults (FP and FN errors, k 5, α 0.95, 3 predicates): a fraction of a second.
  quickOptions: {},
  // Uniform real-valued errors with α = 1 keep every score bound above the k-th score, so nearly the
  // whole lattice of up to 20 predicates over 20 attributes is enumerated: hours without a budget.
  longOptions: {
    errors: ['custom'],
    errorVector: uniformErrors(),
    alpha: 1,
    k: 1000,
    minSupport: 2,
    maxLevel: 20,
  },
});
