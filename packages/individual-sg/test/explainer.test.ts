import { type Classifier, createDataset, createRng, type Dataset, type Rng } from '@fb/core';
import { fitDecisionTree } from '@fb/models';
import { labelledSample, regionModel } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { drawSamples, PathExplainer, pathPredicates } from '../src/explainer.js';

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

describe('drawSamples', () => {
  it("gives rng.int's samples value for value, and leaves the stream where rng.int leaves it", () => {
    const shapes = [
      { n: 1, d: 3, samples: 10 },
      { n: 7, d: 1, samples: 500 },
      { n: 300, d: 5, samples: 1000 },
      { n: 3000, d: 10, samples: 5000 },
    ];
    const gen = createRng('shapes');
    for (const { n, d, samples } of shapes) {
      const size = n * d;
      const x = Float64Array.from({ length: size }, () => gen.uniform(-100, 100));
      const t = Float64Array.from({ length: d }, () => gen.uniform(-100, 100));
      const a = createRng(`draw-${n}`);
      const b = createRng(`draw-${n}`);
      const expected = referenceSamples(t, x, n, d, samples, a);
      const rows = new Float64Array(samples * d).fill(Number.NaN);
      drawSamples(rows, t, x, n, d, samples, b, new Int32Array((samples - 1) * d));
      expect(Buffer.from(rows.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
      expect(b.nextU32()).toBe(a.nextU32());
    }
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
