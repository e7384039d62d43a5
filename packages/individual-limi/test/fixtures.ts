import { type Classifier, createDataset, createRng, type Dataset, defineSchema } from '@fb/core';

/** sex (protected), a in 0..99, b in 0..19, c in [0, 1], colour (4 categories). */
export const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'a', kind: 'ordinal', protected: false, min: 0, max: 99, step: 1 },
    { name: 'b', kind: 'ordinal', protected: false, min: 0, max: 19, step: 1 },
    { name: 'c', kind: 'continuous', protected: false, min: 0, max: 1 },
    { name: 'colour', kind: 'categorical', protected: false, categories: ['r', 'g', 'b', 'y'] },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

/** A model from its logit, with probabilities. */
export function logitModel(description: string, logit: (r: Float64Array) => number): Classifier {
  const proba = (x: Float64Array) => {
    const n = x.length / 5;
    const out = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const s = 1 / (1 + Math.exp(-logit(x.subarray(5 * i, 5 * i + 5))));
      out[2 * i] = 1 - s;
      out[2 * i + 1] = s;
    }
    return out;
  };
  return {
    nFeatures: 5,
    nClasses: 2,
    description,
    predictProba: proba,
    predict: (x) => {
      const p = proba(x);
      return Int32Array.from({ length: p.length / 2 }, (_, i) => (p[2 * i + 1]! >= 0.5 ? 1 : 0));
    },
  };
}

/** Decides on a around 50; sex shifts the logit by ±1.2 where b >= 10, so the bias sits on the boundary. */
export const boundaryBiasModel = logitModel(
  'boundary-bias',
  (r) => 0.3 * (r[1]! - 50) + (r[2]! >= 10 ? 2.4 * (r[0]! - 0.5) : 0),
);

/** Never looks at sex. */
export const blindModel = logitModel('blind', (r) => 0.3 * (r[1]! - 50) + 0.2 * (r[2]! - 10));

/** Rows whose attributes are correlated (b and c follow a), labelled by `model`. */
export function correlatedData(model: Classifier, n = 400, seed = 'limi-fixture'): Dataset {
  const rng = createRng(seed);
  const x = new Float64Array(n * 5);
  for (let i = 0; i < n; i++) {
    const a = rng.int(0, 99);
    x[i * 5] = rng.int(0, 1);
    x[i * 5 + 1] = a;
    x[i * 5 + 2] = Math.min(19, Math.max(0, Math.round(a / 5 + rng.normal(0, 1.5))));
    x[i * 5 + 3] = Math.min(1, Math.max(0, a / 100 + rng.normal(0, 0.05)));
    x[i * 5 + 4] = rng.int(0, 3);
  }
  const y = model.predict(x);
  return createDataset({ schema, x, y, name: 'correlated' });
}
