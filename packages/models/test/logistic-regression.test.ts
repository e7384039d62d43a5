import {
  createDataset,
  DataError,
  type Dataset,
  defineSchema,
  InteropError,
  isDifferentiable,
  OptionsError,
} from '@fb/core';
import { describe, expect, it } from 'vitest';
import { FeatureEncoder } from '../src/encoder.js';
import { fitLogisticRegression, type LogisticRegression } from '../src/logistic-regression.js';
import { mixedData, mixedSchema, threeClassData, truth } from './fixtures.js';

const binary = mixedData(3000, 'lr-binary');
const multi = threeClassData(3000, 'lr-multi');

/**
 * Gradient of Σ wᵢ·(−log P(yᵢ|xᵢ)) + (l2/2)‖W‖² divided by Σ wᵢ, from the dense encoding and plain
 * formulas (independent of the fitting code's sparse loops). Returns its largest absolute component.
 */
function scaledGradientNorm(
  model: LogisticRegression,
  ds: Dataset,
  l2: number,
  weights?: Float64Array,
): number {
  const enc = model.encoder;
  const p = enc.encodedWidth;
  const z = enc.encode(ds.x, ds.n);
  const W = model.coefficients;
  const b = model.intercepts;
  const R = model.coefficientRows;
  const gW = new Float64Array(R * p);
  const gb = new Float64Array(R);
  let total = 0;
  for (let i = 0; i < ds.n; i++) {
    const wi = weights ? weights[i]! : 1;
    total += wi;
    const eta = Array.from({ length: R }, (_, r) => {
      let e = b[r]!;
      for (let c = 0; c < p; c++) e += W[r * p + c]! * z[i * p + c]!;
      return e;
    });
    // Residual per coefficient row: P(row's class) − [y = that class].
    let resid: number[];
    if (R === 1) resid = [1 / (1 + Math.exp(-eta[0]!)) - ds.y[i]!];
    else {
      const top = Math.max(...eta);
      const ex = eta.map((e) => Math.exp(e - top));
      const sum = ex.reduce((a, v) => a + v, 0);
      resid = ex.map((e, k) => e / sum - (k === ds.y[i] ? 1 : 0));
    }
    for (let r = 0; r < R; r++) {
      for (let c = 0; c < p; c++) gW[r * p + c]! += wi * resid[r]! * z[i * p + c]!;
      gb[r]! += wi * resid[r]!;
    }
  }
  let norm = 0;
  for (let k = 0; k < R * p; k++) norm = Math.max(norm, Math.abs(gW[k]! + l2 * W[k]!) / total);
  for (let r = 0; r < R; r++) norm = Math.max(norm, Math.abs(gb[r]!) / total);
  return norm;
}

describe('fitLogisticRegression: optimality', () => {
  for (const solver of ['newton', 'lbfgs'] as const) {
    for (const [name, ds] of [
      ['binary', binary],
      ['multinomial', multi],
    ] as const) {
      it(`${solver} reaches a stationary point (${name})`, () => {
        const tol = 1e-6;
        const model = fitLogisticRegression(ds, { solver, tol, l2: 0.5 });
        expect(model.converged).toBe(true);
        expect(model.solver).toBe(solver);
        expect(model.iterations).toBeGreaterThan(0);
        expect(scaledGradientNorm(model, ds, 0.5)).toBeLessThanOrEqual(tol * 1.0001);
      });
    }
  }

  it('the two solvers find the same solution at a tight tolerance', () => {
    for (const ds of [binary, multi]) {
      const a = fitLogisticRegression(ds, { solver: 'newton', tol: 1e-10 });
      const b = fitLogisticRegression(ds, { solver: 'lbfgs', tol: 1e-10, maxIter: 1000 });
      expect(b.converged).toBe(true);
      const ca = a.coefficients;
      const cb = b.coefficients;
      for (let k = 0; k < ca.length; k++) expect(Math.abs(ca[k]! - cb[k]!)).toBeLessThan(1e-5);
    }
  });

  it('reports non-convergence when the iteration limit is hit', () => {
    const model = fitLogisticRegression(binary, { solver: 'lbfgs', maxIter: 1 });
    expect(model.iterations).toBe(1);
    expect(model.converged).toBe(false);
    expect(model.gradientNorm).toBeGreaterThan(1e-6);
  });
});

