import type { SubgroupFinding } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { biasScan } from '../src/index.js';
import { auditData, auditModel } from './fixtures.js';

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
    // Under H₀ the Monte Carlo p-value is uniform on {1/20, …, 20/20}: P(p ≤ j/20) = j/20.
    let ks = 0;
    for (let j = 1; j <= replicates + 1; j++) {
      const cdf = pValues.filter((p) => p <= j / (replicates + 1) + 1e-12).length / datasets;
      ks = Math.max(ks, Math.abs(cdf - j / (replicates + 1)));
    }
    // 5% critical value of the Kolmogorov-Smirnov statistic for 80 draws: 1.36 / √80 ≈ 0.152.
    expect(ks).toBeLessThan(0.152);
    const mean = pValues.reduce((a, b) => a + b, 0) / datasets;
    expect(Math.abs(mean - 0.525)).toBeLessThan(0.1);
  });
});
