import { checkResult } from '@fb/core';
import { makeFixture, resultDigest, wideTable } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { expga } from '../src/index.js';

describe('expga under a time budget', () => {
  it('gives, unstopped, the bytes it gave before its explanations polled the budget', async () => {
    // The digest of this run by the method before the seed phase polled the budget by candidate and
    // inside each explanation's ridge fit.
    const { dataset, model } = makeFixture(600);
    const r = await expga.run({ dataset, model }, {}, { seed: 1, budget: { maxTested: 200 } });
    expect(r.run.stopReason).toBe('tested-budget');
    expect(resultDigest(r)).toBe('355fb2a1c71237296fb671bbde87398340ee6db8ae15e51791bb675ccfb32fb7');
  });

  it('stops inside an explanation on wide data and returns a valid result', async () => {
    // 300 attributes and 20,000 samples per explanation: its ridge fit alone is some 10^9
    // multiply-adds, and the seed phase would explain up to 1,000 candidates.
    const { dataset, model } = wideTable(200, 300);
    const t0 = performance.now();
    const r = await expga.run(
      { dataset, model },
      { limeSamples: 20_000 },
      { seed: 1, budget: { maxSeconds: 0.3 } },
    );
    const wall = (performance.now() - t0) / 1000;
    expect(r.run.stopReason).toBe('time-budget');
    expect(checkResult(r).valid).toBe(true);
    // Generous: one unpolled explanation is seconds of work here, the whole seed phase far more.
    expect(wall).toBeLessThan(8);
  });
});
