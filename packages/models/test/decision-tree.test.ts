import { createDataset, DataError, type Dataset, defineSchema, OptionsError, Rng } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { FeatureBinner } from '../src/binning.js';
import { encodeArray } from '../src/codec.js';
import { DecisionTree, fitDecisionTree } from '../src/decision-tree.js';
import { nodeBound } from '../src/tree-builder.js';
import { mixedData, mixedSchema, threeClassData, uniformData } from './fixtures.js';

const oneD = defineSchema({
  attributes: [{ name: 'x', kind: 'continuous', protected: true, min: -100, max: 100 }],
  outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
});

/** Exhaustive best first split by weighted child impurity: every feature, every midpoint. */
function bruteForceRoot(
  ds: Dataset,
  impurity: (p: number) => number,
): { feature: number; threshold: number } {
  let best = { feature: -1, threshold: 0, cost: Number.POSITIVE_INFINITY };
  for (let j = 0; j < ds.d; j++) {
    const values = [...new Set(Array.from({ length: ds.n }, (_, i) => ds.x[i * ds.d + j]!))].sort(
      (a, b) => a - b,
    );
    for (let v = 0; v + 1 < values.length; v++) {
      const t = (values[v]! + values[v + 1]!) / 2;
      let nl = 0;
      let pl = 0;
      let nr = 0;
      let pr = 0;
      for (let i = 0; i < ds.n; i++) {
        if (ds.x[i * ds.d + j]! <= t) {
          nl++;
          pl += ds.y[i]!;
        } else {
          nr++;
          pr += ds.y[i]!;
        }
      }
      const cost = nl * impurity(pl / nl) + nr * impurity(pr / nr);
      if (cost < best.cost - 1e-12) best = { feature: j, threshold: t, cost };
    }
  }
  return best;
}

const gini = (p: number) => 1 - p * p - (1 - p) * (1 - p);
const entropy = (p: number) => (p <= 0 || p >= 1 ? 0 : -p * Math.log2(p) - (1 - p) * Math.log2(1 - p));

