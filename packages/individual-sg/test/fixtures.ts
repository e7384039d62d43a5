import {
  type Classifier,
  createDataset,
  createRng,
  type Dataset,
  DomainSampler,
  defineSchema,
} from '@fb/core';

/** sex (protected, 2 values), a in 0..99, b in 0..19, c in [0, 1], colour (4 categories). */
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

/** The planted region: 40 <= a <= 49 and b >= 10 (5 % of the domain). */
export const inRegion = (r: ArrayLike<number>) => r[1]! >= 40 && r[1]! <= 49 && r[2]! >= 10;

function rowModel(description: string, label: (r: Float64Array) => number): Classifier {
  return {
    nFeatures: 5,
    nClasses: 2,
    description,
    predict(x) {
      const out = new Int32Array(x.length / 5);
      for (let i = 0; i < out.length; i++) out[i] = label(x.subarray(i * 5, (i + 1) * 5));
      return out;
    },
  };
}

/** Decides by sex inside the region, by `a > 70` outside it. */
export const regionModel = rowModel('region', (r) => (inRegion(r) ? r[0]! : r[1]! > 70 ? 1 : 0));

/** Never looks at sex. */
export const blindModel = rowModel('blind', (r) => (r[1]! + 5 * r[2]! > 100 ? 1 : 0));

export function datasetFor(model: Classifier, n = 300): Dataset {
  const sampler = new DomainSampler(schema);
  const x = new Float64Array(n * sampler.d);
  sampler.fill(createRng('fixture'), x);
  const y = model.predict(x);
  y[0] = 0;
  y[1] = 1;
  return createDataset({ schema, x, y, name: 'fixture' });
}
