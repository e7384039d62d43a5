import { checkResult } from '@fb/core';
import { makeFixture, resultDigest, wideTable } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { discretise, fairNaiveBayes } from '../src/index.js';

describe('fair naive bayes under a time budget', () => {
  it('gives, unstopped, the bytes it gave before it polled the budget by work', async () => {
    // The digest of this run by the method before its preparation and inner loops polled a budget.
    const { dataset, model } = makeFixture(600);
    const r = await fairNaiveBayes.run({ dataset, model }, {}, { seed: 1 });
    expect(r.run.stopReason).toBe('completed');
    expect(resultDigest(r)).toBe('e5f3b657606784741848b6c44cebcc2f3d6253fd81e28ed7ba61f8331af31ed0');
  });

  it('discretises as before when the stop never comes, and gives null when it does', () => {
    const { dataset } = wideTable(500, 12);
    let polls = 0;
    const polled = discretise(dataset, 4, 2, () => ++polls > 1e9);
    expect(polls).toBe(12);
    expect(polled).toEqual(discretise(dataset, 4, 2));
    polls = 0;
    expect(discretise(dataset, 4, 2, () => ++polls === 3)).toBeNull();
    expect(polls).toBe(3);
  });

  it('stops on a wide table and returns a valid result', async () => {
    // 20,000 rows x 100 attributes: 99 columns to cut, then a branch and bound over 100 variables.
    const { dataset, model } = wideTable(20000, 100);
    const t0 = performance.now();
    const r = await fairNaiveBayes.run({ dataset, model }, {}, { seed: 1, budget: { maxSeconds: 0.2 } });
    const wall = (performance.now() - t0) / 1000;
    expect(r.run.stopReason).toBe('time-budget');
    expect(checkResult(r).valid).toBe(true);
    // Generous: the stop reason, not this bound, says the budget ended the work.
    expect(wall).toBeLessThan(8);
  });
});
