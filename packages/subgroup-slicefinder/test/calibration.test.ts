import { nullWorld } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { slicefinder } from '../src/index.js';

// A loss independent of every attribute: the model predicts a constant probability and the labels are
// drawn independently of the rows (the protected attributes still depend on age and job). α-investing
// bounds the expected number of false discoveries by W₀/(1 − α) ≈ 0.053 at the defaults, so a run with
// any slice reported should be rare. The figure over 200 runs is in bench/calibration.mjs.
describe('slicefinder under a null', () => {
  it('reports slices in at most 3 of 20 runs with default options (any reported slice is false)', async () => {
    let withSlices = 0;
    for (let r = 0; r < 20; r++) {
      const { dataset, model } = nullWorld(`slicefinder-null-${r}`, { n: 2000, signal: 'none' });
      const result = await slicefinder.run({ dataset, model }, {});
      if (result.findings.kind !== 'subgroup') throw new Error('expected subgroups');
      if (result.findings.subgroups.length > 0) withSlices++;
    }
    expect(withSlices).toBeLessThanOrEqual(3);
  });
});
