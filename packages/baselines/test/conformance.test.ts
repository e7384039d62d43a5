import { describeConformance, makeFixture } from '@fb/testkit';
import { exhaustiveCounterfactual, randomFinder, valueDisparity } from '../src/index.js';

// The baselines' work is bounded by the data: the budget and abort checks run on a large data set.
let large: ReturnType<typeof makeFixture> | null = null;
const longFixture = () => (large ??= makeFixture(300_000));

describeConformance(exhaustiveCounterfactual, { quickOptions: {}, longOptions: {}, longFixture });
describeConformance(valueDisparity, { quickOptions: {}, longOptions: { depth: 3 }, longFixture });
describeConformance(randomFinder, { quickOptions: {}, longOptions: { top: 1000 }, longFixture });
