import { type Classifier, createDataset, createRng, type Dataset, defineSchema } from '@fb/core';
import { SearchSpace } from '../src/search-space.js';

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

export const SEX = 0;
export const A = 1;
export const B = 2;

/** The planted discriminating region: 40 <= a <= 49 and b >= 10 (5 % of the domain). */
export function inRegion(row: ArrayLike<number>): boolean {
  return row[A]! >= 40 && row[A]! <= 49 && row[B]! >= 10;
}

function rowModel(
  description: string,
  label: (row: Float64Array) => number,
  d = schema.attributes.length,
): Classifier {
  return {
    nFeatures: d,
    nClasses: 2,
    description,
    predict(x: Float64Array): Int32Array {
      const n = x.length / d;
      const out = new Int32Array(n);
      for (let i = 0; i < n; i++) out[i] = label(x.subarray(i * d, (i + 1) * d));
      return out;
    },
  };
}

/** Decides by sex inside the region, by `a > 70` outside it. */
export const regionModel = rowModel('region', (r) => (inRegion(r) ? r[SEX]! : r[A]! > 70 ? 1 : 0));

/** Never looks at sex. */
export const blindModel = rowModel('blind', (r) => (r[A]! + 5 * r[B]! > 100 ? 1 : 0));

/** A small dataset over `s`, labelled by `model`, drawn with a fixed seed. */
export function datasetFor(s = schema, model: Classifier = regionModel, n = 200): Dataset {
  const space = new SearchSpace(s, 1, 100);
  const rng = createRng('fixture');
  const x = new Float64Array(n * space.d);
  for (let i = 0; i < n; i++) space.sample(rng, x, i * space.d);
  const y = model.predict(x);
  // Make sure both classes occur.
  y[0] = 0;
  y[1] = 1;
  return createDataset({ schema: s, x, y, name: 'fixture' });
}

/** race (protected, 5 values), a in 0..99, b in 0..19. */
export const raceSchema = defineSchema({
  attributes: [
    { name: 'race', kind: 'categorical', protected: true, categories: ['r0', 'r1', 'r2', 'r3', 'r4'] },
    { name: 'a', kind: 'ordinal', protected: false, min: 0, max: 99, step: 1 },
    { name: 'b', kind: 'ordinal', protected: false, min: 0, max: 19, step: 1 },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

/** Favours race r4 when a <= 50; races 0 and 1 are always treated alike. */
export const raceModel = rowModel('race-4', (r) => (r[0] === 4 && r[1]! <= 50 ? 1 : r[1]! > 80 ? 1 : 0), 3);
