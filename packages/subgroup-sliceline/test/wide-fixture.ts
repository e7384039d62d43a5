import { type Classifier, createDataset, createRng, defineSchema } from '@fb/core';
import { type ConformanceFixture, makeFixture } from '@fb/testkit';

export const WIDE_ROWS = 2000;
const EXTRA = 15;
const EXTRA_VALUES = 5;

/**
 * The kit's fixture (same first five attributes, labels and planted model) widened by 15 noise
 * attributes of 5 values: SliceLine's lattice on the kit's five attributes is too small for any
 * setting to outlast a time budget, while this one grows combinatorially with the level.
 */
export function wideFixture(): ConformanceFixture {
  const base = makeFixture(WIDE_ROWS);
  const rng = createRng('wide-fixture');
  const d0 = base.dataset.d;
  const d = d0 + EXTRA;
  const schema = defineSchema({
    attributes: [
      ...base.dataset.schema.attributes,
      ...Array.from({ length: EXTRA }, (_, j) => ({
        name: `noise${j}`,
        kind: 'categorical' as const,
        protected: false,
        categories: Array.from({ length: EXTRA_VALUES }, (_, v) => `v${v}`),
      })),
    ],
    outcome: base.dataset.schema.outcome,
  });
  const x = new Float64Array(WIDE_ROWS * d);
  for (let i = 0; i < WIDE_ROWS; i++) {
    x.set(base.dataset.x.subarray(i * d0, i * d0 + d0), i * d);
    for (let j = d0; j < d; j++) x[i * d + j] = rng.int(0, EXTRA_VALUES - 1);
  }
  const narrow = (rows: Float64Array) => {
    const n = rows.length / d;
    const out = new Float64Array(n * d0);
    for (let i = 0; i < n; i++) out.set(rows.subarray(i * d, i * d + d0), i * d0);
    return out;
  };
  const model: Classifier = {
    nFeatures: d,
    nClasses: 2,
    description: 'planted-bias-logistic on the first five attributes',
    predict: (rows) => base.model.predict(narrow(rows)),
    predictProba: (rows) => base.model.predictProba!(narrow(rows)),
  };
  return { dataset: createDataset({ schema, x, y: base.dataset.y, name: 'wide-fixture' }), model };
}

/** A real-valued error per row of the wide fixture, uniform on [0, 1). */
export function uniformErrors(): number[] {
  const rng = createRng('wide-errors');
  return Array.from({ length: WIDE_ROWS }, () => rng.next());
}
