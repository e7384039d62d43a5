import { checkResult } from '@fb/core';
import { makeFixture, resultDigest, wideTable } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { recodeDataset, sliceline } from '../src/index.js';

describe('sliceline under a time budget', () => {
  it('gives, unstopped, the bytes it gave before it polled the budget by work', async () => {
    // The digest of this run by the method before its preparation and inner loops polled a budget.
    const { dataset, model } = makeFixture(600);
    const r = await sliceline.run({ dataset, model }, {}, { seed: 1 });
    expect(r.run.stopReason).toBe('completed');
    expect(resultDigest(r)).toBe('ea16f6a0195548775a4880454943e9cd05dca04f980b39d94d6534318d406d6d');
  });

  it('recodes as before when the stop never comes, and gives null when it does', () => {
    const { dataset } = wideTable(500, 12);
    const options = { maxValues: 20, bins: 4 };
    let polls = 0;
    const polled = recodeDataset(dataset, options, () => ++polls > 1e9);
    expect(polls).toBe(12);
    const plain = recodeDataset(dataset, options);
    expect(Array.from(polled!.codes)).toEqual(Array.from(plain.codes));
    expect(polled!.attributes.map((a) => a.bins)).toEqual(plain.attributes.map((a) => a.bins));
    polls = 0;
    expect(recodeDataset(dataset, options, () => ++polls === 3)).toBeNull();
    expect(polls).toBe(3);
  });

  it('stops on a wide table and returns a valid result', async () => {
    // 20,000 rows x 100 attributes: 99 columns to sort and bin, then a lattice of some 10^6 pairs.
    const { dataset, model } = wideTable(20000, 100);
    const t0 = performance.now();
    const r = await sliceline.run({ dataset, model }, {}, { seed: 1, budget: { maxSeconds: 0.2 } });
    const wall = (performance.now() - t0) / 1000;
    expect(r.run.stopReason).toBe('time-budget');
    expect(checkResult(r).valid).toBe(true);
    // Generous: the stop reason, not this bound, says the budget ended the work.
    expect(wall).toBeLessThan(8);
  });
});
