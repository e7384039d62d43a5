import { createRng, defineSchema, kmeans, ProtectedVariants } from '@fb/core';
import { fitLogisticRegression } from '@fb/models';
import { regionSchema } from '@fb/testkit';
import { describe, expect, it } from 'vitest';
import { globalStep } from '../src/global-step.js';
import { TwinGradients } from '../src/gradients.js';
import { drawIndex, inverseGradientProbabilities } from '../src/local-probability.js';
import { SearchSpace } from '../src/search-space.js';
import { clusterSeeds, eidigSeeds } from '../src/seeds.js';
import { A, B, C, datasetFor, regionModel, SEX } from './fixtures.js';

/** Central finite difference of f along coordinate j at x. */
function finiteDifference(f: (x: Float64Array) => number, x: Float64Array, j: number, h = 1e-5): number {
  const up = x.slice();
  const down = x.slice();
  up[j]! += h;
  down[j]! -= h;
  return (f(up) - f(down)) / (2 * h);
}

describe('gradients of the models the tests use', () => {
  const points = [
    [0, 45, 12, 0.3, 1],
    [1, 39.6, 9.8, 0.9, 2],
    [1, 70, 3, 0.5, 0],
    [0, 49.4, 10.2, 0.1, 3],
  ];

  it('the region model agrees with finite differences', () => {
    const score = (x: Float64Array) => regionModel.scoreGradient(x).score[0]!;
    for (const p of points) {
      const x = Float64Array.from(p);
      const { gradient } = regionModel.scoreGradient(x);
      for (let j = 0; j < 5; j++) expect(gradient[j]).toBeCloseTo(finiteDifference(score, x, j), 7);
    }
  });

  it("@fb/models' logistic regression agrees with finite differences", () => {
    const dataset = datasetFor(regionModel);
    const model = fitLogisticRegression(dataset, { categorical: 'ordinal' });
    const score = (x: Float64Array) => model.scoreGradient(x).score[0]!;
    for (const p of points) {
      const x = Float64Array.from(p);
      const { gradient } = model.scoreGradient(x);
      for (let j = 0; j < 5; j++) expect(gradient[j]).toBeCloseTo(finiteDifference(score, x, j), 6);
    }
  });

  it("orients the loss gradient as the gradient of the cross-entropy at the input's own prediction", () => {
    const oracle = new TwinGradients(
      regionModel,
      new ProtectedVariants(regionSchema, 'all-combinations'),
      'loss',
    );
    for (const p of points) {
      const x = Float64Array.from(p);
      const s0 = regionModel.scoreGradient(x).score[0]!;
      // Loss against the label predicted at x, held fixed while x moves.
      const loss = (z: Float64Array) => {
        const s = regionModel.scoreGradient(z).score[0]!;
        return s0 >= 0.5 ? -Math.log(s) : -Math.log(1 - s);
      };
      const gx = new Float64Array(5);
      const gt = new Float64Array(5);
      oracle.compute(x, 1, gx, gt);
      for (let j = 0; j < 5; j++) expect(gx[j]).toBeCloseTo(finiteDifference(loss, x, j), 6);
    }
    expect(oracle.gradientRows).toBe(2 * points.length);
  });

  it('orients the output gradient against the predicted class (EIDIG)', () => {
    const oracle = new TwinGradients(
      regionModel,
      new ProtectedVariants(regionSchema, 'all-combinations'),
      'output',
    );
    const x = Float64Array.from(points[2]!); // a = 70: predicted 1
    const { score, gradient } = regionModel.scoreGradient(x);
    expect(score[0]).toBeGreaterThan(0.5);
    const gx = new Float64Array(5);
    const gt = new Float64Array(5);
    oracle.compute(x, 1, gx, gt);
    for (let j = 0; j < 5; j++) expect(gx[j]).toBeCloseTo(-gradient[j]!, 15);
  });
});

