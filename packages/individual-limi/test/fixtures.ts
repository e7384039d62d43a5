import { type Classifier, createDataset, createRng, type Dataset, defineSchema } from '@fb/core';
import { probabilityModel, regionSchema } from '@fb/testkit';

/** A model from its logit, with probabilities. */
export function logitModel(description: string, logit: (r: Float64Array) => number): Classifier {
  return probabilityModel(description, (r) => 1 / (1 + Math.exp(-logit(r))));
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
  return createDataset({ schema: regionSchema, x, y, name: 'correlated' });
}

/**
 * Categorical rows only (like `@fb/synth`'s default schema): `d` attributes of 2 to 5 categories, the
 * first protected, each driven by one shared latent factor and its own noise, so that the attributes
 * are correlated and a few combinations are common. Labelled by a logistic model of the codes.
 */
export function categoricalData(n = 800, d = 10, seed = 'limi-categorical'): Dataset {
  const rng = createRng(seed);
  const arity = Array.from({ length: d }, (_, j) => 2 + (j % 4));
  const schema = defineSchema({
    attributes: arity.map((k, j) => ({
      name: `A${j}`,
      kind: 'categorical' as const,
      protected: j === 0,
      categories: Array.from({ length: k }, (_, c) => `v${c}`),
    })),
    outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
  });
  const x = new Float64Array(n * d);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const factor = rng.normal();
    let logit = 0;
    for (let j = 0; j < d; j++) {
      const t = 0.8 * factor + 0.6 * rng.normal();
      // Cut the standard normal t into arity[j] cells.
      const v = Math.min(arity[j]! - 1, Math.max(0, Math.floor((t + 1.5) * (arity[j]! / 3))));
      x[i * d + j] = v;
      logit += (j === 0 ? 0.8 : 0.3) * (v - arity[j]! / 2);
    }
    y[i] = rng.uniform() < 1 / (1 + Math.exp(-logit)) ? 1 : 0;
  }
  return createDataset({ schema, x, y, name: 'categorical' });
}
