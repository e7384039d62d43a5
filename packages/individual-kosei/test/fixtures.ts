import { defineSchema } from '@fb/core';
import { RowModel } from '@fb/testkit';

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

/** Decides by sex inside the region, by `a > 15` outside it. */
export const gridRegionModel = () =>
  new RowModel('grid-region', 4, (r) => (inGridRegion(r) ? r[0]! : r[1]! > 15 ? 1 : 0));

/** Never looks at sex. */
export const gridBlindModel = () => new RowModel('grid-blind', 4, (r) => (r[1]! + 2 * r[2]! > 20 ? 1 : 0));

/** Decides by sex alone: every input is discriminatory. */
export const sexOnlyModel = () => new RowModel('sex-only', 4, (r) => r[0]!);

/** The non-protected key of a grid row. */
export const gridKey = (row: ArrayLike<number>) => `${row[1]},${row[2]},${row[3]}`;
