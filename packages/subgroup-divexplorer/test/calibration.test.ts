import { nullWorld } from '@fb/testkit/calibration';
import { describe, expect, it } from 'vitest';
import { divexplorer } from '../src/index.js';

describe('p-values under the null', () => {
  it('taken one at a time, before selection, reject at most at about their level', async () => {
    // The fast version of bench/calibration.mjs: 30 null worlds of 2,000 rows (labels independent of
    // every attribute, protected attributes dependent on the others), every frequent pattern reported.
    // The benchmark measures 3 % at 0.05 over 200 runs; patterns of one run are dependent, so the share
    // has no binomial interval, and the bound only catches a gross failure.
    let patterns = 0;
    let small = 0;
    for (let r = 0; r < 30; r++) {
      const { dataset, model } = nullWorld(`divexplorer-test-${r}`, { n: 2000, signal: 'none' });
      const all = await divexplorer.run(
        { dataset, model },
        { metrics: ['label-rate'], k: 2000, redundancyThreshold: null },
      );
      if (all.findings.kind !== 'subgroup') throw new Error('subgroup findings expected');
      for (const s of all.findings.subgroups) {
        patterns++;
        if (s.pValue! <= 0.05) small++;
      }
    }
    expect(patterns).toBeGreaterThan(1000);
    expect(small / patterns).toBeLessThan(0.08);
  }, 120_000);
});
