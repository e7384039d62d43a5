import { describe, expect, it } from 'vitest';
import { loadTensorflow } from '../src/index.js';

describe('loadTensorflow', () => {
  it('loads one instance per process on a working backend', async () => {
    const a = await loadTensorflow();
    const b = await loadTensorflow();
    expect(b).toBe(a);
    expect(['tensorflow', 'wasm', 'cpu']).toContain(a.backend);
    const product = a.tf.matMul(a.tf.tensor2d([1, 2, 3, 4], [2, 2]), a.tf.tensor2d([1, 0, 0, 1], [2, 2]));
    expect(Array.from(product.dataSync())).toEqual([1, 2, 3, 4]);
    product.dispose();
  });
});
