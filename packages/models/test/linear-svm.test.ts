import { Rng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { solveHingeDual } from '../src/dual-cd.js';
import {
  arraysDesign,
  fitLinearSvm,
  fitLinearSvmArrays,
  fitLinearSvmArraysAsync,
  LinearSvm,
} from '../src/linear-svm.js';
import { fitLogisticRegression } from '../src/logistic-regression.js';
import { accuracy } from '../src/metrics.js';
import { mixedData, threeClassData } from './fixtures.js';

/** Primal objective ½‖w‖² + ½b² + Σ cᵢ·hinge. */
function primal(
  x: Float64Array,
  d: number,
  y: Int32Array,
  w: ArrayLike<number>,
  b: number,
  c: number[],
): number {
  let v = 0.5 * b * b;
  for (let j = 0; j < d; j++) v += 0.5 * w[j]! * w[j]!;
  for (let i = 0; i < y.length; i++) {
    let f = b;
    for (let j = 0; j < d; j++) f += w[j]! * x[i * d + j]!;
    v += c[i]! * Math.max(0, 1 - (y[i] === 1 ? 1 : -1) * f);
  }
  return v;
}

function cloud(n: number, seed: string): { x: Float64Array; y: Int32Array } {
  const rng = Rng.create(seed);
  const x = new Float64Array(n * 3);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const a = rng.normal();
    const b = rng.normal();
    const c = rng.normal();
    x.set([a, b, c], i * 3);
    y[i] = 0.8 * a - 1.5 * b + 0.3 + rng.normal(0, 0.7) > 0 ? 1 : 0;
  }
  return { x, y };
}

