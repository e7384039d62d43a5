import { nullWorld, rejectionRate } from '@fb/testkit/calibration';
import { describe, expect, it } from 'vitest';
import { gerryfair } from '../src/index.js';

describe('permutation p-value under the null', () => {
  it('rejects at about its level when every protected group has the same error rates', async () => {
    // The fast version of bench/calibration.mjs: 100 null worlds of 1,000 rows (sex and race drawn
    // independently of everything), 19 permutations, so p <= 0.05 is a test of exact level 0.05. It
    // catches a gross failure (a rate above the band of a level-0.05 test over 100 runs, 0.007-0.093).
    const runs = 100;
    let rejected = 0;
    for (let r = 0; r < runs; r++) {
      const { dataset, model } = nullWorld(`gerryfair-test-${r}`, {
        n: 1000,
        protectedDependsOnFeatures: false,
      });
      const result = await gerryfair.run({ dataset, model }, { gamma: 0, permutations: 19 }, { seed: r });
      if (result.findings.kind === 'subgroup' && result.findings.subgroups.some((s) => s.pValue! <= 0.05))
        rejected++;
    }
    expect(rejectionRate(rejected, runs, 0.05).aboveBand).toBe(false);
  }, 120_000);
});
