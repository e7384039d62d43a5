import { describeConformance } from '@fb/testkit';
import { fairNaiveBayes as detector } from '../src/index.js';
import { wideFixture } from './wide-fixture.js';

// The kit's fixture with 6 unused binary attributes: quick, the default top-5 search prunes most of
// the space; long, delta 0 with an fine hours bins must visit nearly all of it.
describeConformance(detector, {
  fixture: () => wideFixture(6),
  quickOptions: {},
  longOptions: { delta: 0, k: 5, bins: 64, ranking: 'kld', minSupport: 0 },
});