describe('fitDecisionTree: hand-computed cases', () => {
  it('splits a separable 1-D sample at the midpoint, with pure leaves', () => {
    const ds = createDataset({ schema: oneD, x: [1, 2, 3, 4, 5, 6], y: [0, 0, 0, 1, 1, 1] });
    const tree = fitDecisionTree(ds);
    expect(tree.nodeCount).toBe(3);
    expect(Array.from(tree.feature)).toEqual([0, -1, -1]);
    expect(tree.threshold[0]).toBe(3.5);
    expect(Array.from(tree.left)).toEqual([1, -1, -1]);
    expect(Array.from(tree.right)).toEqual([2, -1, -1]);
    expect(tree.impurity[0]).toBe(0.5);
    expect(Array.from(tree.value)).toEqual([0.5, 0.5, 1, 0, 0, 1]);
    expect(Array.from(tree.nodeSamples)).toEqual([6, 3, 3]);
    expect(Array.from(tree.predict(Float64Array.of(3.5, 3.6, -50)))).toEqual([0, 1, 0]);
    expect(Array.from(tree.decisionPath(Float64Array.of(9, 5), 1))).toEqual([0, 2]);
    expect(tree.depth).toBe(1);
    expect(tree.leafCount).toBe(2);
    // Entropy in bits: 1 at the balanced root, 0 at the pure leaves.
    const e = fitDecisionTree(ds, { criterion: 'entropy' });
    expect(Array.from(e.impurity)).toEqual([1, 0, 0]);
  });

  it('leaf probabilities are the class frequencies, and minSamplesLeaf forces the split point', () => {
    // x = 1..8 with labels 0 0 0 1 | 0 1 1 1: the best split with at least 4 rows per leaf is at 4.5.
    const ds = createDataset({ schema: oneD, x: [1, 2, 3, 4, 5, 6, 7, 8], y: [0, 0, 0, 1, 0, 1, 1, 1] });
    const tree = fitDecisionTree(ds, { minSamplesLeaf: 4 });
    expect(tree.threshold[0]).toBe(4.5);
    expect(Array.from(tree.predictProba(Float64Array.of(0, 8)))).toEqual([0.75, 0.25, 0.25, 0.75]);
  });

  it('sample weights shift the split as repeated rows would', () => {
    const ds = createDataset({ schema: oneD, x: [1, 2, 3, 4], y: [0, 1, 0, 1] });
    // Weights 5,1,5,1 on labels 0,1,0,1, depth 1: gini picks the split isolating the heavy 0 at x=3 side.
    const w = Float64Array.of(5, 1, 5, 1);
    const weighted = fitDecisionTree(ds, { maxDepth: 1 }, w);
    const repeated = createDataset({
      schema: oneD,
      x: [1, 1, 1, 1, 1, 2, 3, 3, 3, 3, 3, 4],
      y: [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1],
    });
    const plain = fitDecisionTree(repeated, { maxDepth: 1 });
    expect(weighted.threshold[0]).toBe(plain.threshold[0]);
    expect(weighted.value).toEqual(plain.value);
    expect(weighted.nodeWeight[0]).toBe(12);
    expect(weighted.nodeSamples[0]).toBe(4);
  });

  it('grows a tree that fills its depth limit exactly (the node arrays are sized by that limit)', () => {
    // y = a XOR b, each of the four cells twice: every node down to depth 2 splits, so the tree has
    // 2^3 - 1 = 7 nodes, the bound for depth 2, fewer than the 2 * 8 - 1 = 15 a tree on 8 rows can have.
    const xor = defineSchema({
      attributes: [
        { name: 'a', kind: 'continuous', protected: true, min: 0, max: 1 },
        { name: 'b', kind: 'continuous', protected: false, min: 0, max: 1 },
      ],
      outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
    });
    const cells = [0, 0, 0, 1, 1, 0, 1, 1];
    const ds = createDataset({ schema: xor, x: [...cells, ...cells], y: [0, 1, 1, 0, 0, 1, 1, 0] });
    const tree = fitDecisionTree(ds, { maxDepth: 2 });
    expect(nodeBound(8, 2)).toBe(7);
    expect(tree.nodeCount).toBe(7);
    expect(tree.leafCount).toBe(4);
    expect(Array.from(tree.predict(Float64Array.from(cells)))).toEqual([0, 1, 1, 0]);
    for (let t = 3; t < 7; t++) expect(tree.impurity[t]).toBe(0);
  });

  it('bounds the node count by rows and by depth', () => {
    expect(nodeBound(1, 5)).toBe(1);
    expect(nodeBound(100, 0)).toBe(1);
    expect(nodeBound(100, 2)).toBe(7);
    expect(nodeBound(3, 10)).toBe(5);
    expect(nodeBound(1e6, 40)).toBe(2e6 - 1);
    expect(nodeBound(1e6, 0x7fffffff)).toBe(2e6 - 1);
  });
});

describe('fitDecisionTree: split search matches an exhaustive search', () => {
  for (const [criterion, impurity] of [
    ['gini', gini],
    ['entropy', entropy],
  ] as const) {
    it(`finds the best root split (${criterion})`, () => {
      for (const seed of ['a', 'b', 'c', 'd']) {
        const ds = uniformData(120, 3, `${criterion}-${seed}`, (r) =>
          r[0]! + 0.6 * r[1]! - 0.3 * r[2]! + 0.3 * Math.sin(40 * r[2]!) > 0.7 ? 1 : 0,
        );
        const tree = fitDecisionTree(ds, { criterion, maxDepth: 1 });
        const best = bruteForceRoot(ds, impurity);
        expect(tree.feature[0]).toBe(best.feature);
        expect(tree.threshold[0]).toBeCloseTo(best.threshold, 12);
      }
    });
  }

  it('grows to pure leaves without depth limit and fits the training data exactly', () => {
    const ds = uniformData(200, 4, 'pure', (r) => (Math.sin(9 * r[0]!) * Math.cos(7 * r[1]!) > 0 ? 1 : 0));
    const tree = fitDecisionTree(ds);
    expect(tree.predict(ds.x)).toEqual(ds.y);
    for (let t = 0; t < tree.nodeCount; t++) {
      if (tree.left[t]! >= 0) continue;
      expect(Math.max(tree.value[2 * t]!, tree.value[2 * t + 1]!)).toBe(1);
    }
  });
});

