import type { SubgroupFinding } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { biasScan } from '../src/index.js';
import { auditData, auditModel } from './fixtures.js';

/**
 * Kolmogorov-Smirnov distance of Monte Carlo p-values from their null law, uniform on
 * {1/(R + 1), …, 1}: P(p ≤ j/(R + 1)) = j/(R + 1).
 */
function ksFromUniform(pValues: number[], replicates: number): number {
  let ks = 0;
  for (let j = 1; j <= replicates + 1; j++) {
    const cdf = pValues.filter((p) => p <= j / (replicates + 1) + 1e-12).length / pValues.length;
    ks = Math.max(ks, Math.abs(cdf - j / (replicates + 1)));
  }
  return ks;
}

describe('randomisation test', () => {
  it('gives p-values uniform under the null (outcomes drawn from the model)', async () => {
    const datasets = 80;
    const replicates = 19;
    const pValues: number[] = [];
    for (let k = 0; k < datasets; k++) {
      const dataset = auditData(200, `calibration-${k}`);
      const result = await biasScan.run(
        { dataset, model: auditModel },
        {
          direction: 'negative',
          numIters: 2,
          randomizationReplicates: replicates,
          maxValues: 4,
          bins: 3,
          penalty: 0.5,
        },
        { seed: k },
      );
      const found = (result.findings as { subgroups: SubgroupFinding[] }).subgroups[0];
      // No positive score at all: every replica ties or exceeds it, p = 1.
      pValues.push(found?.pValue ?? 1);
    }
    // 5% critical value of the Kolmogorov-Smirnov statistic for 80 draws: 1.36 / √80 ≈ 0.152.
    expect(ksFromUniform(pValues, replicates)).toBeLessThan(0.152);
    const mean = pValues.reduce((a, b) => a + b, 0) / datasets;
    expect(Math.abs(mean - 0.525)).toBeLessThan(0.1);
  });
});

describe('both directions adjusted together', () => {
  it('keeps the smallest p-value of a run uniform under the null (max-T over the directions)', async () => {
    const datasets = 80;
    const replicates = 19;
    const smallest: number[] = [];
    for (let k = 0; k < datasets; k++) {
      const dataset = auditData(200, `calibration-both-${k}`);
      const result = await biasScan.run(
        { dataset, model: auditModel },
        {
          direction: 'both',
          numIters: 2,
          randomizationReplicates: replicates,
          maxValues: 4,
          bins: 3,
          penalty: 0.5,
        },
        { seed: k },
      );
      const subgroups = (result.findings as { subgroups: SubgroupFinding[] }).subgroups;
      smallest.push(Math.min(1, ...subgroups.map((s) => s.pValue ?? 1)));
    }
    // Unadjusted, the smaller of two p-values has P(p ≤ u) ≈ 1 − (1 − u)², far from uniform (0.75 at u = 0.5).
    expect(ksFromUniform(smallest, replicates)).toBeLessThan(0.152);
  });

  it('compares every subgroup with the largest score over all scans of each replicate', async () => {
    const dataset = auditData(300, 'max-t');
    const result = await biasScan.run(
      { dataset, model: auditModel },
      { direction: 'both', numIters: 2, randomizationReplicates: 29, maxValues: 4, bins: 3 },
      { seed: 3 },
    );
    const maxima = result.extras.replicateMaxima as number[];
    expect(maxima).toHaveLength(29);
    const subgroups = (result.findings as { subgroups: SubgroupFinding[] }).subgroups;
    expect(subgroups.length).toBeGreaterThan(0);
    for (const s of subgroups) {
      const exceed = maxima.filter((m) => m >= s.score).length;
      expect(s.pValue).toBeCloseTo((1 + exceed) / 30, 12);
      expect(s.pValue!).toBeGreaterThanOrEqual(s.details.unadjustedPValue as number);
      expect(s.details.scansAdjustedFor).toBe(2);
    }
  });
});
