import { checkResult, createDataset, createRng, defineSchema } from '@fb/core';
import { classifierFromFunction } from '@fb/models';
import { makeFixture, resultDigest } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { multiaccuracy } from '../src/index.js';

/**
 * `n` rows of `m` categorical attributes of 8 levels (the first, `sex`, protected): about 7m one-hot
 * auditor columns, whose Gram sums take seconds when m is in the tens. The model favours sex = 0.
 */
function wideTable(n: number, m: number) {
  const rng = createRng('wide-multiaccuracy');
  const levels = Array.from({ length: 8 }, (_, v) => `v${v}`);
  const schema = defineSchema({
    attributes: Array.from({ length: m }, (_, j) => ({
      name: j === 0 ? 'sex' : `a${j}`,
      kind: 'categorical' as const,
      protected: j === 0,
      categories: levels,
    })),
    outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
  });
  const x = Float64Array.from({ length: n * m }, () => rng.int(0, 7));
  const y = Int32Array.from({ length: n }, (_, i) => (rng.bernoulli(0.3 + 0.05 * x[i * m + 1]!) ? 1 : 0));
  const model = classifierFromFunction(
    (rows, k) => Float64Array.from({ length: k }, (_, i) => (rows[i * m] === 0 ? 0.8 : 0.3)),
    { nFeatures: m },
  );
  return { dataset: createDataset({ schema, x, y }), model };
}

describe('multiaccuracy under a time budget', () => {
  it('gives, unstopped, the bytes it gave before its auditors polled the budget', async () => {
    // The digest of this run by the method before the ridge factorisation and the rounds polled a budget.
    const { dataset, model } = makeFixture(600);
    const r = await multiaccuracy.run({ dataset, model }, {}, { seed: 1 });
    expect(r.run.stopReason).toBe('completed');
    expect(resultDigest(r)).toBe('166d6bf8f68efbf4b45fa7968f41f7c68574359793e3c704e5b0d10d2640d017');
  });

  it('stops in the auditors set-up of a wide table and returns a valid result', async () => {
    // 6,000 rows x 60 attributes: about 420 auditor columns, some 10^9 multiply-adds per partition's
    // Gram sums (seconds of work) before the first round.
    const { dataset, model } = wideTable(6000, 60);
    const t0 = performance.now();
    const r = await multiaccuracy.run({ dataset, model }, {}, { seed: 1, budget: { maxSeconds: 0.2 } });
    const wall = (performance.now() - t0) / 1000;
    expect(r.run.stopReason).toBe('time-budget');
    expect(checkResult(r).valid).toBe(true);
    expect(r.extras.stoppedBy).toBe('budget');
    expect(r.extras.replicasCompleted).toBe(0);
    // Generous: unpolled, the set-up alone is seconds of work here, and the rounds and replicas follow.
    expect(wall).toBeLessThan(8);
  });
});