describe('fitDecisionTree: structure invariants', () => {
  const ds = mixedData(1500, 'tree-invariants');
  const tree = fitDecisionTree(ds, { maxDepth: 6, minSamplesLeaf: 7, minSamplesSplit: 30 });

  it('children partition their parent and respect the limits', () => {
    expect(tree.depth).toBeLessThanOrEqual(6);
    for (let t = 0; t < tree.nodeCount; t++) {
      const l = tree.left[t]!;
      if (l < 0) {
        expect(tree.nodeSamples[t]).toBeGreaterThanOrEqual(7);
        continue;
      }
      expect(tree.nodeSamples[t]).toBeGreaterThanOrEqual(30);
      const r = tree.right[t]!;
      expect(tree.nodeSamples[l]! + tree.nodeSamples[r]!).toBe(tree.nodeSamples[t]);
      expect(tree.nodeWeight[l]! + tree.nodeWeight[r]!).toBeCloseTo(tree.nodeWeight[t]!, 9);
      let sum = 0;
      for (let k = 0; k < 2; k++) sum += tree.value[2 * t + k]!;
      expect(sum).toBeCloseTo(1, 12);
    }
  });

  it('decision paths follow the thresholds, end at the leaf of apply(), and give predictProba', () => {
    const rows = ds.x.subarray(0, 50 * 4);
    const leaves = tree.apply(rows);
    const proba = tree.predictProba(rows);
    for (let i = 0; i < 50; i++) {
      const path = tree.decisionPath(rows, i * 4);
      for (let s = 0; s + 1 < path.length; s++) {
        const t = path[s]!;
        const goesLeft = rows[i * 4 + tree.feature[t]!]! <= tree.threshold[t]!;
        expect(path[s + 1]).toBe(goesLeft ? tree.left[t] : tree.right[t]);
      }
      const leaf = path[path.length - 1]!;
      expect(leaf).toBe(leaves[i]);
      expect(proba[2 * i]).toBe(tree.value[2 * leaf]);
    }
  });

  it('feature importances equal the weighted impurity decreases read from the node arrays', () => {
    const imp = new Float64Array(4);
    for (let t = 0; t < tree.nodeCount; t++) {
      const l = tree.left[t]!;
      if (l < 0) continue;
      const r = tree.right[t]!;
      imp[tree.feature[t]!]! +=
        tree.nodeWeight[t]! * tree.impurity[t]! -
        tree.nodeWeight[l]! * tree.impurity[l]! -
        tree.nodeWeight[r]! * tree.impurity[r]!;
    }
    const total = imp.reduce((a, v) => a + v, 0);
    for (let j = 0; j < 4; j++) expect(tree.featureImportances[j]).toBeCloseTo(imp[j]! / total, 12);
  });

  it('gives the planted feature all the importance', () => {
    const planted = uniformData(300, 3, 'planted', (r) => (r[1]! > 0.4 ? 1 : 0));
    const t = fitDecisionTree(planted);
    expect(Array.from(t.featureImportances)).toEqual([0, 1, 0]);
  });

  it('handles three classes', () => {
    const multi = threeClassData(1500, 'tree-multi');
    const t = fitDecisionTree(multi, { maxDepth: 3 });
    expect(t.value.length).toBe(t.nodeCount * 3);
    const grid = Float64Array.from([-5, 1, 2, 0, 0, 1, 2, 0, 5, 1, 2, 0]);
    expect(Array.from(t.predict(grid))).toEqual([0, 1, 2]);
  });
});