describe('fitLogisticRegression: hand-computed 1-D cases', () => {
  const schema = defineSchema({
    attributes: [{ name: 'x', kind: 'continuous', protected: true, min: -1, max: 1 }],
    outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
  });
  // x = −1: three 0s and one 1; x = +1: three 1s and one 0. Standardised x is ±1 (mean 0, sd 1), the
  // intercept is 0 by symmetry and the slope w solves 8σ(w) − 6 + l2·w = 0.
  const symmetric = createDataset({ schema, x: [-1, -1, -1, -1, 1, 1, 1, 1], y: [0, 0, 0, 1, 1, 1, 1, 0] });
  const sigma = (t: number) => 1 / (1 + Math.exp(-t));

  it('without penalty the slope is ln 3 (P = 3/4 at each x)', () => {
    const model = fitLogisticRegression(symmetric, { l2: 0, tol: 1e-12 });
    expect(model.coefficients[0]).toBeCloseTo(Math.log(3), 10);
    expect(model.intercepts[0]).toBeCloseTo(0, 10);
    const proba = model.predictProba(Float64Array.of(-1, 1));
    expect(Array.from(proba)).toEqual([0.75, 0.25, 0.25, 0.75].map((v) => expect.closeTo(v, 10)));
  });

  it('with l2 = 2 the slope solves 8σ(w) − 6 + 2w = 0', () => {
    let lo = 0;
    let hi = 2;
    for (let k = 0; k < 200; k++) {
      const mid = (lo + hi) / 2;
      if (8 * sigma(mid) - 6 + 2 * mid > 0) hi = mid;
      else lo = mid;
    }
    const model = fitLogisticRegression(symmetric, { l2: 2, tol: 1e-12 });
    expect(model.coefficients[0]).toBeCloseTo(lo, 10);
    expect(model.description).toBe('logistic-regression(l2=2)');
  });

  it('a huge penalty leaves only the intercept: probabilities equal the class prior', () => {
    const skewed = createDataset({ schema, x: [-1, -1, -1, 1, 1, 1, 1, 1], y: [1, 1, 0, 1, 1, 1, 1, 0] });
    const model = fitLogisticRegression(skewed, { l2: 1e12 });
    expect(Math.abs(model.coefficients[0]!)).toBeLessThan(1e-9);
    expect(model.intercepts[0]).toBeCloseTo(Math.log(3), 9);
    const proba = model.predictProba(Float64Array.of(-1, 0, 1));
    for (let i = 0; i < 3; i++) expect(proba[2 * i + 1]).toBeCloseTo(0.75, 9);
  });
});

