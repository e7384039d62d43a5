import { checkResult } from '@fb/core';
import { makeFixture, resultDigest, wideTable } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { divexplorer, fpGrowth, itemize } from '../src/index.js';

describe('divexplorer under a time budget', () => {
  it('gives, unstopped, the bytes it gave before it polled the budget by work', async () => {
    // The digest of this run by the method before its preparation and inner loops polled a budget.
    const { dataset, model } = makeFixture(600);
    const r = await divexplorer.run({ dataset, model }, {}, { seed: 1 });
    expect(r.run.stopReason).toBe('completed');
    expect(resultDigest(r)).toBe('8042eb6e06e8122b5b5c864b805ce7123bf7dfbfbd80fba72185fc41c39cacc8');
  });

  it('itemizes as before when the stop never comes, and gives null when it does', () => {
    const { dataset } = wideTable(500, 12);
    const options = { maxValues: 20, bins: 4 };
    let polls = 0;
    const polled = itemize(dataset, options, () => ++polls > 1e9);
    expect(polls).toBe(12);
    expect(polled).toEqual(itemize(dataset, options));
    polls = 0;
    expect(itemize(dataset, options, () => ++polls === 3)).toBeNull();
    expect(polls).toBe(3);
  });

  it('stops FP-growth, in the tree or in the mining, and returns null', async () => {
    const { dataset } = wideTable(2000, 12);
    const table = itemize(dataset, { maxValues: 20, bins: 4 });
    const stats = new Float64Array(2000 * 2).fill(1);
    const run = (stopAt: number) => {
      let polls = 0;
      const ctl = {
        shouldStop: () => (++polls >= stopAt ? ('time-budget' as const) : null),
        checkpoint: async () => (polls >= stopAt ? ('time-budget' as const) : null),
      };
      const mined = fpGrowth(table.transactions, table.m, table.nItems, stats, 2, 20, 3, ctl);
      return { mined, polls: () => polls };
    };
    const all = await run(Number.POSITIVE_INFINITY).mined;
    expect(all!.count).toBeGreaterThan(100);
    // The first polls are in the tree's construction (every 256 rows), the later ones in the mining.
    for (const stopAt of [1, 5, 12, 40]) {
      const r = run(stopAt);
      expect(await r.mined).toBeNull();
      expect(r.polls()).toBe(stopAt);
    }
  });

  it('stops on a wide table and returns a valid result', async () => {
    // 20,000 rows x 100 attributes: 99 columns to bin, then frequent patterns over 400 items.
    const { dataset, model } = wideTable(20000, 100);
    const t0 = performance.now();
    const r = await divexplorer.run({ dataset, model }, {}, { seed: 1, budget: { maxSeconds: 0.2 } });
    const wall = (performance.now() - t0) / 1000;
    expect(r.run.stopReason).toBe('time-budget');
    expect(checkResult(r).valid).toBe(true);
    // Generous: the stop reason, not this bound, says the budget ended the work.
    expect(wall).toBeLessThan(8);
  });
});