describe('class weights', () => {
  const ds = mixedData(800, 'tree-class-weights');

  it('"balanced" equals sample weights n / (K · n_k), and a label map equals per-class weights', () => {
    const counts = [0, 0];
    for (const v of ds.y) counts[v]!++;
    const w = Float64Array.from(ds.y, (v) => ds.n / (2 * counts[v]!));
    const a = fitDecisionTree(ds, { classWeight: 'balanced', maxDepth: 4 });
    const b = fitDecisionTree(ds, { maxDepth: 4 }, w);
    expect(a.threshold).toEqual(b.threshold);
    expect(a.value).toEqual(b.value);
    const c = fitDecisionTree(ds, { classWeight: { yes: 3 }, maxDepth: 4 });
    const e = fitDecisionTree(
      ds,
      { maxDepth: 4 },
      Float64Array.from(ds.y, (v) => (v === 1 ? 3 : 1)),
    );
    expect(c.threshold).toEqual(e.threshold);
  });
});

describe('FeatureBinner', () => {
  it('quantile bins hold about n / maxBins rows and thresholds agree with bin codes', () => {
    const ds = uniformData(4000, 1, 'bins', () => 0);
    const binner = FeatureBinner.fit(ds.schema, ds.x, ds.n, 16);
    expect(binner.nBins[0]).toBe(16);
    const codes = binner.transform(ds.x, ds.n);
    const counts = new Array(16).fill(0);
    for (const c of codes) counts[c]++;
    for (const c of counts) expect(Math.abs(c - 250)).toBeLessThanOrEqual(1);
    for (let b = 0; b < 15; b++) {
      const t = binner.threshold(0, b, b + 1);
      for (let i = 0; i < ds.n; i++) expect(ds.x[i]! <= t).toBe(codes[i]! <= b);
    }
  });

  it('keeps categorical codes exact and gives a heavily repeated value its own bin', () => {
    const schema = defineSchema({
      attributes: [
        { name: 'c', kind: 'categorical', protected: true, categories: ['a', 'b', 'c'] },
        { name: 'g', kind: 'continuous', protected: false, min: 0, max: 1000 },
      ],
      outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
    });
    const n = 1000;
    const x = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) x.set([i % 3, i < 900 ? 0 : i], 2 * i);
    const binner = FeatureBinner.fit(schema, x, n, 8);
    expect(binner.nBins[0]).toBe(3);
    const codes = binner.transform(x, n);
    for (let i = 0; i < n; i++) expect(codes[i]).toBe(i % 3);
    expect(codes[n]).toBe(0);
    expect(codes[n + 899]).toBe(0);
    expect(codes[n + 900]).toBe(1);
    expect(binner.nBins[1]).toBe(8);
  });
});

/**
 * The binning rule written out plainly (see `FeatureBinner`): per continuous feature the sorted values
 * of the rows of positive weight; one bin per distinct value when there are at most maxBins, else bins
 * closed at the end of the first run of equal values reaching the next multiple of count / maxBins; each
 * row's code the first bin whose largest value's midpoint to the next bin is at least its value.
 */