describe('twin choice', () => {
  const raceSchema = defineSchema({
    attributes: [
      { name: 'race', kind: 'categorical', protected: true, categories: ['r0', 'r1', 'r2', 'r3'] },
      { name: 'v', kind: 'continuous', protected: false, min: -10, max: 10 },
    ],
    outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
  });
  // Logit v + offset[race]; dz/dv = 1 + race, so the twin's gradient tells which twin was taken.
  const offset = [0, 0.5, -3, 2];
  const model = {
    nFeatures: 2,
    nClasses: 2,
    predict: () => new Int32Array(0),
    scoreGradient(x: Float64Array) {
      const n = x.length / 2;
      const score = new Float64Array(n);
      const gradient = new Float64Array(2 * n);
      for (let i = 0; i < n; i++) {
        const r = x[2 * i]!;
        score[i] = 1 / (1 + Math.exp(-(x[2 * i + 1]! * (1 + r) + offset[r]!)));
        gradient[2 * i + 1] = (1 + r) * score[i]! * (1 - score[i]!);
      }
      return { score, gradient };
    },
  };
  const oracle = new TwinGradients(model, new ProtectedVariants(raceSchema, 'all-combinations'), 'output');
  const twinOf = (race: number, v: number) => {
    const gx = new Float64Array(2);
    const gt = new Float64Array(2);
    oracle.compute(Float64Array.from([race, v]), 1, gx, gt);
    // The twin's oriented gradient is ±(1 + r') s'(1 - s'): recover r' from the candidates.
    return [0, 1, 2, 3].find((r) => {
      if (r === race) return false;
      const { score, gradient } = model.scoreGradient(Float64Array.from([r, v]));
      const sign = score[0]! >= 0.5 ? -1 : 1;
      return Math.abs(sign * gradient[1]! - gt[1]!) < 1e-15;
    });
  };

  it('takes the first variant with a different decision', () => {
    // race 0 at v = 0.2: z = 0.2 (class 1); race 2 gives 0.6 - 3 < 0 (flip) before race 3 is seen.
    expect(twinOf(0, 0.2)).toBe(2);
  });

  it('else the variant whose score differs most', () => {
    // race 0 at v = 5: z = 5; no variant flips; race 3 (z = 22) differs most.
    expect(twinOf(0, 5)).toBe(3);
  });
});

