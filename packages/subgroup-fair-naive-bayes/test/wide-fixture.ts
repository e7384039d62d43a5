import { type Classifier, createDataset, createRng, defineSchema } from '@fb/core';
import { type ConformanceFixture, fixtureSchema, makeFixture } from '@fb/testkit';

/**
 * The kit's planted-bias fixture widened by `extra` independent binary attributes that neither the
 * labels nor the model use. A pattern search's space grows by 3^extra, so this fixture gives
 * conformance runs that would take far longer than any budget.
 */
export function wideFixture(extra: number): ConformanceFixture {
  const base = makeFixture();
  const d0 = fixtureSchema.attributes.length;
  const d = d0 + extra;
  const schema = defineSchema({
    attributes: [
      ...fixtureSchema.attributes,
      ...Array.from({ length: extra }, (_, k) => ({
        name: `noise${k}`,
        kind: 'categorical' as const,
        protected: false,
        categories: ['0', '1'],
      })),
    ],
    outcome: fixtureSchema.outcome,
  });
  const rng = createRng('wide-fixture');
  const x = new Float64Array(base.dataset.n * d);
  for (let i = 0; i < base.dataset.n; i++) {
    x.set(base.dataset.x.subarray(i * d0, i * d0 + d0), i * d);
    for (let k = 0; k < extra; k++) x[i * d + d0 + k] = rng.int(0, 1);
  }
  const narrow = (z: Float64Array) => {
    const n = z.length / d;
    const out = new Float64Array(n * d0);
    for (let i = 0; i < n; i++) out.set(z.subarray(i * d, i * d + d0), i * d0);
    return out;
  };
  const model: Classifier = {
    nFeatures: d,
    nClasses: 2,
    description: 'planted-bias-logistic (wide)',
    predict: (z) => base.model.predict(narrow(z)),
    predictProba: (z) => base.model.predictProba!(narrow(z)),
  };
  return { dataset: createDataset({ schema, x, y: base.dataset.y, name: 'wide-fixture' }), model };
}
