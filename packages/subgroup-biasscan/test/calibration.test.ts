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
          stopping: 'fixed',
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

describe('sequential randomisation test (Besag & Clifford)', () => {
  it("makes the fixed test's decisions at 0.05 and 0.01 with fewer replicates, and keeps the level", async () => {
    const options = {
      direction: 'both' as const,
      numIters: 2,
      randomizationReplicates: 99,
      maxValues: 4,
      bins: 3,
      penalty: 0.5,
    };
    let sequentialReplicates = 0;
    let fixedReplicates = 0;
    let rejected = 0;
    const smallest: number[] = [];
    // 30 null data sets and 6 with a planted over-predicted subgroup, so that both decisions occur.
    for (let k = 0; k < 36; k++) {
      const planted = k >= 30;
      const dataset = planted
        ? auditData(600, `sequential-planted-${k}`, (x, o) => x[o] === 1 && x[o + 4] === 0, 0.3)
        : auditData(200, `sequential-${k}`);
      const run = (stopping: 'sequential' | 'fixed') =>
        biasScan.run({ dataset, model: auditModel }, { ...options, stopping }, { seed: k });
      const sequential = await run('sequential');
      const fixed = await run('fixed');
      expect(sequential.extras.exceedancesToStop).toBe(5);
      const seq = (sequential.findings as { subgroups: SubgroupFinding[] }).subgroups;
      const fix = (fixed.findings as { subgroups: SubgroupFinding[] }).subgroups;
      expect(seq.map((s) => s.score)).toEqual(fix.map((s) => s.score));
      seq.forEach((s, i) => {
        for (const level of [0.05, 0.01]) expect(s.pValue! <= level).toBe(fix[i]!.pValue! <= level);
        expect(s.details.replicatesCompleted as number).toBeLessThanOrEqual(99);
      });
      sequentialReplicates += sequential.extras.replicatesCompleted as number;
      fixedReplicates += fixed.extras.replicatesCompleted as number;
      if (planted) rejected += seq.some((s) => s.pValue! <= 0.05) ? 1 : 0;
      else smallest.push(Math.min(1, ...seq.map((s) => s.pValue ?? 1)));
    }
    expect(rejected).toBeGreaterThan(3);
    // Under the null most runs settle after a few replicates (expected about 20 of 99).
    expect(sequentialReplicates).toBeLessThan(fixedReplicates / 2.5);
    // Valid: P(p ≤ u) ≤ u up to three standard errors of 30 runs.
    for (const u of [0.05, 0.1, 0.25, 0.5]) {
      const rate = smallest.filter((p) => p <= u).length / smallest.length;
      expect(rate).toBeLessThanOrEqual(u + 3 * Math.sqrt((u * (1 - u)) / smallest.length));
    }
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
          stopping: 'fixed',
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
      {
        direction: 'both',
        numIters: 2,
        randomizationReplicates: 29,
        stopping: 'fixed',
        maxValues: 4,
        bins: 3,
      },
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
