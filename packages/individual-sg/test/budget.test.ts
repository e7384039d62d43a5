import { type Classifier, checkResult } from '@fb/core';
import { makeFixture, resultDigest, wideTable } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { sg } from '../src/index.js';

describe('sg under a time budget', () => {
  it('gives, unstopped, the same bytes for a seed', async () => {
    // k-means, the step that now polls the budget, clusters byte for byte as it did before (core's
    // kmeans test); this pins the whole run.
    const { dataset, model } = makeFixture(600);
    const r = await sg.run({ dataset, model }, {}, { seed: 1, budget: { maxTested: 60 } });
    expect(r.run.stopReason).toBe('tested-budget');
    expect(resultDigest(r)).toBe('042d4825b7266c6d0d6e6264776060c619402df4409c594cfb0396b9bab87c1b');
  });

  it('stops in the seeding k-means of a large table and returns a valid result', async () => {
    // 20,000 rows x 50 attributes in 64 clusters: each Lloyd iteration is some 6 x 10^7 distance
    // terms, and up to 100 of them run before the first input is checked.
    const { dataset, model } = wideTable(20_000, 50);
    const t0 = performance.now();
    const r = await sg.run({ dataset, model }, { clusters: 64 }, { seed: 1, budget: { maxSeconds: 0.2 } });
    const wall = (performance.now() - t0) / 1000;
    expect(r.run.stopReason).toBe('time-budget');
    expect(checkResult(r).valid).toBe(true);
    expect(r.metrics.tsn).toBe(0);
    // Generous: the stop reason, not this bound, says the budget ended the work.
    expect(wall).toBeLessThan(8);
  });

  it('starts no explanation that the time left cannot pay for', async () => {
    const { dataset, model } = makeFixture(400);
    // Each explanation's batch (300 rows) waits 1 s; the checks' small batches do not.
    const sleeper = new Int32Array(new SharedArrayBuffer(4));
    const slow = <T>(x: Float64Array, answer: (x: Float64Array) => T): T => {
      if (x.length / dataset.d > 100) Atomics.wait(sleeper, 0, 0, 1000);
      return answer(x);
    };
    const slowModel: Classifier = {
      nFeatures: model.nFeatures,
      nClasses: model.nClasses,
      predict: (x) => slow(x, (rows) => model.predict(rows)),
      predictProba: (x) => slow(x, (rows) => model.predictProba!(rows)),
    };
    const r = await sg.run(
      { dataset, model: slowModel },
      { limeSamples: 300 },
      { seed: 1, budget: { maxSeconds: 1.5 } },
    );
    expect(r.run.stopReason).toBe('time-budget');
    expect(checkResult(r).valid).toBe(true);
    // After the first explanation (1 s or more) at most 0.5 s is left: a second would overrun.
    expect(r.extras.explained).toBe(1);
  });
});
