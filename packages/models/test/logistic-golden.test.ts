import { createHash } from 'node:crypto';
import { createDataset, type Dataset, defineSchema, Rng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { fitLogisticRegression, type LogisticRegression } from '../src/logistic-regression.js';
import { mixedData } from './fixtures.js';

/**
 * Every binary fit below gives the bytes (coefficients, intercepts, iterations, gradient norm) that the
 * solver gave before its binary loss was evaluated column by column with the Hessian built only when
 * a step needs it: the hashes were printed by the earlier solver on the same data.
 */

/** Six categorical attributes (2-6 levels), one continuous, a label from a known logistic model. */
function oneHotData(n: number, seed: string, continuous: boolean): Dataset {
  const arities = [2, 3, 4, 5, 6, 3];
  const attributes = arities.map((k, j) => ({
    name: `c${j}`,
    kind: 'categorical' as const,
    protected: j === 0,
    categories: Array.from({ length: k }, (_, v) => `v${v}`),
  }));
  const all = continuous
    ? [...attributes, { name: 'z', kind: 'continuous' as const, protected: false, min: -10, max: 10 }]
    : attributes;
  const schema = defineSchema({ attributes: all, outcome: { name: 'y', labels: ['0', '1'], favorable: 1 } });
  const rng = Rng.create(seed);
  const d = all.length;
  const x = new Float64Array(n * d);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let eta = -0.3;
    arities.forEach((k, j) => {
      const v = rng.int(0, k - 1);
      x[i * d + j] = v;
      eta += ((v * 37 + j * 11) % 7) / 7 - 0.45;
    });
    if (continuous) {
      const z = Math.max(-10, Math.min(10, rng.normal(0.2, 1.3)));
      x[i * d + d - 1] = z;
      eta += 0.6 * z;
    }
    y[i] = rng.next() < 1 / (1 + Math.exp(-eta)) ? 1 : 0;
  }
  return createDataset({ schema, x, y });
}

/** The bytes of everything a fit reports about its solution. */
function digest(model: LogisticRegression): string {
  const h = createHash('sha256');
  h.update(new Uint8Array(model.coefficients.buffer));
  h.update(new Uint8Array(model.intercepts.buffer));
  h.update(new Uint8Array(Float64Array.of(model.iterations, model.gradientNorm).buffer));
  h.update(model.converged ? 'c' : 'n');
  return h.digest('hex').slice(0, 24);
}

function weightsOf(n: number, seed: string, zeros: boolean): Float64Array {
  const rng = Rng.create(seed);
  return Float64Array.from({ length: n }, (_, i) => (zeros && i % 7 === 3 ? 0 : 0.05 + 3 * rng.next()));
}

/** Rows twice (label 1 with weight w·e, label 0 with w·(1 − e)), as CBS's event model for real-valued events. */
function doubled(ds: Dataset, seed: string): { ds: Dataset; w: Float64Array } {
  const rng = Rng.create(seed);
  const n = ds.n;
  const x = new Float64Array(2 * n * ds.d);
  const y = new Int32Array(2 * n);
  const w = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const row = ds.x.subarray(i * ds.d, (i + 1) * ds.d);
    x.set(row, 2 * i * ds.d);
    x.set(row, (2 * i + 1) * ds.d);
    const e = rng.next();
    const odds = 0.2 + 2 * rng.next();
    y[2 * i] = 1;
    w[2 * i] = odds * e;
    w[2 * i + 1] = odds * (1 - e);
  }
  return { ds: createDataset({ schema: ds.schema, x, y }), w };
}