describe('fitLogisticRegression: recovery and probabilities', () => {
  // Tolerances are about three standard errors of each estimate at this sample size.
  it('recovers the coefficients of the generating model from 20,000 rows', () => {
    const ds = mixedData(20000, 'lr-recovery');
    const model = fitLogisticRegression(ds);
    expect(model.converged).toBe(true);
    const w = model.coefficients;
    const enc = model.encoder;
    // Back to raw units: a standardised column's coefficient times its slope 1/sd.
    const raw = (j: number) => w[enc.offset[j]!]! * enc.slope[j]!;
    expect(Math.abs(raw(0) - truth.income)).toBeLessThan(0.05);
    expect(Math.abs(raw(2) - truth.level)).toBeLessThan(0.04);
    expect(Math.abs(raw(3) - truth.score)).toBeLessThan(0.1);
    // One-hot levels are identified up to a shift: compare contrasts with level "a".
    const g = enc.offset[1]!;
    expect(Math.abs(w[g + 1]! - w[g]! - (truth.group[1]! - truth.group[0]!))).toBeLessThan(0.15);
    expect(Math.abs(w[g + 2]! - w[g]! - (truth.group[2]! - truth.group[0]!))).toBeLessThan(0.15);
    let intercept = model.intercepts[0]! + w[g]!;
    for (const j of [0, 2, 3]) {
      const a = enc.attributes[j]!;
      if (a.encoding === 'standard') intercept -= raw(j) * a.mean;
    }
    expect(Math.abs(intercept - truth.intercept)).toBeLessThan(0.15);
  });

  it('predictProba rows are probabilities summing to 1 and predict is their argmax', () => {
    for (const ds of [binary, multi]) {
      const model = fitLogisticRegression(ds);
      const proba = model.predictProba(ds.x);
      const pred = model.predict(ds.x);
      const K = model.nClasses;
      expect(proba.length).toBe(ds.n * K);
      for (let i = 0; i < ds.n; i++) {
        let sum = 0;
        let best = 0;
        for (let k = 0; k < K; k++) {
          const v = proba[i * K + k]!;
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1);
          sum += v;
          if (v > proba[i * K + best]!) best = k;
        }
        expect(sum).toBeCloseTo(1, 12);
        expect(pred[i]).toBe(best);
      }
    }
  });

  it('a three-class model recovers the income bands', () => {
    const model = fitLogisticRegression(multi);
    expect(model.nClasses).toBe(3);
    expect(model.coefficientRows).toBe(3);
    // Walk income across [−6, 6] with the other attributes fixed and find where the prediction changes.
    const grid = 1201;
    const x = new Float64Array(grid * 4);
    for (let i = 0; i < grid; i++) x.set([-6 + (12 * i) / (grid - 1), 1, 2, 0], i * 4);
    const pred = model.predict(x);
    const changes: number[] = [];
    for (let i = 1; i < grid; i++) if (pred[i] !== pred[i - 1]) changes.push(x[i * 4]!);
    expect(pred[0]).toBe(0);
    expect(pred[grid - 1]).toBe(2);
    expect(changes).toHaveLength(2);
    expect(changes[0]).toBeCloseTo(-2, 0);
    expect(changes[1]).toBeCloseTo(2, 0);
  });
});

describe('scoreGradient', () => {
  const h = 1e-5;

  function checkAgainstDifferences(
    model: LogisticRegression,
    x: Float64Array,
    attrs: number[],
    classIndex: number,
  ) {
    const d = model.nFeatures;
    const K = model.nClasses;
    const n = x.length / d;
    const { score, gradient } = model.scoreGradient(x);
    const proba = model.predictProba(x);
    for (let i = 0; i < n; i++) {
      expect(score[i]).toBeCloseTo(proba[i * K + classIndex]!, 14);
      for (const j of attrs) {
        const up = x.slice(i * d, i * d + d);
        const down = up.slice();
        up[j]! += h;
        down[j]! -= h;
        const fd = (model.predictProba(up)[classIndex]! - model.predictProba(down)[classIndex]!) / (2 * h);
        expect(Math.abs(gradient[i * d + j]! - fd)).toBeLessThan(1e-8 + 1e-6 * Math.abs(fd));
      }
    }
    return gradient;
  }

  it('matches central differences on numeric attributes and is 0 on one-hot codes (binary)', () => {
    const model = fitLogisticRegression(binary);
    expect(isDifferentiable(model)).toBe(true);
    const x = binary.x.slice(0, 40 * 4);
    const gradient = checkAgainstDifferences(model, x, [0, 2, 3], 1);
    for (let i = 0; i < 40; i++) expect(gradient[i * 4 + 1]).toBe(0);
  });

  it('differentiates through categorical codes with categorical: ordinal', () => {
    const model = fitLogisticRegression(binary, { categorical: 'ordinal' });
    expect(model.description).toBe('logistic-regression(l2=1,categorical=ordinal)');
    const gradient = checkAgainstDifferences(model, binary.x.slice(0, 40 * 4), [0, 1, 2, 3], 1);
    expect(gradient.some((v, k) => k % 4 === 1 && v !== 0)).toBe(true);
  });

  it('gives the favourable-class probability and its gradient for a multinomial model', () => {
    const model = fitLogisticRegression(multi);
    checkAgainstDifferences(model, multi.x.slice(0, 40 * 4), [0, 2, 3], multi.schema.outcome.favorable);
  });
});

