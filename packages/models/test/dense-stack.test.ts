import { createRng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { type Activation, Adam, DenseStack, type SparseInput } from '../src/dense-stack.js';

function network(sizes: number[], activation: Activation, seed: number): DenseStack {
  const rng = createRng(seed);
  const kernels = sizes
    .slice(1)
    .map((u, l) => Float64Array.from({ length: sizes[l]! * u }, () => rng.uniform(-1, 1)));
  const biases = sizes.slice(1).map((u) => Float64Array.from({ length: u }, () => rng.uniform(-0.5, 0.5)));
  return new DenseStack(sizes, kernels, biases, activation);
}

describe('DenseStack', () => {
  it.each<Activation>(['relu', 'tanh', 'sigmoid'])(
    'backward gives the exact gradient of Σ G ⊙ logits w.r.t. every weight (%s, central differences)',
    (activation) => {
      const sizes = [7, 5, 4, 3];
      const net = network(sizes, activation, 1);
      const rng = createRng(2);
      const m = 6;
      const d = 3;
      // Sparse rows over 7 encoded columns, with one zero entry that must be skipped.
      const input: SparseInput = {
        index: Int32Array.from({ length: m * d }, () => rng.int(0, 6)),
        value: Float64Array.from({ length: m * d }, (_, e) => (e === 4 ? 0 : rng.uniform(-2, 2))),
        d,
      };
      const rows = Int32Array.of(5, 0, 3, 3, 1, 2);
      const G = Float64Array.from({ length: m * 3 }, () => rng.uniform(-1, 1));
      const objective = () => {
        const z = net.forward(input, rows, 0, m);
        let s = 0;
        for (let i = 0; i < z.length; i++) s += G[i]! * z[i]!;
        return s;
      };
      objective();
      const grads = {
        kernels: net.kernels.map((k) => new Float64Array(k.length)),
        biases: net.biases.map((b) => new Float64Array(b.length)),
      };
      net.backward(input, rows, 0, m, G, grads);
      const h = 1e-6;
      let worst = 0;
      for (const [params, g] of [
        [net.kernels, grads.kernels],
        [net.biases, grads.biases],
      ] as const) {
        params.forEach((p, l) => {
          for (let i = 0; i < p.length; i++) {
            const keep = p[i]!;
            p[i] = keep + h;
            net.parametersChanged();
            const up = objective();
            p[i] = keep - h;
            net.parametersChanged();
            const down = objective();
            p[i] = keep;
            net.parametersChanged();
            worst = Math.max(worst, Math.abs((up - down) / (2 * h) - g[l]![i]!));
          }
        });
      }
      expect(worst).toBeLessThan(1e-6);
    },
  );

  it('Adam takes the textbook first step: −rate·sign(g) (bias-corrected moments)', () => {
    const p = Float64Array.of(1, -2, 0.5);
    const adam = new Adam([p], 0.1);
    adam.step([p], [Float64Array.of(3, -0.5, 1e-3)]);
    // m̂ = g, v̂ = g², so the step is rate·g/(|g| + ε).
    expect(p[0]).toBeCloseTo(1 - (0.1 * 3) / (3 + 1e-7), 12);
    expect(p[1]).toBeCloseTo(-2 + (0.1 * 0.5) / (0.5 + 1e-7), 12);
    expect(p[2]).toBeCloseTo(0.5 - (0.1 * 1e-3) / (1e-3 + 1e-7), 12);
  });
});