function referenceBins(x: Float64Array, n: number, d: number, maxBins: number, weight?: Float64Array) {
  const nBins: number[] = [];
  const codes = new Uint8Array(n * d);
  for (let j = 0; j < d; j++) {
    const col: number[] = [];
    for (let i = 0; i < n; i++) if (!weight || weight[i]! > 0) col.push(x[i * d + j]!);
    col.sort((a, b) => a - b);
    const runs: [number, number][] = [];
    for (let i = 0; i < col.length; ) {
      let end = i;
      while (end < col.length && col[end] === col[i]) end++;
      runs.push([i, end]);
      i = end;
    }
    const bins: [number, number][] = [];
    if (runs.length <= maxBins) for (const [a] of runs) bins.push([col[a]!, col[a]!]);
    else {
      let start = 0;
      for (const [, end] of runs) {
        const last = end === col.length;
        if (last || (maxBins - bins.length > 1 && end >= ((bins.length + 1) * col.length) / maxBins)) {
          bins.push([col[start]!, col[end - 1]!]);
          start = end;
        }
      }
    }
    nBins.push(bins.length);
    const edges = bins.slice(0, -1).map(([, hi], b) => {
      const lo = bins[b + 1]![0];
      const m = hi / 2 + lo / 2;
      return m >= lo || m < hi ? hi : m;
    });
    for (let i = 0; i < n; i++) {
      const v = x[i * d + j]!;
      let b = edges.findIndex((e) => e >= v);
      if (b < 0) b = edges.length;
      codes[j * n + i] = b;
    }
  }
  return { nBins, codes };
}

describe('FeatureBinner against the rule written out', () => {
  it('gives the bins and codes of the plain rule, with and without weights, and fitTransform = fit + transform', () => {
    const rng = Rng.create('binner-reference');
    for (const [n, d, maxBins, levels] of [
      [500, 3, 16, 1000],
      [2000, 4, 32, 40],
      [300, 2, 255, 7],
      [1000, 5, 2, 100],
    ] as const) {
      const schema = defineSchema({
        attributes: Array.from({ length: d }, (_, j) => ({
          name: `f${j}`,
          kind: 'continuous' as const,
          protected: j === 0,
          min: -1000,
          max: 1000,
        })),
        outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
      });
      // Values on a grid of `levels` steps, so that ties and long runs of one value occur.
      const x = Float64Array.from({ length: n * d }, () => (rng.int(0, levels) - levels / 2) / 3);
      const weight = Float64Array.from({ length: n }, () => (rng.next() < 0.3 ? 0 : rng.next() + 0.1));
      for (const w of [undefined, weight]) {
        const expected = referenceBins(x, n, d, maxBins, w);
        const binner = FeatureBinner.fit(schema, x, n, maxBins, w);
        expect(Array.from(binner.nBins)).toEqual(expected.nBins);
        const codes = binner.transform(x, n);
        expect(Array.from(codes)).toEqual(Array.from(expected.codes));
        const both = FeatureBinner.fitTransform(schema, x, n, maxBins, w);
        expect(Array.from(both.codes)).toEqual(Array.from(codes));
        expect(both.binner.parts()).toEqual(binner.parts());
      }
    }
  });
});

