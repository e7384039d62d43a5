import { describe, expect, it } from 'vitest';
import { generate } from '../src/index.js';

const share = (minAleatoric: number, maxAleatoric: number, seed = 1) =>
  generate({ seed, attributes: 8, pairs: 4, minAleatoric, maxAleatoric, ensembleSize: 0, threads: 1 }).truth
    .labelNoiseShare;

describe('labelNoiseShare', () => {
  it('is 0 without aleatoric noise and grows with its sd', () => {
    expect(share(0, 0)).toBe(0);
    const small = share(0.05, 0.3);
    const large = share(1, 2);
    expect(small).toBeGreaterThan(0);
    expect(large).toBeGreaterThan(3 * small);
  });

  it('counts the labels whose noise-free draw differs (recomputed by hand from the truth)', () => {
    const { truth } = generate({
      seed: 3,
      attributes: 6,
      pairs: 2,
      minAleatoric: 0.5,
      maxAleatoric: 1,
      ensembleSize: 0,
      threads: 1,
    });
    // With the noise removed the probability is σ(logit(p) − ε); its label differs from the drawn
    // one exactly when the uniform falls between the two probabilities.
    let between = 0;
    const n = truth.probability.length;
    for (let i = 0; i < n; i++) {
      const p = truth.probability[i]!;
      const z = Math.log(p / (1 - p)) - truth.aleatoricNoise[i]!;
      const clean = 1 / (1 + Math.exp(-z));
      between += Math.abs(p - clean);
    }
    // The expected number of changed labels is the summed gap; the realised share is close to it.
    expect(Math.abs(truth.labelNoiseShare - between / n)).toBeLessThan(0.02);
  });
});