describe('fitLinearSvmArrays', () => {
  it('finds the hand-computed maximum-margin boundary x₁ = 2', () => {
    // Class 0 at x₁ = 1, class 1 at x₁ = 3 (x₂ varies): with the bias penalised too, the optimum of
    // ½(w₁² + w₂² + b²) under 3w₁ + b ≥ 1 and -(w₁ + b) ≥ 1 is w = (1, 0), b = -2.
    const x = Float64Array.of(1, 0, 1, 1, 1, -1, 3, 0, 3, 1, 3, -1);
    const y = Int32Array.of(0, 0, 0, 1, 1, 1);
    const svm = fitLinearSvmArrays(x, 2, y, { c: 1000, tol: 1e-10 });
    expect(svm.converged).toBe(true);
    expect(svm.weights[0]).toBeCloseTo(1, 8);
    expect(svm.weights[1]).toBeCloseTo(0, 8);
    expect(svm.bias).toBeCloseTo(-2, 8);
    expect(Array.from(svm.decision(Float64Array.of(2, 5, 2.5, 0)))).toEqual([
      expect.closeTo(0, 8),
      expect.closeTo(0.5, 8),
    ]);
  });

  it('reaches the minimum of the primal objective (no perturbation improves it)', () => {
    const { x, y } = cloud(400, 'svm-primal');
    const c = 0.5;
    const svm = fitLinearSvmArrays(x, 3, y, { c, tol: 1e-8 });
    const costs = new Array(400).fill(c);
    const best = primal(x, 3, y, svm.weights, svm.bias, costs);
    const rng = Rng.create('perturb');
    for (let t = 0; t < 100; t++) {
      const w = Array.from(svm.weights, (v) => v + rng.normal(0, 1e-3));
      const b = svm.bias + rng.normal(0, 1e-3);
      expect(primal(x, 3, y, w, b, costs)).toBeGreaterThanOrEqual(best - 1e-6);
    }
  });

  it('async: stops after the pass where `between` says so, as the same fit cut at that many passes', async () => {
    const { x, y } = cloud(400, 'svm-stop');
    const options = { c: 0.5, tol: 1e-12, maxIter: 1000, seed: 3 };
    let asked = 0;
    const stopped = await fitLinearSvmArraysAsync(x, 3, y, options, undefined, async () => ++asked >= 4);
    expect(asked).toBe(4);
    expect(stopped.iterations).toBe(4);
    expect(stopped.stopped).toBe(true);
    expect(stopped.converged).toBe(false);
    const cut = fitLinearSvmArrays(x, 3, y, { ...options, maxIter: 4 });
    expect(cut.stopped).toBe(false);
    expect(Array.from(stopped.weights)).toEqual(Array.from(cut.weights));
    expect(stopped.bias).toBe(cut.bias);
    // Never stopping is the synchronous fit.
    const full = fitLinearSvmArrays(x, 3, y, options);
    const never = await fitLinearSvmArraysAsync(x, 3, y, options, undefined, async () => false);
    expect(full.converged).toBe(true);
    expect(never.stopped).toBe(false);
    expect(never.iterations).toBe(full.iterations);
    expect(Array.from(never.weights)).toEqual(Array.from(full.weights));
    expect(never.bias).toBe(full.bias);
  });

  it('async: lets the event loop run between passes', async () => {
    // Queued before the fit starts, this callback runs only once the fit yields to the event loop.
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    const { x, y } = cloud(400, 'svm-yield');
    const fit = await fitLinearSvmArraysAsync(
      x,
      3,
      y,
      { c: 0.5, tol: 1e-12, maxIter: 1000, seed: 1 },
      undefined,
      () => new Promise<boolean>((resolve) => setImmediate(() => resolve(ran))),
    );
    expect(fit.iterations).toBe(1);
    expect(fit.stopped).toBe(true);
  });

  it('integer sample weights equal repeated rows', () => {
    const { x, y } = cloud(150, 'svm-weights');
    const k = Array.from({ length: 150 }, (_, i) => i % 3);
    const rows = k.flatMap((m, i) => Array<number>(m).fill(i));
    const xr = new Float64Array(rows.length * 3);
    rows.forEach((i, r) => {
      xr.set(x.subarray(i * 3, i * 3 + 3), r * 3);
    });
    const yr = Int32Array.from(rows, (i) => y[i]!);
    const a = fitLinearSvmArrays(x, 3, y, { tol: 1e-9, maxIter: 100000 }, Float64Array.from(k));
    const b = fitLinearSvmArrays(xr, 3, yr, { tol: 1e-9, maxIter: 100000 });
    expect(a.converged && b.converged).toBe(true);
    for (let j = 0; j < 3; j++) expect(a.weights[j]).toBeCloseTo(b.weights[j]!, 5);
    expect(a.bias).toBeCloseTo(b.bias, 5);
  });

  it('squared hinge: the hand-computed optimum w = 0.8 where the hinge gives w = 1', () => {
    // x = +1 (class 1) and x = -1 (class 0), C = 1, b = 0 by symmetry.
    // Squared hinge: ½w² + 2(1 - w)² is least at w - 4(1 - w) = 0, w = 0.8.
    // Hinge: ½w² + 2(1 - w) falls until the kink at w = 1.
    const x = Float64Array.of(1, -1);
    const y = Int32Array.of(1, 0);
    const squared = fitLinearSvmArrays(x, 1, y, { loss: 'squared-hinge', tol: 1e-12 });
    expect(squared.converged).toBe(true);
    expect(squared.weights[0]).toBeCloseTo(0.8, 9);
    expect(squared.bias).toBeCloseTo(0, 9);
    const hinge = fitLinearSvmArrays(x, 1, y, { tol: 1e-12 });
    expect(hinge.weights[0]).toBeCloseTo(1, 9);
  });

  it('squared hinge: reaches the optimum that gradient descent on the primal finds, weights as repeated rows', () => {
    const { x, y } = cloud(60, 'svm-squared');
    const weights = Float64Array.from({ length: 60 }, (_, i) => 1 + (i % 3));
    const c = 0.3;
    const fit = fitLinearSvmArrays(
      x,
      3,
      y,
      { c, loss: 'squared-hinge', tol: 1e-10, maxIter: 100000 },
      weights,
    );
    expect(fit.converged).toBe(true);
    // The primal ½‖w‖² + ½b² + Σ cᵢ max(0, 1 - sᵢ fᵢ)² is smooth and strongly convex: plain gradient
    // descent from zero converges to its unique minimum.
    const v = new Float64Array(4); // w₁..w₃, b
    for (let step = 0; step < 20000; step++) {
      const g = Float64Array.from(v);
      for (let i = 0; i < 60; i++) {
        const s = y[i] === 1 ? 1 : -1;
        let f = v[3]!;
        for (let j = 0; j < 3; j++) f += v[j]! * x[i * 3 + j]!;
        const slack = 1 - s * f;
        if (slack <= 0) continue;
        const k = -2 * c * weights[i]! * slack * s;
        for (let j = 0; j < 3; j++) g[j]! += k * x[i * 3 + j]!;
        g[3]! += k;
      }
      for (let j = 0; j < 4; j++) v[j]! -= 0.002 * g[j]!;
    }
    for (let j = 0; j < 3; j++) expect(fit.weights[j]).toBeCloseTo(v[j]!, 5);
    expect(fit.bias).toBeCloseTo(v[3]!, 5);
    // The hinge's optimum is another one: the option changes the objective.
    const hinge = fitLinearSvmArrays(x, 3, y, { c, tol: 1e-10, maxIter: 100000 }, weights);
    expect(Math.abs(hinge.weights[0]! - v[0]!)).toBeGreaterThan(1e-3);
  });

  it('skips zero entries: the same solve, value for value, as every entry of every row', () => {
    // Latent vectors as LIMI's: dense noise and a one-hot block (most entries 0), squared hinge, weights.
    const rng = Rng.create('svm-sparse');
    const n = 400;
    const d = 6 + 12;
    const x = new Float64Array(n * d);
    const y = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      let f = 0;
      for (let j = 0; j < 6; j++) f += (j - 2.5) * (x[i * d + j] = rng.normal());
      const hot = rng.int(0, 11);
      x[i * d + 6 + hot] = 1;
      y[i] = f + hot / 4 - 1.5 + rng.normal() > 0 ? 1 : 0;
    }
    const weights = Float64Array.from({ length: n }, (_, i) => 1 + (i % 4));
    const design = arraysDesign(x, n, d);
    expect(design.index.length).toBe(n * 7);
    expect(Array.from(design.start!.subarray(0, 3))).toEqual([0, 7, 14]);
    for (const loss of ['hinge', 'squared-hinge'] as const) {
      const options = { c: 0.7, loss, tol: 1e-6, maxIter: 5000, seed: 3 };
      const fit = fitLinearSvmArrays(x, d, y, options, weights);
      // The full rows, each of its d entries in column order, zeros included.
      const full = solveHingeDual({
        design: {
          index: Int32Array.from({ length: n * d }, (_, k) => k % d),
          value: x,
          n,
          perRow: d,
          width: d,
        },
        loss,
        sign: Int8Array.from(y, (v) => (v === 1 ? 1 : -1)),
        cost: Float64Array.from(weights, (w) => 0.7 * w),
        tol: 1e-6,
        maxIter: 5000,
        rng: Rng.create(3).fork('linear-svm'),
      });
      expect(fit.iterations).toBe(full.iterations);
      expect(fit.converged).toBe(full.converged);
      expect(fit.bias).toBe(full.bias);
      expect(Array.from(fit.weights)).toEqual(Array.from(full.weights));
    }
  });

  it('rejects bad input with typed errors', () => {
    const { x, y } = cloud(20, 'svm-bad');
    expect(() =>
      fitLinearSvmArrays(
        x,
        3,
        Int32Array.from(y, () => 1),
      ),
    ).toThrow(expect.objectContaining({ code: 'DATA_SINGLE_CLASS' }));
    expect(() =>
      fitLinearSvmArrays(
        x,
        3,
        Int32Array.from(y, (v) => v * 2),
      ),
    ).toThrow(expect.objectContaining({ code: 'DATA_OUT_OF_DOMAIN' }));
    expect(() => fitLinearSvmArrays(x, 4, y)).toThrow(expect.objectContaining({ code: 'DATA_SHAPE' }));
    const nan = x.slice();
    nan[4] = Number.NaN;
    expect(() => fitLinearSvmArrays(nan, 3, y)).toThrow(expect.objectContaining({ code: 'DATA_NOT_FINITE' }));
    expect(() => fitLinearSvmArrays(x, 3, y, { C: 1 } as never)).toThrow(
      expect.objectContaining({ code: 'OPTIONS_UNKNOWN' }),
    );
  });
});

