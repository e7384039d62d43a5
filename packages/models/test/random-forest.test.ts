import { describe, expect, it } from 'vitest';
import { fitDecisionTree } from '../src/decision-tree.js';
import { accuracy } from '../src/metrics.js';
import { fitRandomForest, RandomForest } from '../src/random-forest.js';
import { mixedData, threeClassData, uniformData } from './fixtures.js';

const train = mixedData(2000, 'rf-train');
const test = mixedData(2000, 'rf-test');

describe('fitRandomForest', () => {
  const forest = fitRandomForest(train, { nEstimators: 25, seed: 7 });

  it("predictProba is the mean of the trees' leaf distributions and predict its argmax", () => {
    const rows = test.x.subarray(0, 300 * 4);
    const proba = forest.predictProba(rows);
    const mean = new Float64Array(600);
    for (const tree of forest.estimators) {
      const p = tree.predictProba(rows);
      for (let c = 0; c < 600; c++) mean[c]! += p[c]! / forest.estimators.length;
    }
    for (let c = 0; c < 600; c++) expect(proba[c]).toBeCloseTo(mean[c]!, 12);
    const pred = forest.predict(rows);
    for (let i = 0; i < 300; i++) expect(pred[i]).toBe(proba[2 * i + 1]! > proba[2 * i]! ? 1 : 0);
  });

  it('bootstraps: trees differ, each sees about 63% distinct rows', () => {
    expect(forest.estimators).toHaveLength(25);
    for (const tree of forest.estimators) {
      expect(tree.nodeWeight[0]).toBe(train.n);
      expect(tree.nodeSamples[0]! / train.n).toBeGreaterThan(0.6);
      expect(tree.nodeSamples[0]! / train.n).toBeLessThan(0.66);
    }
    expect(forest.estimators[0]!.threshold).not.toEqual(forest.estimators[1]!.threshold);
  });

  it('generalises better than one unpruned tree on noisy labels', () => {
    const tree = fitDecisionTree(train);
    expect(accuracy(forest, test)).toBeGreaterThan(accuracy(tree, test) + 0.03);
  });

  it('without bootstrap and with all features, every tree is the single tree', () => {
    // Continuous features and large nodes: no tie between features, so the feature order cannot matter.
    const ds = uniformData(500, 3, 'rf-no-bootstrap', (r) => (r[0]! + r[1]! * r[2]! > 0.8 ? 1 : 0));
    const options = { maxDepth: 3, maxFeatures: 'all' } as const;
    const f = fitRandomForest(ds, { ...options, nEstimators: 3, bootstrap: false, seed: 1 });
    const tree = fitDecisionTree(ds, { ...options, seed: 2 });
    for (const t of f.estimators) {
      expect(t.feature).toEqual(tree.feature);
      expect(t.threshold).toEqual(tree.threshold);
    }
    const a = f.predictProba(ds.x);
    const b = tree.predictProba(ds.x);
    for (let c = 0; c < a.length; c++) expect(a[c]).toBeCloseTo(b[c]!, 14);
  });

  it("feature importances are the normalised mean of the trees' importances", () => {
    const sum = new Float64Array(4);
    for (const t of forest.estimators) for (let j = 0; j < 4; j++) sum[j]! += t.featureImportances[j]!;
    const total = sum.reduce((a, v) => a + v, 0);
    for (let j = 0; j < 4; j++) expect(forest.featureImportances[j]).toBeCloseTo(sum[j]! / total, 12);
  });

  it('same seed gives a bit-identical forest and predictions; another seed does not', () => {
    const again = fitRandomForest(train, { nEstimators: 25, seed: 7 });
    expect(JSON.stringify(again)).toBe(JSON.stringify(forest));
    expect(again.predictProba(test.x)).toEqual(forest.predictProba(test.x));
    const other = fitRandomForest(train, { nEstimators: 25, seed: 8 });
    expect(JSON.stringify(other.toJSON().trees)).not.toBe(JSON.stringify(forest.toJSON().trees));
  });

  it('round-trips through JSON with identical predictions', () => {
    const multi = threeClassData(600, 'rf-json');
    const f = fitRandomForest(multi, { nEstimators: 5, criterion: 'entropy', classWeight: 'balanced' });
    const back = RandomForest.fromJSON(JSON.parse(JSON.stringify(f)));
    expect(back.predictProba(multi.x)).toEqual(f.predictProba(multi.x));
    expect(back.description).toBe(f.description);
    expect(f.description).toBe('random-forest(nEstimators=5,criterion=entropy,classWeight=balanced)');
  });

  it('rejects unknown options and bad data', () => {
    expect(() => fitRandomForest(train, { trees: 3 } as never)).toThrow(
      expect.objectContaining({ code: 'OPTIONS_UNKNOWN' }),
    );
    expect(() => fitRandomForest(train, { nEstimators: 0 })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID' }),
    );
    expect(() => fitRandomForest({ ...train, y: new Int32Array(train.n) })).toThrow(
      expect.objectContaining({ code: 'DATA_SINGLE_CLASS' }),
    );
  });
});
