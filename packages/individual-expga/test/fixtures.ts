import {
  type Classifier,
  createDataset,
  createRng,
  type Dataset,
  DomainSampler,
  defineSchema,
} from '@fb/core';
import type { Draws } from '../src/draws.js';

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

/** The planted region: 40 <= a <= 49 and b >= 10 (5 % of the domain). */
export const inRegion = (r: ArrayLike<number>) => r[1]! >= 40 && r[1]! <= 49 && r[2]! >= 10;

/** A binary classifier from a row-wise probability of class 1 (label: p >= 0.5). */
export function probabilityModel(description: string, p1: (r: Float64Array) => number, d = 5): Classifier {
  const proba = (x: Float64Array) => {
    const n = x.length / d;
    const out = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const p = p1(x.subarray(i * d, (i + 1) * d));
      out[2 * i] = 1 - p;
      out[2 * i + 1] = p;
    }
    return out;
  };
  return {
    nFeatures: d,
    nClasses: 2,
    description,
    predictProba: proba,
    predict: (x) => {
      const p = proba(x);
      return Int32Array.from({ length: x.length / d }, (_, i) => (p[2 * i + 1]! >= 0.5 ? 1 : 0));
    },
  };
}

/** Decides by sex inside the region (0.2 vs 0.8), by `a > 70` outside it. */
export const regionModel = probabilityModel('region', (r) =>
  inRegion(r) ? (r[0] === 1 ? 0.8 : 0.2) : r[1]! > 70 ? 0.9 : 0.1,
);

/** Never looks at sex. */
export const blindModel = probabilityModel(
  'blind',
  (r) => 1 / (1 + Math.exp(-(r[1]! + 5 * r[2]! - 100) / 10)),
);

export function datasetFor(model: Classifier, n = 300): Dataset {
  const sampler = new DomainSampler(schema);
  const x = new Float64Array(n * sampler.d);
  sampler.fill(createRng('fixture'), x);
  const y = model.predict(x);
  y[0] = 0;
  y[1] = 1;
  return createDataset({ schema, x, y, name: 'fixture' });
}

/**
 * Scripted draws for hand-computed operator tests: each call takes the next scripted value and
 * checks that it lies in the requested range.
 */
export function scripted(script: { next?: number[]; int?: number[]; uniform?: number[] }): Draws & {
  left(): number;
} {
  const next = [...(script.next ?? [])];
  const ints = [...(script.int ?? [])];
  const uniforms = [...(script.uniform ?? [])];
  const take = (q: number[], what: string) => {
    if (q.length === 0) throw new Error(`no scripted ${what} left`);
    return q.shift()!;
  };
  return {
    next: () => take(next, 'next'),
    int: (lo: number, hi: number) => {
      const v = take(ints, 'int');
      if (v < lo || v > hi) throw new Error(`scripted int ${v} outside [${lo}, ${hi}]`);
      return v;
    },
    uniform: (lo = 0, hi = 1) => {
      const v = take(uniforms, 'uniform');
      if (v < lo || v >= hi) throw new Error(`scripted uniform ${v} outside [${lo}, ${hi})`);
      return v;
    },
    normal: () => {
      throw new Error('normal not scripted');
    },
    weightedIndex: () => {
      throw new Error('weightedIndex not scripted');
    },
    left: () => next.length + ints.length + uniforms.length,
  };
}
