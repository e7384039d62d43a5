import { createDataset, type Dataset, Rng } from '@fb/core';

/**
 * Planted label bias: merit x1 + x2 + noise decides the label, but for group s = 1 a share `flip` of
 * the deserved favourable labels is turned unfavourable.
 */
export function plantedBias(n = 4000, flip = 0.6, seed = 1): Dataset {
  const rng = Rng.create(seed);
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = rng.bernoulli(0.5) ? 1 : 0;
    const x1 = rng.int(0, 9);
    const x2 = rng.int(0, 9);
    let label = x1 + x2 + rng.normal(0, 2) >= 9 ? 1 : 0;
    if (label === 1 && s === 1 && rng.bernoulli(flip)) label = 0;
    x.push(s, x1, x2);
    y.push(label);
  }
  return createDataset({
    schema: {
      attributes: [
        { name: 's', kind: 'categorical', protected: true, categories: ['a', 'b'] },
        { name: 'x1', kind: 'ordinal', protected: false, min: 0, max: 9 },
        { name: 'x2', kind: 'ordinal', protected: false, min: 0, max: 9 },
      ],
      outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
    },
    x,
    y,
  });
}

export function accuracy(yTrue: ArrayLike<number>, yPred: ArrayLike<number>): number {
  let c = 0;
  for (let i = 0; i < yTrue.length; i++) if (yTrue[i] === yPred[i]) c++;
  return c / yTrue.length;
}

/**
 * Planted direct discrimination: four merit attributes decide the label, and group s = 1 needs `shift`
 * more merit for the favourable label; a model trained on it treats otherwise equal inputs differently.
 */
export function plantedDirect(n = 4000, shift = 3, seed = 1): Dataset {
  const rng = Rng.create(seed);
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = rng.bernoulli(0.5) ? 1 : 0;
    const m = [rng.int(0, 9), rng.int(0, 9), rng.int(0, 9), rng.int(0, 9)];
    const merit = m[0]! + m[1]! + m[2]! + m[3]! + rng.normal(0, 2);
    y.push(merit - shift * s >= 18 ? 1 : 0);
    x.push(s, ...m);
  }
  return createDataset({
    schema: {
      attributes: [
        { name: 's', kind: 'categorical', protected: true, categories: ['a', 'b'] },
        ...[1, 2, 3, 4].map((j) => ({
          name: `m${j}`,
          kind: 'ordinal' as const,
          protected: false,
          min: 0,
          max: 9,
          step: 1,
        })),
      ],
      outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
    },
    x,
    y,
  });
}
