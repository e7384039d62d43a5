import { type Classifier, createDataset, createRng, type Dataset, type Rng } from '@fb/core';
import { fitDecisionTree } from '@fb/models';
import { labelledSample, regionModel } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { drawSamples, PathExplainer, pathPredicates, rejectionLimit, remainder } from '../src/explainer.js';

/** The perturbed samples as the explainer first drew them: one `rng.int` per value. */
function referenceSamples(t: Float64Array, x: Float64Array, n: number, d: number, samples: number, rng: Rng) {
  const rows = new Float64Array(samples * d);
  rows.set(t);
  for (let s = 1; s < samples; s++)
    for (let j = 0; j < d; j++) rows[s * d + j] = x[rng.int(0, n - 1) * d + j]!;
  return rows;
}

/** The explanation as it was first written: the samples above, checked by `createDataset`, then the tree (its path read as the explainer reads it). */
function referenceExplain(
  dataset: Dataset,
  samples: number,
  model: Classifier,
  t: Float64Array,
  rng: Rng,
  seed: number,
) {
  const rows = referenceSamples(t, dataset.x, dataset.n, dataset.d, samples, rng);
  const labels = model.predict(rows);
  if (labels.every((v) => v === labels[0])) return [];
  const tree = fitDecisionTree(createDataset({ schema: dataset.schema, x: rows, y: labels }), { seed });
  return pathPredicates(tree, t);
}

describe('remainder', () => {
  it('equals % for 32-bit draws, random and at the edges, over small and huge divisors', () => {
    const rng = createRng('remainder');
    const divisors = [
      1,
      2,
      3,
      7,
      10,
      300,
      6000,
      65_535,
      65_537,
      1_000_003,
      2 ** 31 - 1,
      2 ** 31,
      2 ** 31 + 1,
    ];
    divisors.push(2 ** 32 - 5, 2 ** 32 - 1, 2 ** 32);
    for (let i = 0; i < 40; i++) divisors.push(rng.int(1, 2 ** 32));
    const wrong: string[] = [];
    let checked = 0;
    for (const n of divisors) {
      const edges = [0, 1, n - 1, n, n + 1, 2 * n - 1, 2 * n, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32 - n];
      const draws = edges.filter((r) => r >= 0 && r < 2 ** 32);
      for (let k = 0; k < 2000; k++) draws.push(rng.nextU32());
      // Multiples of n and their neighbours, where a quotient one off would show.
      for (let k = 0; k < 200; k++) {
        const m = rng.int(0, Math.floor((2 ** 32 - 1) / n)) * n;
        for (const r of [m - 1, m, m + 1]) if (r >= 0 && r < 2 ** 32) draws.push(r);
      }
      checked += draws.length;
      for (const r of draws) if (remainder(r, n, 1 / n) !== r % n) wrong.push(`${r} % ${n}`);
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(100_000);
  });
});

describe('drawSamples', () => {
  it("gives rng.int's samples value for value, and leaves the stream where rng.int leaves it", () => {
    const shapes = [
      { n: 1, d: 3, samples: 10 },
      { n: 7, d: 1, samples: 500 },
      { n: 300, d: 5, samples: 1000 },
      { n: 3000, d: 10, samples: 5000 },
      // A row count whose rejection threshold rejects about one 32-bit draw in four.
      { n: 2 ** 30 + 2 ** 29 + 1, d: 1, samples: 20 },
    ];
    const gen = createRng('shapes');
    for (const { n, d, samples } of shapes) {
      // A huge n is only indexed (x is then 1 wide and short: the index is checked, not the value).
      const size = Math.min(n, 5000) * d;
      const x = Float64Array.from({ length: size }, () => gen.uniform(-100, 100));
      const t = Float64Array.from({ length: d }, () => gen.uniform(-100, 100));
      const withRows = n <= 5000;
      const a = createRng(`draw-${n}`);
      const b = createRng(`draw-${n}`);
      if (withRows) {
        const expected = referenceSamples(t, x, n, d, samples, a);
        const rows = new Float64Array(samples * d).fill(Number.NaN);
        drawSamples(rows, t, x, n, d, samples, rejectionLimit(n), b);
        expect(Buffer.from(rows.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
      } else {
        // The indices themselves: x of n rows would not fit, so each index is kept as the value.
        const expected: number[] = [];
        for (let k = 0; k < samples; k++) expected.push(a.int(0, n - 1));
        const limit = rejectionLimit(n);
        const got: number[] = [];
        for (let k = 0; k < samples; k++) {
          let r = b.nextU32();
          while (r >= limit) r = b.nextU32();
          got.push(remainder(r, n, 1 / n));
        }
        expect(got).toEqual(expected);
      }
      expect(b.nextU32()).toBe(a.nextU32());
    }
  });

  it('refuses a data set it cannot sample, as rng.int does', () => {
    expect(() => rejectionLimit(0)).toThrow(RangeError);
    expect(() => rejectionLimit(2.5)).toThrow(RangeError);
    expect(rejectionLimit(3000)).toBe(2 ** 32 - (2 ** 32 % 3000));
  });
});

describe('PathExplainer', () => {
  it('gives the paths of the reference explanation, draw for draw, input after input', () => {
    const dataset = labelledSample(regionModel, 400);
    const explainer = new PathExplainer(dataset, 600);
    const a = createRng('lime');
    const b = createRng('lime');
    let nonEmpty = 0;
    for (let i = 0; i < 40; i++) {
      const t = dataset.x.slice(i * dataset.d, (i + 1) * dataset.d);
      const seed = 1000 + i;
      const expected = referenceExplain(dataset, 600, regionModel, t, a, seed);
      const path = explainer.explain(regionModel, t, b, seed);
      expect(path).toEqual(expected);
      if (path.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(30);
    expect(b.nextU32()).toBe(a.nextU32());
  });
});
