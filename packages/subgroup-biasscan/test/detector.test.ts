import { type Classifier, memberMask, reproducibleView, type SubgroupFinding } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { biasScan } from '../src/index.js';
import { auditData, auditModel, LogisticModel } from './fixtures.js';

const subgroupsOf = (r: Awaited<ReturnType<typeof biasScan.run>>): SubgroupFinding[] =>
  r.findings.kind === 'subgroup' ? r.findings.subgroups : [];

// Women in jobs j0 and j2 get the favourable label with a quarter of the odds the model predicts.
const inPlanted = (x: Float64Array, o: number) => x[o] === 1 && (x[o + 4] === 0 || x[o + 4] === 2);

describe('biasScan', () => {
  it('recovers a planted over-predicted subgroup exactly, with a small p-value', async () => {
    const dataset = auditData(4000, 'planted', inPlanted, 0.25);
    const result = await biasScan.run(
      { dataset, model: auditModel },
      { penalty: 1, randomizationReplicates: 39 },
      { seed: 3 },
    );
    const lower = subgroupsOf(result).find((s) => s.direction === 'lower');
    expect(lower).toBeDefined();
    expect(lower!.conditions).toEqual([
      { attribute: 'sex', values: [1] },
      { attribute: 'job', values: [0, 2] },
    ]);
    expect(lower!.rank).toBe(1);
    expect(lower!.pValue).toBeLessThan(0.05);
    expect(lower!.details.replicatesCompleted).toBe(39);

    // Size, observed and expected rates, and the effect, recomputed from the conditions.
    const mask = memberMask(dataset, lower!.conditions);
    const proba = auditModel.predictProba(dataset.x);
    let size = 0;
    let obs = 0;
    let exp = 0;
    for (let i = 0; i < dataset.n; i++) {
      if (!mask[i]) continue;
      size++;
      obs += dataset.y[i]!;
      exp += proba[2 * i + 1]!;
    }
    expect(lower!.size).toBe(size);
    expect(lower!.details.observed).toBeCloseTo(obs / size, 12);
    expect(lower!.details.expected).toBeCloseTo(exp / size, 12);
    expect(lower!.effect).toBeCloseTo(obs / size - exp / size, 12);
    expect(lower!.effect).toBeLessThan(0);
    expect(lower!.details.q).toBeLessThan(1);
    expect(result.metrics.queries).toBe(dataset.n);
  });

  it('is deterministic for a seed', async () => {
    const dataset = auditData(500, 'determinism', inPlanted, 0.5);
    const options = { numIters: 4, randomizationReplicates: 5 };
    const a = await biasScan.run({ dataset, model: auditModel }, options, { seed: 21 });
    const b = await biasScan.run({ dataset, model: auditModel }, options, { seed: 21 });
    expect(reproducibleView(b)).toEqual(reproducibleView(a));
    expect(subgroupsOf(a).length).toBeGreaterThan(0);
  });

  it('reports the p-value of the replicates completed before an abort', async () => {
    const dataset = auditData(800, 'abort', inPlanted, 0.3);
    const controller = new AbortController();
    const result = await biasScan.run(
      { dataset, model: auditModel },
      { direction: 'negative', numIters: 3, randomizationReplicates: 1000 },
      {
        seed: 2,
        signal: controller.signal,
        progressIntervalMs: 0,
        onProgress: (p) => {
          if (p.phase === 'randomization' && p.done === 3) controller.abort();
        },
      },
    );
    expect(result.run.aborted).toBe(true);
    const [found] = subgroupsOf(result);
    expect(found!.details.replicatesCompleted).toBe(3);
    expect(result.extras.replicatesCompleted).toBe(3);
    // (1 + k) / (1 + 3) for k replicas at least as extreme.
    expect([0.25, 0.5, 0.75, 1]).toContain(found!.pValue);
  });

  it('reports the best subset so far and no p-value when stopped during the scan', async () => {
    const dataset = auditData(800, 'abort-scan', inPlanted, 0.3);
    const controller = new AbortController();
    const result = await biasScan.run(
      { dataset, model: auditModel },
      { numIters: 50, randomizationReplicates: 10 },
      {
        seed: 2,
        signal: controller.signal,
        progressIntervalMs: 0,
        onProgress: (p) => {
          if (p.phase === 'scan' && p.done === 2) controller.abort();
        },
      },
    );
    expect(result.run.aborted).toBe(true);
    expect(result.extras.replicatesCompleted).toBe(0);
    const found = subgroupsOf(result);
    expect(found.length).toBeGreaterThan(0);
    for (const s of found) expect(s.pValue).toBeNull();
  });

  it('scans only the requested direction and omits p-values without replicates', async () => {
    const dataset = auditData(600, 'one-direction', inPlanted, 0.3);
    const result = await biasScan.run(
      { dataset, model: auditModel },
      { direction: 'positive', scoring: 'poisson', randomizationReplicates: 0 },
      { seed: 1 },
    );
    expect(result.extras.directions).toEqual(['positive']);
    for (const s of subgroupsOf(result)) {
      expect(s.direction).toBe('higher');
      expect(s.pValue).toBeNull();
      expect(s.details.scoring).toBe('poisson');
    }
  });

  it('needs class probabilities from the model', async () => {
    const dataset = auditData(100, 'no-proba');
    const labelsOnly: Classifier = { nFeatures: 5, nClasses: 2, predict: (x) => auditModel.predict(x) };
    await expect(biasScan.run({ dataset, model: labelsOnly })).rejects.toMatchObject({
      name: 'ModelError',
      code: 'MODEL_MISMATCH',
    });
    const narrow = new LogisticModel(4, () => 0);
    await expect(biasScan.run({ dataset, model: narrow })).rejects.toMatchObject({ code: 'MODEL_MISMATCH' });
    await expect(biasScan.run({ dataset, model: auditModel }, { bins: 1 })).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
    });
  });
});