describe('fitLinearSvm', () => {
  const train = mixedData(2000, 'svm-train');
  const test = mixedData(2000, 'svm-test');
  const svm = fitLinearSvm(train);

  it('classifies about as well as logistic regression, by the sign of its decision value', () => {
    expect(accuracy(svm, test)).toBeGreaterThan(accuracy(fitLogisticRegression(train), test) - 0.02);
    const f = svm.decisionFunction(test.x);
    const pred = svm.predict(test.x);
    for (let i = 0; i < test.n; i++) expect(pred[i]).toBe(f[i]! > 0 ? 1 : 0);
  });

  it('Platt probabilities increase with the decision value and are calibrated on average', () => {
    const f = svm.decisionFunction(test.x);
    const proba = svm.predictProba(test.x);
    expect(svm.platt[0]!.a).toBeLessThan(0);
    const order = Array.from({ length: test.n }, (_, i) => i).sort((a, b) => f[a]! - f[b]!);
    for (let r = 1; r < order.length; r++) {
      expect(proba[2 * order[r]! + 1]!).toBeGreaterThanOrEqual(proba[2 * order[r - 1]! + 1]!);
    }
    const meanP = proba.reduce((s, v, c) => s + (c % 2 === 1 ? v : 0), 0) / test.n;
    const rate = test.y.reduce((s, v) => s + v, 0) / test.n;
    expect(Math.abs(meanP - rate)).toBeLessThan(0.03);
  });

  it('scoreGradient matches central differences', () => {
    const rows = test.x.slice(0, 30 * 4);
    const { score, gradient } = svm.scoreGradient(rows);
    const proba = svm.predictProba(rows);
    const h = 1e-6;
    for (let i = 0; i < 30; i++) {
      expect(score[i]).toBeCloseTo(proba[2 * i + 1]!, 14);
      for (const j of [0, 2, 3]) {
        const up = rows.slice(i * 4, i * 4 + 4);
        const down = up.slice();
        up[j]! += h;
        down[j]! -= h;
        const fd = (svm.predictProba(up)[1]! - svm.predictProba(down)[1]!) / (2 * h);
        expect(Math.abs(gradient[i * 4 + j]! - fd)).toBeLessThan(1e-7);
      }
    }
  });

  it('handles three classes one-vs-rest, with gradients of the favourable probability', () => {
    const multi = threeClassData(1500, 'svm-multi');
    const m = fitLinearSvm(multi, { plattFolds: 3 });
    expect(m.bias).toHaveLength(3);
    expect(accuracy(m, multi)).toBeGreaterThan(0.75);
    const rows = multi.x.slice(0, 10 * 4);
    const { gradient } = m.scoreGradient(rows);
    const h = 1e-6;
    for (let i = 0; i < 10; i++) {
      const up = rows.slice(i * 4, i * 4 + 4);
      const down = up.slice();
      up[0]! += h;
      down[0]! -= h;
      const fd = (m.predictProba(up)[2]! - m.predictProba(down)[2]!) / (2 * h);
      expect(Math.abs(gradient[i * 4]! - fd)).toBeLessThan(1e-7);
    }
  });

  it('is deterministic and round-trips through JSON', () => {
    const again = fitLinearSvm(train);
    expect(JSON.stringify(again)).toBe(JSON.stringify(svm));
    const back = LinearSvm.fromJSON(JSON.parse(JSON.stringify(svm)));
    expect(back.predictProba(test.x)).toEqual(svm.predictProba(test.x));
    expect(back.description).toBe('linear-svm(c=1)');
  });
});
