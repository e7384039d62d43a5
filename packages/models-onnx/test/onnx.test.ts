import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CountingClassifier, OptionsError } from '@fb/core';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOnnxAsyncClassifier, loadOnnxClassifier, type OnnxClassifier } from '../src/index.js';
import { DOUBLE, linearModel } from './onnx-model.js';

// Three classes over two features: logits = x·W + b.
const W = [1, -1, 0.5, 2, 0, -1];
const B = [0.1, -0.2, 0.3];
const expected = (x: number[]): number[] => {
  const logits = [0, 1, 2].map((k) => B[k]! + x[0]! * W[k]! + x[1]! * W[3 + k]!);
  const top = Math.max(...logits);
  const e = logits.map((v) => Math.exp(v - top));
  const s = e.reduce((a, v) => a + v, 0);
  return e.map((v) => v / s);
};
const rows = [0.5, -1, 2, 0.3, -1.5, 1.2, 0, 0, 3, -2];
const x = Float64Array.from(rows);
const bytes = linearModel({ weights: W, bias: B, d: 2, softmax: true, withLabel: true });

const open: OnnxClassifier[] = [];
afterAll(async () => {
  for (const c of open) await c.close();
});

function checkProba(proba: Float64Array, tol: number): void {
  for (let i = 0; i < 5; i++) {
    const e = expected(rows.slice(2 * i, 2 * i + 2));
    for (let k = 0; k < 3; k++) expect(Math.abs(proba[3 * i + k]! - e[k]!)).toBeLessThan(tol);
  }
}

describe('loadOnnxClassifier (synchronous, worker-backed)', () => {
  it('reads the widths from the model, picks "probabilities" over "label", and predicts', async () => {
    const model = await loadOnnxClassifier(bytes);
    open.push(model);
    expect(model.nFeatures).toBe(2);
    expect(model.nClasses).toBe(3);
    expect(model.outputName).toBe('probabilities');
    expect(model.description).toBe(`onnx(${bytes.length} bytes)`);
    const proba = model.predictProba(x);
    checkProba(proba, 1e-6);
    const pred = model.predict(x);
    for (let i = 0; i < 5; i++) {
      const e = expected(rows.slice(2 * i, 2 * i + 2));
      expect(pred[i]).toBe(e.indexOf(Math.max(...e)));
    }
    // Works behind core's counting wrapper, in batches smaller than the input.
    const counted = new CountingClassifier(model);
    expect(counted.predict(x)).toEqual(pred);
  });

  it('loads from a file path, in small batches, with logits and a double input', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fb-onnx-'));
    try {
      const file = path.join(dir, 'logits.onnx');
      writeFileSync(
        file,
        linearModel({ weights: W, bias: B, d: 2, softmax: false, type: DOUBLE, outputName: 'scores' }),
      );
      const model = await loadOnnxClassifier(file, { output: 'logits', batchSize: 2 });
      open.push(model);
      expect(model.description).toBe('onnx(logits.onnx)');
      checkProba(model.predictProba(x), 1e-12);
      // Read as probabilities, the raw scores are rejected.
      const strict = await loadOnnxClassifier(file);
      open.push(strict);
      expect(() => strict.predictProba(x)).toThrow(expect.objectContaining({ code: 'MODEL_OUTPUT' }));
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('checks names and shapes with typed errors', async () => {
    await expect(loadOnnxClassifier(bytes, { nFeatures: 3 })).rejects.toThrow(
      expect.objectContaining({ code: 'MODEL_MISMATCH' }),
    );
    await expect(loadOnnxClassifier(bytes, { outputName: 'proba' })).rejects.toThrow(
      expect.objectContaining({
        code: 'MODEL_MISMATCH',
        message: expect.stringContaining('"label", "probabilities"'),
      }),
    );
    await expect(loadOnnxClassifier(bytes, { inputName: 'input' })).rejects.toThrow(
      expect.objectContaining({ code: 'MODEL_MISMATCH' }),
    );
    await expect(loadOnnxClassifier(bytes, { nClasses: 2 })).rejects.toThrow(
      expect.objectContaining({ code: 'MODEL_MISMATCH' }),
    );
    const symbolic = linearModel({ weights: W, bias: B, d: 2, softmax: true, symbolicWidth: true });
    await expect(loadOnnxClassifier(symbolic)).rejects.toThrow(
      expect.objectContaining({ code: 'MODEL_MISMATCH', message: expect.stringContaining('nFeatures') }),
    );
    const model = await loadOnnxClassifier(symbolic, { nFeatures: 2 });
    open.push(model);
    expect(() => model.predict(new Float64Array(3))).toThrow(expect.objectContaining({ code: 'DATA_SHAPE' }));
    expect(() => model.predict(Float64Array.of(1, Number.NaN))).toThrow(
      expect.objectContaining({ code: 'DATA_NOT_FINITE' }),
    );
  });

  it('rejects unreadable models and unknown options', async () => {
    await expect(loadOnnxClassifier(Uint8Array.of(1, 2, 3, 4))).rejects.toThrow(
      expect.objectContaining({ code: 'INTEROP_PARSE' }),
    );
    await expect(loadOnnxClassifier(bytes, { batch: 3 } as never)).rejects.toThrow(OptionsError);
    await expect(loadOnnxClassifier(42 as never)).rejects.toThrow(
      expect.objectContaining({ code: 'MODEL_MISSING' }),
    );
  });
});

describe('loadOnnxAsyncClassifier', () => {
  it('gives the same probabilities as the synchronous classifier', async () => {
    const model = await loadOnnxAsyncClassifier(bytes, { batchSize: 3 });
    const sync = await loadOnnxClassifier(bytes);
    open.push(sync);
    const proba = await model.predictProbaAsync(x);
    expect(proba).toEqual(sync.predictProba(x));
    expect(await model.predictAsync(x)).toEqual(sync.predict(x));
    await model.release();
  });
});
