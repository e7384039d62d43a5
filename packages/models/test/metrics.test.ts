import { type Classifier, createDataset, ModelError } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { accuracy } from '../src/metrics.js';
import { mixedSchema } from './fixtures.js';

// Predicts 1 exactly when income > 0.
const threshold: Classifier = {
  nFeatures: 4,
  nClasses: 2,
  predict: (x) => Int32Array.from({ length: x.length / 4 }, (_, i) => (x[i * 4]! > 0 ? 1 : 0)),
};

describe('accuracy', () => {
  it('counts the rows whose prediction equals the label', () => {
    // incomes −1, 2, 3, −4, 5 → predictions 0 1 1 0 1; labels 0 1 0 0 0 → 3 of 5 correct.
    const x = [-1, 2, 3, -4, 5].flatMap((v) => [v, 0, 0, 0]);
    const ds = createDataset({ schema: mixedSchema, x, y: [0, 1, 0, 0, 0] });
    expect(accuracy(threshold, ds)).toBe(3 / 5);
  });

  it('rejects a model of the wrong width', () => {
    const ds = createDataset({ schema: mixedSchema, x: [1, 0, 0, 0], y: [1] });
    expect(() => accuracy({ ...threshold, nFeatures: 3 }, ds)).toThrow(ModelError);
  });
});
