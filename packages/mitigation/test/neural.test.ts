import { DataError, OptionsError, subsetRows } from '@fb/core';
import { modelStatisticalParity, subgroupsOf } from '@fb/metrics';
import { describe, expect, it } from 'vitest';
import { fitAdversarialDebiasing, fitFairRepresentation } from '../src/index.js';
import { accuracy, plantedBias } from './planted.js';

const train = plantedBias(1500, 0.6, 1);
const test = plantedBias(1500, 0.6, 3);
const groups = subgroupsOf(test);
const parity = (pred: Int32Array) => modelStatisticalParity(null, pred, groups) as number;

/** Squared MMD (biased, Gaussian kernel of bandwidth^2 = dim) between groups s = a and s = b, from the definition. */
function mmd(z: Float64Array, dim: number, s: ArrayLike<number>, rows: number): number {
  const k = (i: number, j: number) => {
    let d = 0;
    for (let t = 0; t < dim; t++) d += (z[i * dim + t]! - z[j * dim + t]!) ** 2;
    return Math.exp(-d / (2 * dim));
  };
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rows; i++) (s[i * 3] === 0 ? a : b).push(i);
  const mean = (p: number[], q: number[]) => {
    let t = 0;
    for (const i of p) for (const j of q) t += k(i, j);
    return t / (p.length * q.length);
  };
  return mean(a, a) + mean(b, b) - 2 * mean(a, b);
}

describe('adversarial debiasing (Zhang, Lemoine, Mitchell 2018)', () => {
  it('reduces the parity gap against the same network trained without the adversary', async () => {
    const opts = { epochs: 12, seed: 3 };
    const plain = await fitAdversarialDebiasing(train, { ...opts, adversaryWeight: 0, projection: false });
    const fair = await fitAdversarialDebiasing(train, opts);
    const [p0, p1] = [plain.predict(test.x), fair.predict(test.x)];
    console.info(
      `adversarial DP: parity gap ${parity(p0).toFixed(3)} -> ${parity(p1).toFixed(3)}, accuracy ${accuracy(test.y, p0).toFixed(3)} -> ${accuracy(test.y, p1).toFixed(3)} (test data)`,
    );
    expect(parity(p1)).toBeLessThan(parity(p0) * 0.5);
    expect(fair.training.epochs).toBe(12);
    expect(fair.training.adversaryLoss).toHaveLength(12);
    const proba = fair.predictProba(test.x.subarray(0, 30));
    for (let i = 0; i < 10; i++) expect(proba[i * 2]! + proba[i * 2 + 1]!).toBeCloseTo(1, 6);
    plain.dispose();
    fair.dispose();
  }, 60_000);

  it('same seed, same model; typed errors for bad options', async () => {
    const small = plantedBias(300, 0.6, 4);
    const opts = { epochs: 1, seed: 8, target: 'equalized_odds' as const };
    const [a, b] = [await fitAdversarialDebiasing(small, opts), await fitAdversarialDebiasing(small, opts)];
    expect(Array.from(a.predictProba(small.x))).toEqual(Array.from(b.predictProba(small.x)));
    await expect(fitAdversarialDebiasing(small, { epochs: 0 })).rejects.toThrow(OptionsError);
    await expect(
      fitAdversarialDebiasing(small, { protectedAttributes: ['x1'], lr: 1 } as never),
    ).rejects.toThrow(OptionsError);
  });
});

describe('fair representation (VAE with an MMD penalty)', () => {
  it('makes the groups’ representations closer and the head’s parity gap smaller than without the penalty', async () => {
    const opts = { epochs: 12, seed: 5 };
    const plain = await fitFairRepresentation(train, { ...opts, mmdWeight: 0 });
    const fair = await fitFairRepresentation(train, opts);
    const rows = 300;
    const sample = test.x.subarray(0, rows * 3);
    const m0 = mmd(plain.encode(sample), plain.latentDim, sample, rows);
    const m1 = mmd(fair.encode(sample), fair.latentDim, sample, rows);
    const [p0, p1] = [plain.predict(test.x), fair.predict(test.x)];
    console.info(
      `MMD-VAE: MMD^2 of z between groups ${m0.toFixed(4)} -> ${m1.toFixed(4)}, head parity gap ${parity(p0).toFixed(3)} -> ${parity(p1).toFixed(3)}, accuracy ${accuracy(test.y, p0).toFixed(3)} -> ${accuracy(test.y, p1).toFixed(3)} (test data)`,
    );
    expect(m1).toBeLessThan(m0 * 0.5);
    expect(parity(p1)).toBeLessThan(parity(p0) * 0.7);
    expect(fair.training.mmd).toHaveLength(12);
    plain.dispose();
    fair.dispose();
  }, 60_000);

  it('rejects data with a single group and bad options', async () => {
    const ds = plantedBias(200, 0.6, 6);
    const rows = Array.from({ length: ds.n }, (_, i) => i).filter((i) => ds.x[i * 3] === 0);
    await expect(fitFairRepresentation(subsetRows(ds, rows), { epochs: 1 })).rejects.toThrow(DataError);
    await expect(fitAdversarialDebiasing(subsetRows(ds, rows), { epochs: 1 })).rejects.toThrow(DataError);
    await expect(fitFairRepresentation(ds, { latentDim: 0 })).rejects.toThrow(OptionsError);
  });
});
