import { type Classifier, createDataset, createRng, type Dataset } from '@fb/core';
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
