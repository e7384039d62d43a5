import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs helper of the build script, without types
import { compileWat } from '../scripts/wat.mjs';
import { wasmKernelsAvailable } from '../src/dense-wasm.js';
import { fitMlp, type MlpOptions } from '../src/mlp.js';
import { DENSE_WASM } from '../src/wasm/dense-wasm.js';
import { mixedData, threeClassData } from './fixtures.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Fit with the loops on typed arrays or on WebAssembly; everything a model gives, as exact bits. */
async function fitOn(
  kernels: 'js' | 'wasm',
  data: ReturnType<typeof mixedData>,
  options: Partial<MlpOptions>,
) {
  process.env.FB_MLP_KERNELS = kernels;
  const model = await fitMlp(data, options);
  const x = data.x.subarray(0, 40 * data.d);
  const { score, gradient } = model.scoreGradient(x);
  return {
    onWasm: (model as unknown as { network: { onWasm: boolean } }).network.onWasm,
    bits: [
      ...model.weights.map((w) => Array.from(w)),
      Array.from(model.predictProba(data.x)),
      Array.from(score),
      Array.from(gradient),
      model.training.trainLoss,
      model.training.validationLoss,
    ].map((v) => JSON.stringify(v)),
  };
}

describe('the network on WebAssembly', () => {
  afterEach(() => {
    delete process.env.FB_MLP_KERNELS;
  });

  it('runs on WebAssembly SIMD here', () => {
    expect(wasmKernelsAvailable()).toBe(true);
  });

  it.each<[string, 'two' | 'three', Partial<MlpOptions>]>([
    // Widths that are not multiples of 8 or 2 reach every remainder loop of the kernels.
    ['relu', 'two', { layers: [13, 9, 3], epochs: 3, seed: 2 }],
    ['tanh, one-hot', 'two', { layers: [8, 5], activation: 'tanh', epochs: 3, seed: 3 }],
    [
      'sigmoid, l2, batches of 7',
      'two',
      { layers: [6], activation: 'sigmoid', l2: 0.01, batchSize: 7, epochs: 2 },
    ],
    ['three classes, ordinal codes', 'three', { layers: [16, 4], categorical: 'ordinal', epochs: 3 }],
    // Early stopping restores the best epoch's weights, which the copy on WebAssembly must follow.
    ['early stopping', 'two', { layers: [8], epochs: 60, patience: 2, learningRate: 0.05, seed: 1 }],
  ])(
    'trains, predicts and differentiates to the same bits as the typed-array loops (%s)',
    async (_, kind, options) => {
      const data = kind === 'two' ? mixedData(300, 'wasm-bits') : threeClassData(300, 'wasm-bits');
      const js = await fitOn('js', data, options);
      const wasm = await fitOn('wasm', data, options);
      expect(js.onWasm).toBe(false);
      expect(wasm.onWasm).toBe(true);
      expect(wasm.bits).toEqual(js.bits);
    },
  );

  it('is the module dense.wat compiles to', async () => {
    const wat = readFileSync(path.join(here, '../src/wasm/dense.wat'), 'utf8');
    const bytes: Uint8Array = await compileWat(wat);
    expect(Buffer.from(bytes).toString('base64')).toBe(DENSE_WASM);
  });
});
