import { isDifferentiable, OptionsError } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { fitLogisticRegression } from '../src/logistic-regression.js';
import { accuracy } from '../src/metrics.js';
import { fitMlp, Mlp } from '../src/mlp.js';
import { mixedData, threeClassData } from './fixtures.js';

const train = mixedData(1500, 'mlp-train');
const test = mixedData(1500, 'mlp-test');
const small = { layers: [16, 8], epochs: 15, learningRate: 0.01, seed: 5 };

/** Forward pass from the exported weights, written out independently (dense layers, relu or tanh, softmax). */
function forward(model: Mlp, x: Float64Array): Float64Array {
  const act = model.options.activation === 'tanh' ? Math.tanh : (v: number) => Math.max(0, v);
  const w = model.weights;
  const d = model.nFeatures;
  const n = x.length / d;
  const z = model.encoder.encode(x, n);
  let width = model.encoder.encodedWidth;
  let h = z;
  for (let layer = 0; layer < w.length / 2; layer++) {
    const kernel = w[2 * layer]!;
    const bias = w[2 * layer + 1]!;
    const units = bias.length;
    const out = new Float64Array(n * units);
    for (let i = 0; i < n; i++) {
      for (let u = 0; u < units; u++) {
        let s = bias[u]!;
        for (let c = 0; c < width; c++) s += h[i * width + c]! * kernel[c * units + u]!;
        out[i * units + u] = layer < w.length / 2 - 1 ? act(s) : s;
      }
    }
    h = out;
    width = units;
  }
  for (let i = 0; i < n; i++) {
    let top = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < width; k++) top = Math.max(top, h[i * width + k]!);
    let sum = 0;
    for (let k = 0; k < width; k++) sum += h[i * width + k] = Math.exp(h[i * width + k]! - top);
    for (let k = 0; k < width; k++) h[i * width + k] = h[i * width + k]! / sum;
  }
  return h;
}