describe('serialisation and determinism', () => {
  it('toJSON / fromJSON reproduces the tree exactly', () => {
    const ds = threeClassData(1000, 'tree-json');
    const tree = fitDecisionTree(ds, { criterion: 'entropy', maxFeatures: 2, seed: 'x' });
    const back = DecisionTree.fromJSON(JSON.parse(JSON.stringify(tree)));
    expect(back.predictProba(ds.x)).toEqual(tree.predictProba(ds.x));
    expect(back.threshold).toEqual(tree.threshold);
    expect(back.featureImportances).toEqual(tree.featureImportances);
    expect(back.description).toBe(tree.description);
    expect(tree.description).toBe('decision-tree(criterion=entropy,maxFeatures=2)');
  });

  it('same seed, same tree; maxFeatures makes the seed matter', () => {
    const ds = mixedData(1000, 'tree-seed');
    const a = fitDecisionTree(ds, { maxFeatures: 1, seed: 3 });
    const b = fitDecisionTree(ds, { maxFeatures: 1, seed: 3 });
    const c = fitDecisionTree(ds, { maxFeatures: 1, seed: 4 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a.toJSON().tree)).not.toBe(JSON.stringify(c.toJSON().tree));
  });

  it('a fit does not depend on the calls before it: larger, three-class, weighted or failed fits, binnings', () => {
    const small = mixedData(300, 'tree-reuse');
    const first = JSON.stringify(fitDecisionTree(small, { seed: 5 }));
    fitDecisionTree(threeClassData(3000, 'tree-reuse'), { criterion: 'entropy', seed: 6 });
    expect(JSON.stringify(fitDecisionTree(small, { seed: 5 }))).toBe(first);
    const oneClass = createDataset({ schema: oneD, x: [1, 2, 3], y: [1, 1, 1] });
    expect(() => fitDecisionTree(oneClass)).toThrow(DataError);
    expect(JSON.stringify(fitDecisionTree(small, { seed: 5 }))).toBe(first);
    // The binner and the builder share the thread's working memory: a binning of other values and a
    // weighted fit in between leave it full of other data.
    const other = threeClassData(3000, 'tree-reuse-other');
    FeatureBinner.fit(other.schema, other.x, other.n, 255).transform(
      other.x.map((v) => v + 0.25),
      other.n,
    );
    fitDecisionTree(
      small,
      {},
      Float64Array.from({ length: small.n }, (_, i) => 1 + (i % 3)),
    );
    expect(JSON.stringify(fitDecisionTree(small, { seed: 5 }))).toBe(first);
  });

  it('rejects damaged JSON with InteropError', () => {
    const tree = fitDecisionTree(mixedData(200, 'tree-bad-json'), { maxDepth: 2 });
    const json = tree.toJSON();
    expect(() => DecisionTree.fromJSON({ ...json, version: 9 })).toThrow(
      expect.objectContaining({ code: 'INTEROP_PARSE' }),
    );
    expect(() => DecisionTree.fromJSON({ ...json, tree: { ...json.tree, nodeCount: 2 } })).toThrow(
      expect.objectContaining({ code: 'INTEROP_PARSE' }),
    );
  });

  it('rejects a stored graph that is not a tree, NaN leaves and a wrong depth', () => {
    const tree = fitDecisionTree(mixedData(400, 'tree-dag-json'), { maxDepth: 3, seed: 1 });
    const json = tree.toJSON();
    const refused = (change: Record<string, unknown>, message: RegExp) =>
      expect(() => DecisionTree.fromJSON({ ...json, tree: { ...json.tree, ...change } })).toThrow(message);
    // Two split nodes pointing at the same children: a DAG whose walks share a subtree.
    const splits = [...tree.left.keys()].filter((t) => tree.left[t]! >= 0);
    expect(splits.length).toBeGreaterThan(2);
    const dag = tree.left.slice();
    dag[splits[1]!] = tree.left[splits[2]!]!;
    refused({ left: encodeArray(dag) }, /child of both node|not the child of any node/);
    const value = tree.value.slice();
    value[2 * tree.left.findIndex((l) => l < 0)] = Number.NaN;
    refused({ value: encodeArray(value) }, /not a finite number/);
    const shares = tree.value.slice();
    shares[0] = 0.9;
    shares[1] = 0.9;
    refused({ value: encodeArray(shares) }, /sum to 1\.8/);
    refused({ maxDepth: tree.depth + 1 }, /deepest leaf/);
    expect(DecisionTree.fromJSON(JSON.parse(JSON.stringify(json))).toJSON()).toEqual(json);
  });
});

