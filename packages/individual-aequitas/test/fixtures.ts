import { type Classifier, createDataset, createRng, type Dataset, defineSchema } from '@fb/core';
import { RowModel, regionModel, regionSchema } from '@fb/testkit';
import { SearchSpace } from '../src/search-space.js';

export const SEX = 0;

/** A small dataset over `s`, labelled by `model`, drawn with a fixed seed through the search space. */
export function datasetFor(s = regionSchema, model: Classifier = regionModel, n = 200): Dataset {
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
export const raceModel = new RowModel('race-4', 3, (r) =>
  r[0] === 4 && r[1]! <= 50 ? 1 : r[1]! > 80 ? 1 : 0,
);
