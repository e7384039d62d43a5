import {
  type Classifier,
  createDataset,
  createRng,
  type Dataset,
  DomainSampler,
  defineSchema,
  type Schema,
} from '@fb/core';

/** sex (protected), a in 0..19, b in 0..9, colour (3 categories): 600 non-protected points. */
export const gridSchema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'a', kind: 'ordinal', protected: false, min: 0, max: 19, step: 1 },
    { name: 'b', kind: 'ordinal', protected: false, min: 0, max: 9, step: 1 },
    { name: 'colour', kind: 'categorical', protected: false, categories: ['r', 'g', 'b'] },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

/** The planted region of `gridSchema`: 5 <= a <= 9 and b >= 6, i.e. 5 x 4 x 3 = 60 points. */
export function inGridRegion(row: ArrayLike<number>): boolean {
  return row[1]! >= 5 && row[1]! <= 9 && row[2]! >= 6;
}

/** A classifier deciding `label(row)` row by row, counting the rows it is asked about. */
export class RowModel implements Classifier {
  readonly nFeatures: number;
  readonly nClasses = 2;
  readonly description: string;
  rowsSeen = 0;
  private readonly label: (row: Float64Array) => number;

  constructor(description: string, d: number, label: (row: Float64Array) => number) {
    this.description = description;
    this.nFeatures = d;
    this.label = label;
  }

  predict(x: Float64Array): Int32Array {
    const d = this.nFeatures;
    const n = x.length / d;
    this.rowsSeen += n;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.label(x.subarray(i * d, (i + 1) * d));
    return out;
  }
}

/** Decides by sex inside the region, by `a > 15` outside it. */
export const gridRegionModel = () =>
  new RowModel('grid-region', 4, (r) => (inGridRegion(r) ? r[0]! : r[1]! > 15 ? 1 : 0));

/** Never looks at sex. */
export const gridBlindModel = () => new RowModel('grid-blind', 4, (r) => (r[1]! + 2 * r[2]! > 20 ? 1 : 0));

/** Decides by sex alone: every input is discriminatory. */
export const sexOnlyModel = () => new RowModel('sex-only', 4, (r) => r[0]!);

/** A small dataset over `schema`, labelled by `model` (both classes forced to occur). */
export function datasetFor(schema: Schema, model: Classifier, n = 100): Dataset {
  const sampler = new DomainSampler(schema);
  const x = new Float64Array(n * sampler.d);
  sampler.fill(createRng('fixture'), x);
  const y = model.predict(x);
  y[0] = 0;
  y[1] = 1;
  return createDataset({ schema, x, y, name: 'fixture' });
}

/** The non-protected key of a grid row. */
export const gridKey = (row: ArrayLike<number>) => `${row[1]},${row[2]},${row[3]}`;
