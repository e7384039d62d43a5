import { Rng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { confusionByGroup } from '../src/confusion.js';

/** Confusion counts row by row, the definition written out. */
function bruteForce(
  yTrue: Int32Array | null,
  yPred: Int32Array,
  codes: Int32Array,
  groups: number,
  fav: number,
) {
  const counts = Array.from({ length: groups }, () => ({ tp: 0, fp: 0, tn: 0, fn: 0 }));
  for (let i = 0; i < yPred.length; i++) {
    const pp = yPred[i] === fav;
    const tp = yTrue ? yTrue[i] === fav : pp;
    const c = counts[codes[i]!]!;
    if (pp && tp) c.tp++;
    else if (pp) c.fp++;
    else if (tp) c.fn++;
    else c.tn++;
  }
  const total = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (const c of counts) for (const k of ['tp', 'fp', 'tn', 'fn'] as const) total[k] += c[k];
  return { counts, total };
}

describe('confusionByGroup', () => {
  it('counts every row in its group and cell, with or without labels, for either favourable class', () => {
    const rng = Rng.create('confusion');
    for (let trial = 0; trial < 20; trial++) {
      const n = rng.int(1, 3000);
      const groups = rng.int(1, 12);
      const codes = Int32Array.from({ length: n }, () => rng.int(0, groups - 1));
      // Three classes, so that "not favourable" covers more than one label.
      const yPred = Int32Array.from({ length: n }, () => rng.int(0, 2));
      const yTrue = trial % 3 === 0 ? null : Int32Array.from({ length: n }, () => rng.int(0, 2));
      const fav = trial % 2;
      expect(confusionByGroup(yTrue, yPred, codes, groups, fav)).toEqual(
        bruteForce(yTrue, yPred, codes, groups, fav),
      );
    }
  });

  it('puts every row in group 0 without codes', () => {
    const rng = Rng.create('confusion-one-group');
    const n = 500;
    const yPred = Int32Array.from({ length: n }, () => rng.int(0, 1));
    const yTrue = Int32Array.from({ length: n }, () => rng.int(0, 1));
    const one = bruteForce(yTrue, yPred, new Int32Array(n), 1, 1);
    expect(confusionByGroup(yTrue, yPred, null, 1, 1)).toEqual(one);
  });

  it('gives an empty group zero counts', () => {
    const { counts, total } = confusionByGroup(
      Int32Array.of(1, 0),
      Int32Array.of(1, 1),
      Int32Array.of(0, 0),
      2,
      1,
    );
    expect(counts).toEqual([
      { tp: 1, fp: 1, tn: 0, fn: 0 },
      { tp: 0, fp: 0, tn: 0, fn: 0 },
    ]);
    expect(total).toEqual({ tp: 1, fp: 1, tn: 0, fn: 0 });
  });
});