describe('sample weights', () => {
  it('integer weights k behave like repeating each row k times', () => {
    const ds = mixedData(400, 'lr-weights');
    const k = Int32Array.from({ length: ds.n }, (_, i) => (i * 7) % 4); // 0..3, zeros included
    const weights = Float64Array.from(k);
    const rows: number[] = [];
    for (let i = 0; i < ds.n; i++) for (let r = 0; r < k[i]!; r++) rows.push(i);
    const x = new Float64Array(rows.length * 4);
    const y = new Int32Array(rows.length);
    rows.forEach((i, r) => {
      x.set(ds.x.subarray(i * 4, i * 4 + 4), r * 4);
      y[r] = ds.y[i]!;
    });
    const repeated = createDataset({ schema: ds.schema, x, y });
    for (const solver of ['newton', 'lbfgs'] as const) {
      const a = fitLogisticRegression(ds, { tol: 1e-11, solver, maxIter: 1000 }, weights);
      const b = fitLogisticRegression(repeated, { tol: 1e-11, solver, maxIter: 1000 });
      expect(a.encoder.attributes[0]).toMatchObject({
        mean: expect.closeTo((b.encoder.attributes[0] as { mean: number }).mean, 12),
      });
      const ca = a.coefficients;
      const cb = b.coefficients;
      for (let c = 0; c < ca.length; c++) expect(ca[c]).toBeCloseTo(cb[c]!, 7);
      expect(a.intercepts[0]).toBeCloseTo(b.intercepts[0]!, 7);
    }
  });
});

describe('serialisation', () => {
  it('toJSON / fromJSON reproduces predictions exactly', () => {
    for (const [ds, options] of [
      [binary, {}],
      [multi, { categorical: 'ordinal' as const, l2: 0.25 }],
    ] as const) {
      const model = fitLogisticRegression(ds, options);
      const text = JSON.stringify(model);
      const back = (model.constructor as typeof LogisticRegression).fromJSON(JSON.parse(text));
      expect(back.description).toBe(model.description);
      expect(back.predict(ds.x)).toEqual(model.predict(ds.x));
      expect(back.predictProba(ds.x)).toEqual(model.predictProba(ds.x));
      expect(back.scoreGradient(ds.x)).toEqual(model.scoreGradient(ds.x));
      expect(back.converged).toBe(model.converged);
      expect(back.iterations).toBe(model.iterations);
    }
  });

  it('rejects a damaged stored model', () => {
    const json = fitLogisticRegression(binary).toJSON();
    const Model = fitLogisticRegression(binary).constructor as typeof LogisticRegression;
    expect(() => Model.fromJSON({ ...json, coefficients: json.coefficients.slice(1) })).toThrow(InteropError);
    expect(() => Model.fromJSON({ ...json, format: 'other' })).toThrow(InteropError);
    expect(() => Model.fromJSON(null)).toThrow(InteropError);
  });
});

