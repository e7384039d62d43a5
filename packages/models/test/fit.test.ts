import { createDataset, ModelError, OptionsError } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { DecisionTree } from '../src/decision-tree.js';
import { type FitOptions, fit, modelFromJSON } from '../src/fit.js';
import { classifierFromFunction } from '../src/function-classifier.js';
import { LinearSvm } from '../src/linear-svm.js';
import { LogisticRegression } from '../src/logistic-regression.js';
import {
  accuracyScore,
  balancedAccuracyScore,
  evaluate,
  f1Score,
  logLossScore,
  rocAucScore,
} from '../src/metrics.js';
import { Mlp } from '../src/mlp.js';
import { RandomForest } from '../src/random-forest.js';
import { trainTestSplit } from '../src/split.js';
import { mixedData, mixedSchema } from './fixtures.js';

const data = mixedData(800, 'fit-api');

describe('fit', () => {
  const cases: [FitOptions, object][] = [
    [{ model: 'logistic-regression', l2: 0.5 }, LogisticRegression],
    [{ model: 'decision-tree', maxDepth: 4 }, DecisionTree],
    [{ model: 'random-forest', nEstimators: 5 }, RandomForest],
    [{ model: 'linear-svm', c: 0.1 }, LinearSvm],
    [{ model: 'mlp', layers: [8], epochs: 2 }, Mlp],
  ];
  for (const [options, cls] of cases) {
    it(`fits ${options.model} and reloads it from JSON with identical predictions`, async () => {
      const model = await fit(data, options);
      expect(model).toBeInstanceOf(cls as never);
      const back = await modelFromJSON(JSON.parse(JSON.stringify(model)));
      expect(back).toBeInstanceOf(cls as never);
      expect(back.predictProba(data.x)).toEqual(model.predictProba(data.x));
      expect(back.predict(data.x)).toEqual(model.predict(data.x));
    });
  }

  it('passes sample weights through (zero weight = row removed)', async () => {
    const w = Float64Array.from({ length: data.n }, (_, i) => (i < 400 ? 1 : 0));
    const a = await fit(data, { model: 'decision-tree', maxDepth: 3 }, w);
    const b = await fit(
      { ...data, n: 400, x: data.x.slice(0, 1600), y: data.y.slice(0, 400) },
      {
        model: 'decision-tree',
        maxDepth: 3,
      },
    );
    expect((a as DecisionTree).threshold).toEqual((b as DecisionTree).threshold);
  });

  it('rejects an unknown model, an unknown option and a non-object', async () => {
    await expect(fit(data, { model: 'knn' } as never)).rejects.toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID', details: { option: '/model' } }),
    );
    await expect(fit(data, { model: 'decision-tree', nEstimators: 3 } as never)).rejects.toThrow(
      expect.objectContaining({ code: 'OPTIONS_UNKNOWN' }),
    );
    await expect(fit(data, null as never)).rejects.toThrow(OptionsError);
    await expect(modelFromJSON({ format: 'other' })).rejects.toThrow(
      expect.objectContaining({ code: 'INTEROP_PARSE' }),
    );
  });
});

describe('trainTestSplit', () => {
  it('is stratified, disjoint, complete and seeded', () => {
    const { train, test, trainIndex, testIndex } = trainTestSplit(data, { testFraction: 0.3, seed: 4 });
    expect(train.n + test.n).toBe(data.n);
    const all = new Set([...trainIndex, ...testIndex]);
    expect(all.size).toBe(data.n);
    const ones = data.y.reduce((s, v) => s + v, 0);
    const testOnes = test.y.reduce((s, v) => s + v, 0);
    expect(testOnes).toBe(Math.round(0.3 * ones));
    expect(test.n - testOnes).toBe(Math.round(0.3 * (data.n - ones)));
    for (let r = 0; r < test.n; r++) expect(test.y[r]).toBe(data.y[testIndex[r]!]);
    expect(trainTestSplit(data, { testFraction: 0.3, seed: 4 }).testIndex).toEqual(testIndex);
    expect(trainTestSplit(data, { testFraction: 0.3, seed: 5 }).testIndex).not.toEqual(testIndex);
  });

  it('rejects a split that leaves a part empty', () => {
    const tiny = createDataset({ schema: mixedSchema, x: [0, 0, 0, 0, 1, 1, 1, 1], y: [0, 1] });
    expect(() => trainTestSplit(tiny, { testFraction: 0.1 })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID' }),
    );
  });
});

