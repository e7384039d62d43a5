import { describeConformance } from '@fb/testkit';
import { verifair as detector } from '../src/index.js';

// quickOptions: a loose delta decides the kit's planted gaps in a few batches. longOptions: with
// c = 0 in the difference form, a pair is decided only once its gap is resolved at an extreme
// confidence; two races the kit's model treats alike, sampled from independent marginals, differ
// by about 0.01 and would need tens of millions of one-row batches.
describeConformance(detector, {
  quickOptions: { delta: 1e-3, batchSize: 500 },
  longOptions: {
    delta: 1e-300,
    c: 0,
    form: 'difference',
    population: 'independent',
    batchSize: 1,
    maxSamples: 1e12,
  },
});
