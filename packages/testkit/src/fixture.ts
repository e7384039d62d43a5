import { type Classifier, createDataset, createRng, type Dataset, defineSchema, type Schema } from '@fb/core';

/** What every conformance check runs a detector on. */
export interface ConformanceFixture {
  dataset: Dataset;
  /** The model under audit (for data-only detectors it is still passed; they may ignore it). */
  model: Classifier;
}

/** The kit's schema: two protected attributes and three others of every kind. */
export const fixtureSchema: Schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['male', 'female'] },
    { name: 'race', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
    { name: 'age', kind: 'ordinal', protected: false, min: 1, max: 9, step: 1 },
    { name: 'hours', kind: 'continuous', protected: false, min: 0, max: 80 },
    { name: 'job', kind: 'categorical', protected: false, categories: ['j0', 'j1', 'j2', 'j3'] },
  ],
  outcome: { name: 'approved', labels: ['no', 'yes'], favorable: 1 },
});

/**
 * A logistic model with planted discrimination: women aged 4..6 and race `c` get a lower score.
 * Written by hand so that the kit depends on no model package and its bias is known exactly.
 */
export class PlantedBiasModel implements Classifier {
  readonly nFeatures = 5;
  readonly nClasses = 2;
  readonly description = 'planted-bias-logistic';

  score(x: Float64Array, off: number): number {
    const [sex, race, age, hours, job] = [x[off]!, x[off + 1]!, x[off + 2]!, x[off + 3]!, x[off + 4]!];
    let z = -2.2 + 0.35 * age + 0.025 * hours + (job === 3 ? 0.8 : job === 0 ? -0.4 : 0);
    if (sex === 1 && age >= 4 && age <= 6) z -= 2.5;
    if (race === 2) z -= 1.2;
    return 1 / (1 + Math.exp(-z));
  }

  predictProba(x: Float64Array): Float64Array {
    const n = x.length / this.nFeatures;
    const out = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const p = this.score(x, i * this.nFeatures);
      out[2 * i] = 1 - p;
      out[2 * i + 1] = p;
    }
    return out;
  }

  predict(x: Float64Array): Int32Array {
    const n = x.length / this.nFeatures;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.score(x, i * this.nFeatures) >= 0.5 ? 1 : 0;
    return out;
  }
}

/** A 400-row dataset whose labels are drawn from the planted model, and that model. */
export function makeFixture(n = 400, seed: number | string = 'testkit-fixture'): ConformanceFixture {
  const rng = createRng(seed);
  const model = new PlantedBiasModel();
  const d = fixtureSchema.attributes.length;
  const x = new Float64Array(n * d);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const o = i * d;
    x[o] = rng.int(0, 1);
    x[o + 1] = rng.weightedIndex([0.6, 0.25, 0.15]);
    x[o + 2] = rng.int(1, 9);
    x[o + 3] = Math.round(rng.uniform(0, 80) * 10) / 10;
    x[o + 4] = rng.int(0, 3);
    y[i] = rng.bernoulli(model.score(x, o)) ? 1 : 0;
  }
  return { dataset: createDataset({ schema: fixtureSchema, x, y, name: 'testkit-fixture' }), model };
}