describe('metrics', () => {
  const y = Int32Array.of(1, 1, 1, 0, 0, 0, 0, 0);
  const pred = Int32Array.of(1, 1, 0, 1, 0, 0, 0, 0);

  it('match hand-computed values', () => {
    expect(accuracyScore(y, pred)).toBe(6 / 8);
    // Recall 2/3 on class 1, 4/5 on class 0.
    expect(balancedAccuracyScore(y, pred, 2)).toBeCloseTo((2 / 3 + 4 / 5) / 2, 15);
    // Precision 2/3, recall 2/3.
    expect(f1Score(y, pred, 2)).toBeCloseTo(2 / 3, 15);
    expect(f1Score(y, pred, 2, 0)).toBeCloseTo((2 * 4) / (5 + 5), 15);
    const proba = Float64Array.of(0.2, 0.8, 0.5, 0.5, 1, 0, 0.9, 0.1, 0.9, 0.1, 0.9, 0.1, 0.9, 0.1, 0.9, 0.1);
    // The third row's P(label) = 0 is clipped to 1e-15.
    const expected = -(Math.log(0.8) + Math.log(0.5) + Math.log(1e-15) + 5 * Math.log(0.9)) / 8;
    expect(logLossScore(y, proba, 2)).toBeCloseTo(expected, 12);
  });

  it('AUC equals the brute-force share of correctly ordered pairs, ties counting half', () => {
    const score = [0.9, 0.4, 0.4, 0.4, 0.1, 0.7, 0.2, 0.4];
    let pairs = 0;
    let wins = 0;
    for (let i = 0; i < 8; i++) {
      for (let j = 0; j < 8; j++) {
        if (y[i] !== 1 || y[j] !== 0) continue;
        pairs++;
        wins += score[i]! > score[j]! ? 1 : score[i] === score[j] ? 0.5 : 0;
      }
    }
    expect(rocAucScore(y, score)).toBeCloseTo(wins / pairs, 15);
    expect(() => rocAucScore(Int32Array.of(1, 1), [0.1, 0.2])).toThrow(
      expect.objectContaining({ code: 'DATA_SINGLE_CLASS' }),
    );
    expect(() => accuracyScore(y, Int32Array.of(1))).toThrow(expect.objectContaining({ code: 'DATA_SHAPE' }));
  });

  it('evaluate agrees with the individual metrics', async () => {
    const model = await fit(data, { model: 'logistic-regression' });
    const e = evaluate(model, data);
    const p = model.predict(data.x);
    const proba = model.predictProba(data.x);
    expect(e.accuracy).toBe(accuracyScore(data.y, p));
    expect(e.balancedAccuracy).toBe(balancedAccuracyScore(data.y, p, 2));
    expect(e.f1).toBe(f1Score(data.y, p, 2));
    expect(e.logLoss).toBe(logLossScore(data.y, proba, 2));
    expect(e.auc).toBe(
      rocAucScore(
        data.y,
        Float64Array.from({ length: data.n }, (_, i) => proba[2 * i + 1]!),
      ),
    );
    const blackBox = { nFeatures: 4, nClasses: 2, predict: (x: Float64Array) => model.predict(x) };
    expect(evaluate(blackBox, data).auc).toBeNull();
  });
});

describe('classifierFromFunction', () => {
  it('wraps a probability function; predict is the argmax', () => {
    // P(class 1) = 1 when income > 0, 0.25 otherwise, returned as one value per row.
    let calls = 0;
    const model = classifierFromFunction(
      (rows, n) => {
        calls++;
        return Float64Array.from({ length: n }, (_, i) => (rows[i * 4]! > 0 ? 1 : 0.25));
      },
      { nFeatures: 4, description: 'rule' },
    );
    const x = Float64Array.of(1, 0, 0, 0, -1, 0, 0, 0);
    expect(Array.from(model.predictProba!(x))).toEqual([0, 1, 0.75, 0.25]);
    expect(Array.from(model.predict(x))).toEqual([1, 0]);
    expect(calls).toBe(2);
    expect(model.description).toBe('rule');
  });

  it('rejects unusable output with ModelError', () => {
    const wrap = (out: number[] | Promise<number[]>) =>
      classifierFromFunction(() => out as never, { nFeatures: 1, nClasses: 3 });
    const x = Float64Array.of(0);
    expect(() => wrap([0.5, 0.5]).predict(x)).toThrow(expect.objectContaining({ code: 'MODEL_OUTPUT' }));
    expect(() => wrap([0.5, 0.6, -0.1]).predict(x)).toThrow(
      expect.objectContaining({ code: 'MODEL_OUTPUT' }),
    );
    expect(() => wrap([0.5, 0.4, 0.4]).predict(x)).toThrow(expect.objectContaining({ code: 'MODEL_OUTPUT' }));
    expect(() => wrap(Promise.resolve([1, 0, 0])).predict(x)).toThrow(ModelError);
    expect(() => wrap([1, 0, 0]).predict(Float64Array.of())).toThrow(ModelError);
    expect(() => classifierFromFunction(() => [], { nFeatures: 0 })).toThrow(
      expect.objectContaining({ code: 'MODEL_MISMATCH' }),
    );
  });
});
