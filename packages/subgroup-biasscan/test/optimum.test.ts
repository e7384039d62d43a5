import type { SubgroupFinding } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { biasScan } from '../src/index.js';
import { bruteForceBest, smallData, smallModel } from './fixtures.js';

const model = smallModel;

/** The Bernoulli log-likelihood ratio of a set, maximised by 200 bisection steps on ln q, clamped to the side. */
function bernoulli(y: number, ps: number[], negative: boolean): number {
  const slope = (t: number) => y - ps.reduce((s, p) => s + (p * Math.exp(t)) / (1 - p + p * Math.exp(t)), 0);
  let lo = -Math.log(1e6);
  let hi = Math.log(1e6);
  for (let k = 0; k < 200; k++) {
    const mid = (lo + hi) / 2;
    if (slope(mid) > 0) lo = mid;
    else hi = mid;
  }
  const t = negative ? Math.min(0, lo) : Math.max(0, lo);
  return y * t - ps.reduce((s, p) => s + Math.log(1 - p + p * Math.exp(t)), 0);
}

describe('scan optimum', () => {
  it('equals the best score over every subgroup of a small dataset', async () => {
    const dataset = smallData('optimum');
    const { x, y } = dataset;
    const penalty = 0.3;
    const proba = model.predictProba(x);
    const best = bruteForceBest(x, [2, 3, 4], penalty, (rows) =>
      bernoulli(
        rows.reduce((s, i) => s + y[i]!, 0),
        rows.map((i) => proba[2 * i + 1]!),
        true,
      ),
    );
    const result = await biasScan.run(
      { dataset, model },
      { direction: 'negative', penalty, numIters: 20, randomizationReplicates: 0 },
      { seed: 5 },
    );
    const found = (result.findings as { subgroups: SubgroupFinding[] }).subgroups[0]!;
    expect(best).toBeGreaterThan(1);
    expect(found.score).toBeCloseTo(best, 6);
  });
});
