import { type Classifier, createDataset, createRng, defineSchema } from '@fb/core';
import { limi } from '@fb/individual-limi';
import { describe, expect, it } from 'vitest';
import { methodForCell } from '../src/run/prefit.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'age', kind: 'ordinal', protected: false, min: 18, max: 70, step: 1 },
    { name: 'hours', kind: 'ordinal', protected: false, min: 0, max: 60, step: 1 },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

function data(seed: string) {
  const rng = createRng(seed);
  const x: number[] = [];
  for (let i = 0; i < 300; i++) x.push(rng.int(0, 1), rng.int(18, 70), rng.int(0, 60));
  return createDataset({ schema, x, y: Array.from({ length: 300 }, (_, i) => i % 2) });
}

const byHours = (cut: number): Classifier => ({
  nFeatures: 3,
  nClasses: 2,
  predict: (b) => Int32Array.from({ length: b.length / 3 }, (_, i) => Number(b[3 * i + 2]! > cut)),
});

const vae = { generator: 'vae', epochs: 2, hiddenUnits: 8, latentDim: 2 };
type Generator = { prefit: boolean; trainingSeconds: number };

describe('data-only phases fitted once per audited data set', () => {
  it("shares LIMI's generator among the cells of one data set and seed, and refits for other rows or seeds", async () => {
    const dataset = data('rows');
    const budget = { maxTested: 50 };
    const first = await methodForCell('limi', vae, dataset, 1);
    const second = await methodForCell('limi', vae, dataset, 1);
    const a = await first.run({ dataset, model: byHours(30) }, vae, { seed: 1, budget });
    const b = await second.run({ dataset, model: byHours(40) }, vae, { seed: 1, budget });
    const ga = a.extras.generator as Generator;
    const gb = b.extras.generator as Generator;
    expect(ga.prefit).toBe(true);
    // One fit: the same training record (its clock reading) in both cells.
    expect(gb.trainingSeconds).toBe(ga.trainingSeconds);
    // Keyed by content: an equal copy of the rows reuses the fit, and the same model and seed give
    // the same run.
    const again = await methodForCell('limi', vae, data('rows'), 1);
    const c = await again.run({ dataset, model: byHours(30) }, vae, { seed: 1, budget });
    expect((c.extras.generator as Generator).trainingSeconds).toBe(ga.trainingSeconds);
    expect(c.findings).toEqual(a.findings);
    const otherSeed = await methodForCell('limi', vae, dataset, 2);
    const d = await otherSeed.run({ dataset, model: byHours(30) }, vae, { seed: 2, budget });
    expect((d.extras.generator as Generator).trainingSeconds).not.toBe(ga.trainingSeconds);
  }, 120_000);

  it('leaves every other method and the PCA generator to the registry', async () => {
    const dataset = data('rows');
    expect(await methodForCell('limi', { generator: 'pca' }, dataset, 1)).toBe(limi);
    expect((await methodForCell('kosei', {}, dataset, 1)).id).toBe('kosei');
  });
});
