import { type Classifier, createDataset, createRng, defineSchema, memberMask } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { slicefinder } from '../src/index.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
    { name: 'a', kind: 'categorical', protected: false, categories: ['a0', 'a1', 'a2', 'a3'] },
    { name: 'b', kind: 'categorical', protected: false, categories: ['b0', 'b1', 'b2', 'b3', 'b4'] },
    { name: 'c', kind: 'ordinal', protected: false, min: 1, max: 10, step: 1 },
  ],
  outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
});

const prob = (c: number) => 1 / (1 + Math.exp(-(-3.3 + 0.6 * c)));

/** The audited model: a logistic function of c only. */
const model: Classifier = {
  nFeatures: 4,
  nClasses: 2,
  predict: (x) => Int32Array.from({ length: x.length / 4 }, (_, i) => (prob(x[4 * i + 3]!) >= 0.5 ? 1 : 0)),
  predictProba: (x) =>
    Float64Array.from({ length: x.length / 2 }, (_, k) => {
      const p = prob(x[4 * (k >> 1) + 3]!);
      return k % 2 ? p : 1 - p;
    }),
};

const inPlanted = (x: Float64Array, i: number) => x[4 * i + 1] === 1 && x[4 * i + 2] === 2;

/**
 * Labels are the model's decisions with 10 % of them flipped, except in the slice a = a1 ∧ b = b2
 * (5 % of rows), where 90 % are flipped: the injected problematic slice of the paper's evaluation.
 * `calm` instead flips none there, a slice of lower loss.
 */
function data(mode: 'flipped' | 'calm', n = 4000) {
  const rng = createRng(`slicefinder-${mode}`);
  const x = new Float64Array(4 * n);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    x.set([rng.int(0, 1), rng.int(0, 3), rng.int(0, 4), rng.int(1, 10)], 4 * i);
    const decision = prob(x[4 * i + 3]!) >= 0.5 ? 1 : 0;
    const flipRate = !inPlanted(x, i) ? 0.1 : mode === 'flipped' ? 0.9 : 0;
    y[i] = rng.bernoulli(flipRate) ? 1 - decision : decision;
  }
  return createDataset({ schema, x, y });
}

function logLoss(dataset: ReturnType<typeof data>): Float64Array {
  const proba = model.predictProba!(dataset.x);
  return Float64Array.from({ length: dataset.n }, (_, i) => -Math.log(proba[2 * i + dataset.y[i]!]!));
}

describe('slicefinder', () => {
  it('recovers the injected slice by lattice search, with statistics recounted over its members', async () => {
    const dataset = data('flipped');
    const result = await slicefinder.run({ dataset, model }, { approach: 'lattice', epsilon: 0.8, k: 5 });
    if (result.findings.kind !== 'subgroup') throw new Error('expected subgroups');
    const subgroups = result.findings.subgroups;
    expect(subgroups.length).toBeGreaterThan(0);
    expect(subgroups[0]!.conditions).toEqual([
      { attribute: 'a', values: [1] },
      { attribute: 'b', values: [2] },
    ]);
    // Problematic slices are not expanded: no reported slice extends another.
    const keys = subgroups.map((s) => s.conditions.map((c) => JSON.stringify(c)));
    for (const [i, a] of keys.entries()) {
      for (const [j, b] of keys.entries()) {
        if (i !== j) expect(b.every((c) => a.includes(c)) && a.length > b.length).toBe(false);
      }
    }
    const loss = logLoss(dataset);
    let total = 0;
    for (const l of loss) total += l;
    for (const s of subgroups) {
      const mask = memberMask(dataset, s.conditions);
      let size = 0;
      let inside = 0;
      for (let i = 0; i < dataset.n; i++) {
        if (mask[i]) {
          size++;
          inside += loss[i]!;
        }
      }
      expect(s.size).toBe(size);
      expect(s.details.meanLoss).toBeCloseTo(inside / size, 10);
      expect(s.effect).toBeCloseTo(inside / size - (total - inside) / (dataset.n - size), 10);
      expect(s.score).toBeGreaterThanOrEqual(0.8);
      expect(s.pValue!).toBeLessThanOrEqual(s.details.testLevel as number);
    }
  });

  it('recovers the injected slice by decision-tree search', async () => {
    const dataset = data('flipped');
    const result = await slicefinder.run(
      { dataset, model },
      { approach: 'decision-tree', minEffectSize: 0.8, k: 5, minSize: 20 },
    );
    if (result.findings.kind !== 'subgroup') throw new Error('expected subgroups');
    let planted = 0;
    for (let i = 0; i < dataset.n; i++) planted += inPlanted(dataset.x, i) ? 1 : 0;
    // Some recommended node is (nearly) the injected slice: ≥ 90 % precision and recall.
    const match = result.findings.subgroups.some((s) => {
      const mask = memberMask(dataset, s.conditions);
      let both = 0;
      for (let i = 0; i < dataset.n; i++) both += mask[i] && inPlanted(dataset.x, i) ? 1 : 0;
      return both >= 0.9 * s.size && both >= 0.9 * planted;
    });
    expect(match).toBe(true);
    for (const s of result.findings.subgroups) expect(s.details.approach).toBe('decision-tree');
  });

  it('never reports a slice whose loss is lower than the rest', async () => {
    const dataset = data('calm');
    const result = await slicefinder.run(
      { dataset, model },
      { epsilon: 0.1, minEffectSize: 0.1, alpha: 0.2 },
    );
    if (result.findings.kind !== 'subgroup') throw new Error('expected subgroups');
    for (const s of result.findings.subgroups) {
      expect(s.effect!).toBeGreaterThan(0);
      expect(s.pValue!).toBeLessThan(0.5);
      // The calm slice and its sub-slices (lower loss) are never among them.
      const mask = memberMask(dataset, s.conditions);
      let calm = 0;
      for (let i = 0; i < dataset.n; i++) calm += mask[i] && inPlanted(dataset.x, i) ? 1 : 0;
      expect(calm).toBeLessThan(s.size);
    }
  });

  it('uses the 0/1 loss with a label-only model and refuses log loss without probabilities', async () => {
    const dataset = data('flipped', 2000);
    const labelsOnly: Classifier = { nFeatures: 4, nClasses: 2, predict: model.predict };
    await expect(slicefinder.run({ dataset, model: labelsOnly }, {})).rejects.toMatchObject({
      code: 'MODEL_MISMATCH',
    });
    const result = await slicefinder.run(
      { dataset, model: labelsOnly },
      { loss: 'zero-one', approach: 'lattice', epsilon: 0.8, k: 3 },
    );
    if (result.findings.kind !== 'subgroup') throw new Error('expected subgroups');
    expect(result.findings.subgroups[0]!.conditions).toEqual([
      { attribute: 'a', values: [1] },
      { attribute: 'b', values: [2] },
    ]);
  });
});