describe('global step', () => {
  const space = new SearchSpace(regionSchema, 100);
  const rng = createRng('step');

  it('moves by the step along sign(g) only where the two signs agree, never the protected attribute', () => {
    const pos = Float64Array.from([0, 50, 10, 0.5, 1]);
    const g = Float64Array.from([9, 0.3, -2, 0, 4]);
    const t = Float64Array.from([-9, 0.1, 2, 0, 5]);
    globalStep(space, pos, 0, g, t, 0, 1, rng);
    // a: +,+ -> +1; b: -,+ -> none; c: 0,0 agree at 0 -> none; colour: +,+ -> +1; sex untouched.
    expect(Array.from(pos)).toEqual([0, 51, 10, 0.5, 2]);
  });

  it('uses the other gradient when one is zero on every movable attribute, and clips to the bounds', () => {
    const pos = Float64Array.from([1, 99, 0, 0.999, 0]);
    const g = Float64Array.from([3, 0, 0, 0, 0]);
    const t = Float64Array.from([0, 1, -1, 1, -1]);
    globalStep(space, pos, 0, g, t, 0, 2, rng);
    expect(pos[SEX]).toBe(1);
    expect(pos[A]).toBe(99);
    expect(pos[B]).toBe(0);
    expect(pos[C]).toBe(1);
    expect(pos[4]).toBe(0);
  });

  it("with the twin's gradient zero, moves along sign(g), down as well as up (not the original's +1 everywhere)", () => {
    // The original's step is sign(g) · g_diff with g_diff = sign(g) here: +1 on every attribute where g ≠ 0.
    const pos = Float64Array.from([0, 50, 10, 0.5, 1]);
    const g = Float64Array.from([0, -2, 0, 3, -1]);
    const t = Float64Array.from([5, 0, 0, 0, 0]);
    globalStep(space, pos, 0, g, t, 0, 1, rng);
    expect(Array.from(pos)).toEqual([0, 49, 10, 0.51, 0]);
  });

  it("with the input's gradient zero, moves along sign(g′) (the original does not move)", () => {
    const pos = Float64Array.from([0, 50, 10, 0.5, 1]);
    const g = Float64Array.from([0, 0, 0, 0, 0]);
    const t = Float64Array.from([0, 1, -1, 0, 0]);
    globalStep(space, pos, 0, g, t, 0, 1, rng);
    expect(Array.from(pos)).toEqual([0, 51, 9, 0.5, 1]);
  });

  it('moves one random attribute along sign(g) when the signs agree nowhere', () => {
    const counts = new Map<number, number>();
    for (let i = 0; i < 400; i++) {
      const pos = Float64Array.from([0, 50, 10, 0.5, 1]);
      const g = Float64Array.from([0, 1, 1, 1, 1]);
      const t = Float64Array.from([0, -1, -1, -1, -1]);
      globalStep(space, pos, 0, g, t, 0, 1, rng);
      const changed = [1, 2, 3, 4].filter((j) => pos[j] !== [0, 50, 10, 0.5, 1][j]);
      expect(changed).toHaveLength(1);
      counts.set(changed[0]!, (counts.get(changed[0]!) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([1, 2, 3, 4]);
  });
});

describe('local probabilities', () => {
  const movable = Int32Array.from([1, 2, 3]);

  it('are proportional to 1 / (|g| + |g′|), not to the sum itself', () => {
    const g = Float64Array.from([5, 0.5, -0.25, 1]);
    const t = Float64Array.from([5, 0.5, 0.75, -3]);
    const p = new Float64Array(3);
    inverseGradientProbabilities(g, t, 0, movable, 0, p, 0);
    // 1/1, 1/1, 1/4 -> 4/9, 4/9, 1/9.
    expect(p[0]).toBeCloseTo(4 / 9, 15);
    expect(p[1]).toBeCloseTo(4 / 9, 15);
    expect(p[2]).toBeCloseTo(1 / 9, 15);
  });

  it('share the probability among attributes with zero gradients, uniform if all are zero', () => {
    const p = new Float64Array(3);
    inverseGradientProbabilities(
      Float64Array.from([1, 0, 2, 0]),
      Float64Array.from([1, 0, 1, 0]),
      0,
      movable,
      0,
      p,
      0,
    );
    expect(Array.from(p)).toEqual([0.5, 0, 0.5]);
    inverseGradientProbabilities(new Float64Array(4), new Float64Array(4), 0, movable, 0, p, 0);
    expect(Array.from(p)).toEqual([1 / 3, 1 / 3, 1 / 3]);
  });

  it('add epsilon to the denominator (EIDIG)', () => {
    const p = new Float64Array(3);
    inverseGradientProbabilities(Float64Array.from([0, 0, 1, 3]), new Float64Array(4), 0, movable, 1, p, 0);
    // 1/1, 1/2, 1/4 -> 4/7, 2/7, 1/7.
    expect(p[0]).toBeCloseTo(4 / 7, 15);
    expect(p[1]).toBeCloseTo(2 / 7, 15);
    expect(p[2]).toBeCloseTo(1 / 7, 15);
  });

  it('are drawn with the right frequencies', () => {
    const rng = createRng('draw');
    const p = Float64Array.from([0.7, 0, 0.2, 0.1]);
    const n = 20000;
    const hits = new Int32Array(4);
    for (let i = 0; i < n; i++) hits[drawIndex(rng, p, 0, 4)]!++;
    expect(hits[1]).toBe(0);
    for (const k of [0, 2, 3]) {
      const q = p[k]!;
      expect(Math.abs(hits[k]! / n - q)).toBeLessThan(4 * Math.sqrt((q * (1 - q)) / n));
    }
  });
});

describe('variants and domain snapping', () => {
  it('keeps fractional positions and snaps them onto the grid for checking', () => {
    const space = new SearchSpace(regionSchema, 100);
    const pos = Float64Array.from([1, 50, 10, 0.5, 1]);
    const out = new Float64Array(5);
    space.move(pos, 0, A, 0.4);
    space.snap(pos, 0, out, 0);
    expect(out[A]).toBe(50);
    space.move(pos, 0, A, 0.4);
    space.snap(pos, 0, out, 0);
    expect(out[A]).toBe(51);
    space.move(pos, 0, C, 3);
    expect(pos[C]).toBeCloseTo(0.53, 12);
  });
});

describe('seeds', () => {
  const dataset = datasetFor(regionModel);
  const rowsOf = (rows: Float64Array) =>
    Array.from({ length: rows.length / dataset.d }, (_, i) =>
      rows.subarray(i * dataset.d, (i + 1) * dataset.d).join(),
    );

  it("ADF: distinct rows, round-robin over the clusters' shuffled members", () => {
    const seeds = clusterSeeds(dataset, 4, 200, createRng('seeds'));
    expect(seeds.count).toBe(200);
    expect(new Set(rowsOf(seeds.rows)).size).toBe(200);
    expect(seeds.clusterSizes.reduce((s, v) => s + v, 0)).toBe(dataset.n);
  });

  it("EIDIG: every row in data order, unclustered, when maxGlobal covers the data (the original's seeds = X)", () => {
    const seeds = eidigSeeds(dataset, 4, dataset.n, createRng('seeds'));
    expect(seeds.count).toBe(dataset.n);
    expect(Array.from(seeds.rows)).toEqual(Array.from(dataset.x));
    expect(seeds.clusterSizes).toEqual([]);
  });

  it('EIDIG: otherwise seed i drawn with replacement from cluster i mod k', () => {
    const rng = createRng('seeds');
    const seeds = eidigSeeds(dataset, 4, 280, rng);
    expect(seeds.count).toBe(280);
    expect(seeds.clusterSizes.reduce((s, v) => s + v, 0)).toBe(dataset.n);
    // The same k-means as the seeds used (same stream): seed i lies in cluster i mod 4.
    const { labels } = kmeans(dataset.x, dataset.d, 4, createRng('seeds').fork('kmeans'));
    const clusterOf = new Map(rowsOf(dataset.x).map((r, i) => [r, labels[i]!]));
    rowsOf(seeds.rows).forEach((r, i) => {
      expect(clusterOf.get(r)).toBe(i % 4);
    });
    // 280 draws with replacement from 300 rows repeat some (ADF's selection never does).
    expect(new Set(rowsOf(seeds.rows)).size).toBeLessThan(280);
  });
});