describe('errors', () => {
  it.each([
    [{ l2: -1 }, 'OPTIONS_INVALID'],
    [{ tol: 0 }, 'OPTIONS_INVALID'],
    [{ maxIter: 0 }, 'OPTIONS_INVALID'],
    [{ maxIter: 2.5 }, 'OPTIONS_INVALID'],
    [{ solver: 'sgd' }, 'OPTIONS_INVALID'],
    [{ categorical: 'binary' }, 'OPTIONS_INVALID'],
    [{ learningRate: 0.1 }, 'OPTIONS_UNKNOWN'],
  ])('rejects options %j with %s', (options, code) => {
    const run = () => fitLogisticRegression(binary, options as never);
    expect(run).toThrow(OptionsError);
    expect(run).toThrow(expect.objectContaining({ code }));
  });

  it('rejects unusable data with DataError', () => {
    const single = createDataset({ schema: mixedSchema, x: binary.x, y: new Int32Array(binary.n) });
    expect(() => fitLogisticRegression(single)).toThrow(
      expect.objectContaining({ code: 'DATA_SINGLE_CLASS' }),
    );
    const x = binary.x.slice();
    x[5] = Number.NaN;
    const nan = { ...binary, x };
    expect(() => fitLogisticRegression(nan)).toThrow(DataError);
    expect(() => fitLogisticRegression(nan)).toThrow(expect.objectContaining({ code: 'DATA_NOT_FINITE' }));
    const absent = createDataset({
      schema: multi.schema,
      x: multi.x,
      y: multi.y.map((v) => (v === 2 ? 1 : v)),
    });
    expect(() => fitLogisticRegression(absent)).toThrow(
      expect.objectContaining({ code: 'DATA_EMPTY_GROUP' }),
    );
  });

  it('rejects bad sample weights with DataError', () => {
    const fit = (w: Float64Array) => () => fitLogisticRegression(binary, {}, w);
    expect(fit(new Float64Array(3))).toThrow(expect.objectContaining({ code: 'DATA_SHAPE' }));
    const negative = new Float64Array(binary.n).fill(1);
    negative[0] = -2;
    expect(fit(negative)).toThrow(expect.objectContaining({ code: 'DATA_OUT_OF_DOMAIN' }));
    const nanWeight = new Float64Array(binary.n).fill(1);
    nanWeight[1] = Number.NaN;
    expect(fit(nanWeight)).toThrow(expect.objectContaining({ code: 'DATA_NOT_FINITE' }));
    const oneClass = Float64Array.from(binary.y, (v) => (v === 1 ? 0 : 1));
    expect(fit(oneClass)).toThrow(expect.objectContaining({ code: 'DATA_SINGLE_CLASS' }));
  });

  it('rejects a batch of the wrong width', () => {
    const model = fitLogisticRegression(binary);
    expect(() => model.predict(new Float64Array(6))).toThrow(expect.objectContaining({ code: 'DATA_SHAPE' }));
  });
});

describe('FeatureEncoder reuse', () => {
  it('the model encoder equals an encoder fitted on the same data', () => {
    const model = fitLogisticRegression(binary);
    const enc = FeatureEncoder.fit(binary.schema, binary.x, binary.n);
    expect(model.encoder.toJSON()).toEqual(enc.toJSON());
  });
});

describe('warm start', () => {
  it('reaches the cold fit’s optimum from another fit’s coefficients, in fewer Newton steps', () => {
    // A resample-like refit: the labels flipped on one row in a hundred, the same schema.
    const flipped = createDataset({
      schema: binary.schema,
      x: binary.x,
      y: Int32Array.from(binary.y, (v, i) => (i % 100 === 3 ? 1 - v : v)),
    });
    const cases = [
      { ds: flipped, from: fitLogisticRegression(binary, { tol: 1e-10 }), l2: 1 },
      { ds: multi, from: fitLogisticRegression(multi, { l2: 2, tol: 1e-10 }), l2: 0.5 },
    ];
    for (const { ds, from, l2 } of cases) {
      const cold = fitLogisticRegression(ds, { l2, tol: 1e-10 });
      const warm = fitLogisticRegression(ds, { l2, tol: 1e-10 }, undefined, from);
      expect(scaledGradientNorm(warm, ds, l2)).toBeLessThan(1e-9);
      const a = warm.coefficients;
      const b = cold.coefficients;
      for (let c = 0; c < a.length; c++) expect(a[c]).toBeCloseTo(b[c]!, 7);
      expect(warm.iterations).toBeLessThan(cold.iterations);
    }
  });

  it('rejects a model of another shape', () => {
    const other = fitLogisticRegression(multi, {});
    expect(() => fitLogisticRegression(binary, {}, undefined, other)).toThrow(DataError);
  });
});