describe('fitMlp', async () => {
  const model = await fitMlp(train, small);

  it('learns the planted model', async () => {
    const lr = fitLogisticRegression(train);
    expect(accuracy(model, test)).toBeGreaterThan(accuracy(lr, test) - 0.03);
    expect(model.description).toBe('mlp(16-8,relu)');
  });

  it('predictProba matches an independent float64 forward pass of its weights', () => {
    const rows = test.x.subarray(0, 200 * 4);
    const proba = model.predictProba(rows);
    const ref = forward(model, rows);
    for (let c = 0; c < proba.length; c++) expect(Math.abs(proba[c]! - ref[c]!)).toBeLessThan(1e-12);
  });

  it('scoreGradient matches central differences of the float64 forward pass', () => {
    expect(isDifferentiable(model)).toBe(true);
    const rows = test.x.slice(0, 60 * 4);
    const { score, gradient } = model.scoreGradient(rows);
    const h = 1e-6;
    for (let i = 0; i < 60; i++) {
      expect(Math.abs(score[i]! - forward(model, rows.subarray(i * 4, i * 4 + 4))[1]!)).toBeLessThan(1e-12);
      for (const j of [0, 2, 3]) {
        const up = rows.slice(i * 4, i * 4 + 4);
        const down = up.slice();
        up[j]! += h;
        down[j]! -= h;
        const fd = (forward(model, up)[1]! - forward(model, down)[1]!) / (2 * h);
        expect(Math.abs(gradient[i * 4 + j]! - fd)).toBeLessThan(1e-7 + 1e-6 * Math.abs(fd));
      }
      expect(Math.abs(gradient[i * 4 + 1]!)).toBe(0);
    }
  });

  it('same seed gives bit-identical weights and predictions; another seed does not', async () => {
    const again = await fitMlp(train, small);
    const a = model.weights;
    const b = again.weights;
    for (let l = 0; l < a.length; l++) expect(b[l]).toEqual(a[l]);
    expect(again.predictProba(test.x)).toEqual(model.predictProba(test.x));
    const other = await fitMlp(train, { ...small, seed: 6, epochs: 1 });
    expect(other.weights[0]).not.toEqual(a[0]);
  });

  it('trains the tanh variant on the same weights it predicts with', async () => {
    const m = await fitMlp(train, { layers: [6, 4], activation: 'tanh', epochs: 2 });
    const rows = test.x.subarray(0, 100 * 4);
    const proba = m.predictProba(rows);
    const ref = forward(m, rows);
    for (let c = 0; c < proba.length; c++) expect(Math.abs(proba[c]! - ref[c]!)).toBeLessThan(1e-12);
    expect(m.training.trainLoss[1]).toBeLessThan(m.training.trainLoss[0]!);
  });

  it('early stopping keeps the best validation epoch', async () => {
    const m = await fitMlp(train, { layers: [8], epochs: 200, patience: 2, learningRate: 0.05, seed: 1 });
    const { epochs, bestEpoch, validationLoss } = m.training;
    expect(epochs).toBeLessThan(200);
    expect(epochs - bestEpoch).toBe(2);
    expect(Math.min(...validationLoss)).toBe(validationLoss[bestEpoch - 1]);
  });

  it('round-trips through JSON with identical predictions, multinomial included', async () => {
    const multi = threeClassData(600, 'mlp-json');
    const m = await fitMlp(multi, { layers: [8], epochs: 3, categorical: 'ordinal' });
    const back = await Mlp.fromJSON(JSON.parse(JSON.stringify(m)));
    expect(back.predictProba(multi.x)).toEqual(m.predictProba(multi.x));
    expect(back.scoreGradient(multi.x)).toEqual(m.scoreGradient(multi.x));
  });

  it('loads a version-1 file (float32 weights) and predicts from those weights', async () => {
    const json = JSON.parse(JSON.stringify(model.toJSON()));
    const f32 = model.weights.map((w) => Float32Array.from(w));
    const v1 = {
      ...json,
      version: 1,
      backend: 'wasm',
      weights: f32.map((w) => ({ length: w.length, data: Buffer.from(w.buffer).toString('base64') })),
    };
    const old = await Mlp.fromJSON(v1);
    for (const [l, w] of old.weights.entries()) expect(w).toEqual(Float64Array.from(f32[l]!));
    const rows = test.x.subarray(0, 50 * 4);
    const ref = forward(old, rows);
    const proba = old.predictProba(rows);
    for (let c = 0; c < proba.length; c++) expect(Math.abs(proba[c]! - ref[c]!)).toBeLessThan(1e-12);
    await expect(Mlp.fromJSON({ ...json, version: 3 })).rejects.toThrow(
      expect.objectContaining({ code: 'INTEROP_PARSE' }),
    );
    await expect(Mlp.fromJSON({ ...json, weights: json.weights.slice(1) })).rejects.toThrow(
      expect.objectContaining({ code: 'INTEROP_PARSE' }),
    );
  });

  it('reports the mean cross-entropy as training loss', async () => {
    // With a negligible step the network barely moves, so the first epoch's loss is its cross-entropy.
    const m = await fitMlp(train, {
      layers: [4],
      epochs: 1,
      learningRate: 1e-12,
      earlyStopping: false,
      seed: 3,
    });
    const p = m.predictProba(train.x);
    let ce = 0;
    for (let i = 0; i < train.n; i++) ce -= Math.log(p[i * 2 + train.y[i]!]!);
    expect(m.training.trainLoss[0]).toBeCloseTo(ce / train.n, 6);
  });

  it('rejects bad options and data with typed errors', async () => {
    await expect(fitMlp(train, { layers: [] })).rejects.toThrow(OptionsError);
    await expect(fitMlp(train, { hidden: [3] } as never)).rejects.toThrow(
      expect.objectContaining({ code: 'OPTIONS_UNKNOWN' }),
    );
    await expect(fitMlp({ ...train, y: new Int32Array(train.n) })).rejects.toThrow(
      expect.objectContaining({ code: 'DATA_SINGLE_CLASS' }),
    );
    expect(() => model.predict(new Float64Array(3))).toThrow(expect.objectContaining({ code: 'DATA_SHAPE' }));
  });
});
