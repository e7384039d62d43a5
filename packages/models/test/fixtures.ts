import { createDataset, type Dataset, defineSchema, Rng, type Schema } from '@fb/core';

/** Two continuous attributes, a 3-level categorical and a 0..5 ordinal. */
export const mixedSchema: Schema = defineSchema({
  attributes: [
    { name: 'income', kind: 'continuous', protected: false, min: -20, max: 20 },
    { name: 'group', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
    { name: 'level', kind: 'ordinal', protected: false, min: 0, max: 5 },
    { name: 'score', kind: 'continuous', protected: false, min: -20, max: 20 },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

/** True raw-scale model used to label `mixedData`. */
export const truth = { intercept: -0.4, income: 0.8, group: [0, 1.2, -0.7], level: 0.35, score: -1.1 };

export function trueLogit(income: number, group: number, level: number, score: number): number {
  return (
    truth.intercept + truth.income * income + truth.group[group]! + truth.level * level + truth.score * score
  );
}

/** n rows from the known logistic model `truth`, labels drawn from it. */
export function mixedData(n: number, seed: number | string): Dataset {
  const rng = Rng.create(seed);
  const x = new Float64Array(n * 4);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const income = clamp(rng.normal(0.5, 1.5), -20, 20);
    const group = rng.int(0, 2);
    const level = rng.int(0, 5);
    const score = clamp(rng.normal(-0.3, 0.8), -20, 20);
    x.set([income, group, level, score], i * 4);
    y[i] = rng.next() < 1 / (1 + Math.exp(-trueLogit(income, group, level, score))) ? 1 : 0;
  }
  return createDataset({ schema: mixedSchema, x, y });
}

/** The same attributes with a three-class outcome set by the income interval, plus label noise. */
export function threeClassData(n: number, seed: number | string): Dataset {
  const schema = defineSchema({
    ...mixedSchema,
    outcome: { name: 'band', labels: ['low', 'mid', 'high'], favorable: 2 },
  });
  const rng = Rng.create(seed);
  const x = new Float64Array(n * 4);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const income = rng.uniform(-6, 6);
    x.set([income, rng.int(0, 2), rng.int(0, 5), rng.normal(0, 1)], i * 4);
    const band = income < -2 ? 0 : income < 2 ? 1 : 2;
    y[i] = rng.bernoulli(0.05) ? rng.int(0, 2) : band;
  }
  return createDataset({ schema, x, y });
}

export function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

/** Rows of continuous features drawn uniformly (distinct values, so binning is exact below 256 rows). */
export function uniformData(
  n: number,
  d: number,
  seed: string,
  label: (row: Float64Array) => number,
): Dataset {
  const schema = defineSchema({
    attributes: Array.from({ length: d }, (_, j) => ({
      name: `f${j}`,
      kind: 'continuous' as const,
      protected: j === 0,
      min: 0,
      max: 1,
    })),
    outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
  });
  const rng = Rng.create(seed);
  const x = new Float64Array(n * d);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) x[i * d + j] = rng.next();
    y[i] = label(x.subarray(i * d, i * d + d));
  }
  return createDataset({ schema, x, y });
}