function cases(): Record<string, string> {
  const out: Record<string, string> = {};
  const oneHot = oneHotData(1500, 'golden-onehot', false);
  const mixed = oneHotData(1200, 'golden-mixed', true);
  const fixture = mixedData(800, 'golden-fixture');
  for (const [name, ds] of [
    ['one-hot', oneHot],
    ['one-hot and continuous', mixed],
    ['fixture', fixture],
  ] as const) {
    for (const l2 of [1, 0.01, 25]) out[`${name}, l2 ${l2}`] = digest(fitLogisticRegression(ds, { l2 }));
    const base = fitLogisticRegression(ds, { l2: 1 });
    const w = weightsOf(ds.n, `${name}-w`, false);
    out[`${name}, weights`] = digest(fitLogisticRegression(ds, { l2: 1 }, w));
    out[`${name}, weights with zeros`] = digest(
      fitLogisticRegression(ds, { l2: 1 }, weightsOf(ds.n, `${name}-w0`, true)),
    );
    out[`${name}, warm start`] = digest(fitLogisticRegression(ds, { l2: 1 }, w, base));
    // A relabelled copy started from the first fit: a resample's propensity refit.
    const rng = Rng.create(`${name}-relabel`);
    const relabelled = createDataset({
      schema: ds.schema,
      x: ds.x,
      y: Int32Array.from(ds.y, (v) => (rng.next() < 0.15 ? 1 - v : v)),
    });
    out[`${name}, relabelled, warm`] = digest(fitLogisticRegression(relabelled, { l2: 1 }, undefined, base));
    const two = doubled(ds, `${name}-double`);
    out[`${name}, doubled rows`] = digest(fitLogisticRegression(two.ds, { l2: 1 }, two.w));
    out[`${name}, tol 1e-10`] = digest(fitLogisticRegression(ds, { l2: 1, tol: 1e-10 }));
    out[`${name}, maxIter 2`] = digest(fitLogisticRegression(ds, { l2: 1, maxIter: 2 }));
  }
  // Separable data without penalty: the solver runs to its iteration limit with halved steps.
  const sep = createDataset({
    schema: oneHot.schema,
    x: oneHot.x,
    y: Int32Array.from({ length: oneHot.n }, (_, i) => (oneHot.x[i * oneHot.d]! === 1 ? 1 : 0)),
  });
  out['separable, l2 0'] = digest(fitLogisticRegression(sep, { l2: 0, maxIter: 30 }));
  out['separable, l2 1e-6'] = digest(fitLogisticRegression(sep, { l2: 1e-6 }));
  return out;
}

const expected: Record<string, string> = {
  'one-hot, l2 1': '55f1fa2d8fc385e5528d7869',
  'one-hot, l2 0.01': '5e8ad09cd062241dde4e3893',
  'one-hot, l2 25': '8781c5b97a3d72673175988a',
  'one-hot, weights': '7eeb5fd13203f4133042151d',
  'one-hot, weights with zeros': '100b36f9ea50df7080d76df0',
  'one-hot, warm start': 'eb0113e1b2b3870f33a0c3ce',
  'one-hot, relabelled, warm': 'ee9019e629d1d2436bf22897',
  'one-hot, doubled rows': '54fc1ca2c7035ef65faea787',
  'one-hot, tol 1e-10': '06109df837c04d4d4d89a643',
  'one-hot, maxIter 2': '574d3d92bc3e479b48dc6a11',
  'one-hot and continuous, l2 1': '41dbce55efd82a2f461f0f69',
  'one-hot and continuous, l2 0.01': 'db4220569bd217e7de91753f',
  'one-hot and continuous, l2 25': 'fb5746bdcf6ebfbafbbc190d',
  'one-hot and continuous, weights': '418ac586dad266a957cf190b',
  'one-hot and continuous, weights with zeros': 'c58bc7f9bcfc771419357cdf',
  'one-hot and continuous, warm start': '07b4c348754a47a1003d3853',
  'one-hot and continuous, relabelled, warm': '047bb3d1f9814244b323ff71',
  'one-hot and continuous, doubled rows': '3e1bcbad149b75ee21244de6',
  'one-hot and continuous, tol 1e-10': 'aad36fcdd11ede2582d407b3',
  'one-hot and continuous, maxIter 2': 'c6c742d4f9b0dce83785dc7e',
  'fixture, l2 1': '811ed0e7f01ac07c28b9b765',
  'fixture, l2 0.01': 'ae37daaa53004e47f792f63d',
  'fixture, l2 25': '9662e31e30e8e4740c7737f8',
  'fixture, weights': '57a2131b8a6de97d8d51a160',
  'fixture, weights with zeros': 'ef0cc91a5b9a066d8e707563',
  'fixture, warm start': 'ad001f8fc13029d9bbebb8cf',
  'fixture, relabelled, warm': '5e729393c0d65966bb1c7656',
  'fixture, doubled rows': '514cc5243b37f5f58d4a2020',
  'fixture, tol 1e-10': '811ed0e7f01ac07c28b9b765',
  'fixture, maxIter 2': '0d14f2f294ee6f58616b6542',
  'separable, l2 0': '49118239d2d82270cbf61b52',
  'separable, l2 1e-6': 'ba2adc66bcc52aafd9298b10',
};

describe('binary logistic regression: the same bytes as the earlier solver', () => {
  const got = cases();
  if (process.env.FB_PRINT_GOLDEN) console.log(JSON.stringify(got, null, 2));
  it.each(Object.keys(expected))('%s', (name) => {
    expect(got[name]).toBe(expected[name]);
  });
});
