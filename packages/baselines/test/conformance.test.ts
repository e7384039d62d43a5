import { createDataset, createRng, type Detector } from '@fb/core';
import { type ConformanceConfig, conformanceChecks, describeConformance, makeFixture } from '@fb/testkit';
import { describe, it } from 'vitest';
import {
  everyVariantUnasked,
  exhaustiveCounterfactual,
  largestProtectedCells,
  randomFinder,
  sizeMatchedRandom,
  uniformDomain,
  valueDisparity,
  wholePopulation,
} from '../src/index.js';

// The baselines' work is bounded by the data: the budget and abort checks run on a large data set.
let large: ReturnType<typeof makeFixture> | null = null;
const longFixture = () => (large ??= makeFixture(300_000));

/**
 * The large fixture with `hours` unrounded: its 300,000 rows hold about 28,800 distinct tested samples
 * (hours to 0.1), which the exhaustive check gets through in about the 0.2 s at which the abort check
 * aborts; unrounded, nearly every row is a tested sample of its own.
 */
let wide: ReturnType<typeof makeFixture> | null = null;
const wideFixture = () => {
  if (wide) return wide;
  const { dataset, model } = longFixture();
  const x = dataset.x.slice();
  const rng = createRng('wide-hours');
  for (let i = 0; i < dataset.n; i++) x[i * dataset.d + 3] = rng.uniform(0, 80);
  wide = { dataset: createDataset({ schema: dataset.schema, x, y: dataset.y, name: 'wide-hours' }), model };
  return wide;
};

/** The suite without the checks (by the start of their names) that do not apply to the detector. */
function describeConformanceWithout<O extends object>(
  detector: Detector<O>,
  config: ConformanceConfig<O>,
  why: string,
  without: readonly string[],
): void {
  describe(`conformance: ${detector.id} (${why})`, () => {
    for (const check of conformanceChecks(detector, config)) {
      if (without.some((name) => check.name.startsWith(name))) continue;
      it(check.name, () => check.run(), 60_000);
    }
  });
}

describeConformance(exhaustiveCounterfactual, {
  quickOptions: {},
  longOptions: {},
  longFixture: wideFixture,
});
describe('order: random', () => {
  describeConformance(exhaustiveCounterfactual, {
    quickOptions: { order: 'random' },
    longOptions: { order: 'random' },
    longFixture: wideFixture,
  });
});
describeConformance(valueDisparity, { quickOptions: {}, longOptions: { depth: 3 }, longFixture });
describeConformance(randomFinder, { quickOptions: {}, longOptions: { top: 1000 }, longFixture });
describeConformance(sizeMatchedRandom, {
  quickOptions: { sizes: [120, 40, 7] },
  longOptions: { sizes: Array.from({ length: 5000 }, (_, k) => 10 + k) },
  longFixture,
});
describeConformance(uniformDomain, { quickOptions: { inputs: 300 }, longOptions: {}, longFixture });

// One pass over the data, a few milliseconds on 300,000 rows: no budget or abort can interrupt it (an
// already aborted signal is tested in floors.test.ts).
const onePass = ['stops within the time budget', 'stops promptly on AbortSignal'];
describeConformanceWithout(largestProtectedCells, { longOptions: {} }, 'one pass over the data', onePass);
describeConformanceWithout(wholePopulation, { longOptions: {} }, 'no work', onePass);
// Its pairs are every protected variant, not re-queried discriminatory ones, by design. It lists each
// individual once, as the check tests each once. Listing the wide fixture's 300,000 individuals takes
// about as long as the timed abort check waits (0.23 s against 0.2 s), so that check would pass or
// fail by the machine's speed: an abort between its steps is tested in floors.test.ts instead.
describeConformanceWithout(
  everyVariantUnasked,
  { longOptions: {}, longFixture: wideFixture },
  'pairs unasked',
  ['reports only real discriminatory pairs', 'stops promptly on AbortSignal'],
);