describe('bad input', () => {
  const ds = mixedData(300, 'tree-bad');

  it('rejects unknown and invalid options', () => {
    expect(() => fitDecisionTree(ds, { depth: 3 } as never)).toThrow(
      expect.objectContaining({ code: 'OPTIONS_UNKNOWN' }),
    );
    expect(() => fitDecisionTree(ds, { maxFeatures: 9 })).toThrow(OptionsError);
    expect(() => fitDecisionTree(ds, { maxFeatures: 1.5 })).toThrow(OptionsError);
    expect(() => fitDecisionTree(ds, { classWeight: { maybe: 2 } })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID', details: { option: '/classWeight/maybe' } }),
    );
    expect(() => fitDecisionTree(ds, { maxBins: 300 })).toThrow(OptionsError);
  });

  it('rejects unusable data with DataError', () => {
    const x = ds.x.slice();
    x[2] = Number.POSITIVE_INFINITY;
    expect(() => fitDecisionTree({ ...ds, x })).toThrow(expect.objectContaining({ code: 'DATA_NOT_FINITE' }));
    const y = ds.y.slice();
    y[0] = 2;
    expect(() => fitDecisionTree({ ...ds, y })).toThrow(
      expect.objectContaining({ code: 'DATA_OUT_OF_DOMAIN' }),
    );
    expect(() => fitDecisionTree({ ...ds, y: new Int32Array(ds.n) })).toThrow(
      expect.objectContaining({ code: 'DATA_SINGLE_CLASS' }),
    );
    const empty = { schema: mixedSchema, n: 0, d: 4, x: new Float64Array(0), y: new Int32Array(0) };
    expect(() => fitDecisionTree(empty)).toThrow(expect.objectContaining({ code: 'DATA_EMPTY' }));
    expect(() => fitDecisionTree({ ...ds, x: ds.x.subarray(1) })).toThrow(DataError);
    const w = Float64Array.from(ds.y, (v) => (v === 1 ? 1 : 0));
    expect(() => fitDecisionTree(ds, {}, w)).toThrow(expect.objectContaining({ code: 'DATA_SINGLE_CLASS' }));
    // A class weighted zero leaves one class; a second class in the last row alone is enough.
    expect(() => fitDecisionTree(ds, { classWeight: { no: 0 } })).toThrow(
      expect.objectContaining({ code: 'DATA_SINGLE_CLASS' }),
    );
    const lastOnly = new Int32Array(ds.n);
    lastOnly[ds.n - 1] = 1;
    expect(fitDecisionTree({ ...ds, y: lastOnly }).nodeSamples[0]).toBe(ds.n);
  });

  it('rejects bad prediction batches', () => {
    const tree = fitDecisionTree(ds, { maxDepth: 3 });
    expect(() => tree.predict(new Float64Array(5))).toThrow(expect.objectContaining({ code: 'DATA_SHAPE' }));
    expect(() => tree.predict(Float64Array.of(1, 0, Number.NaN, 0))).toThrow(
      expect.objectContaining({ code: 'DATA_NOT_FINITE', details: { attribute: 'level', row: 0 } }),
    );
    expect(() => tree.decisionPath(new Float64Array(4), 2)).toThrow(
      expect.objectContaining({ code: 'DATA_SHAPE' }),
    );
  });

  it('names the first value that is not finite, in every row and column, read by the walk or not', () => {
    // The walk checks the values in its own pass: a depth-1 tree reads one feature per row, and a bad
    // value anywhere else must still be found, alone or before another, and the first one reported.
    // Five rows: a group of four walked together and one row on its own.
    const tree = fitDecisionTree(ds, { maxDepth: 1 });
    const d = mixedSchema.attributes.length;
    const rows = ds.x.slice(0, 5 * d);
    expect(Array.from(tree.apply(rows))).toEqual(
      Array.from({ length: 5 }, (_, i) => tree.leafAt(rows, i * d)),
    );
    for (let at = 0; at < rows.length; at++) {
      for (const [bad, alone] of [
        [Number.NaN, true],
        [Number.POSITIVE_INFINITY, true],
        [Number.NaN, false],
        [Number.NEGATIVE_INFINITY, false],
      ] as const) {
        const x = rows.slice();
        x[at] = bad;
        if (!alone) x[x.length - 1] = Number.NaN;
        const expected = expect.objectContaining({
          code: 'DATA_NOT_FINITE',
          details: { row: Math.floor(at / d), attribute: mixedSchema.attributes[at % d]!.name },
        });
        expect(() => tree.predict(x)).toThrow(expected);
        expect(() => tree.predictProba(x)).toThrow(expected);
        expect(() => tree.apply(x)).toThrow(expected);
      }
    }
  });
});
