import { InteropError, OptionsError, Rng } from '@fb/core';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeArray } from '../src/codec.js';
import { buildCutIndex, lowerBound } from '../src/cut-index.js';
import { DecisionTree, fitDecisionTree } from '../src/decision-tree.js';
import { fitRandomForest } from '../src/random-forest.js';
import {
  compiledWalk,
  encodeColumn,
  leafStarts,
  moveRows,
  rankOf,
  runChunks,
  type TreeJob,
  type VotePlan,
  type Walk,
  walkSource,
} from '../src/tree-kernels.js';
import { predictionThreads, setPredictionThreads } from '../src/tree-threads.js';
import { CodedTrees } from '../src/tree-traversal.js';
import { mixedData, threeClassData } from './fixtures.js';

/** A copy of `tree` with some arrays replaced, built past fromJSON's checks (which refuse such trees). */
function damagedTree(
  tree: DecisionTree,
  change: { value?: Float64Array; threshold?: Float64Array },
): DecisionTree {
  return new DecisionTree(tree.schema, tree.options, {
    nodeCount: tree.nodeCount,
    feature: tree.feature,
    threshold: change.threshold ?? tree.threshold,
    left: tree.left,
    right: tree.right,
    value: change.value ?? tree.value,
    nodeSamples: tree.nodeSamples,
    nodeWeight: tree.nodeWeight,
    impurity: tree.impurity,
    featureImportances: tree.featureImportances,
    maxDepth: tree.depth,
  });
}

/** The textbook walk on raw values: sum each tree's leaf distribution in tree order, then scale. */
function referenceProba(trees: readonly DecisionTree[], x: Float64Array): Float64Array {
  const { nFeatures: d, nClasses: K } = trees[0]!;
  const n = x.length / d;
  const out = new Float64Array(n * K);
  for (let i = 0; i < n; i++) {
    for (const t of trees) {
      let node = 0;
      while (t.left[node]! >= 0) {
        node = x[i * d + t.feature[node]!]! <= t.threshold[node]! ? t.left[node]! : t.right[node]!;
      }
      for (let k = 0; k < K; k++) out[i * K + k]! += t.value[node * K + k]!;
    }
  }
  if (trees.length > 1) for (let c = 0; c < out.length; c++) out[c] = out[c]! * (1 / trees.length);
  return out;
}

function nextUp(v: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const bits = view.getBigInt64(0);
  if (v === 0) return Number.MIN_VALUE;
  view.setBigInt64(0, v > 0 ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

/**
 * n rows mixing values far outside the training range (categorical codes included), split thresholds of
 * the trees themselves and the next double above them: the cases where a coded comparison could go wrong.
 */
function probeRows(trees: readonly DecisionTree[], n: number, seed: string): Float64Array {
  const d = trees[0]!.nFeatures;
  const rng = Rng.create(seed);
  const x = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) {
      const t = trees[rng.int(0, trees.length - 1)]!;
      const node = rng.int(0, t.nodeCount - 1);
      const kind = rng.int(0, 3);
      let v = rng.uniform(-60, 60);
      if (kind > 0 && t.left[node]! >= 0) {
        // A threshold of any feature (not only j) also lands between or on other features' thresholds.
        v = kind === 3 ? nextUp(t.threshold[node]!) : t.threshold[node]!;
      }
      x[i * d + j] = v;
    }
  }
  return x;
}

describe('threshold search', () => {
  // Thresholds spread evenly, clustered (many per bucket), spanning the whole float range, or tiny.
  const shapes: Record<string, (m: number, rng: Rng) => Float64Array> = {
    even: (m, rng) => Float64Array.from({ length: m }, (_, i) => i * 2 + rng.uniform(0, 1)),
    clustered: (m, rng) => Float64Array.from({ length: m }, () => Math.exp(rng.uniform(0, 12))),
    huge: (m, rng) =>
      Float64Array.from({ length: m }, (_, i) => (i === 0 ? -1e308 : i === 1 ? 1e308 : rng.normal())),
    tiny: (m) => Float64Array.from({ length: m }, (_, i) => i * 5e-324),
  };

  for (const [shape, make] of Object.entries(shapes)) {
    it(`lowerBound, rankOf and encodeColumn count the thresholds below each value (${shape} thresholds)`, () => {
      const rng = Rng.create(`threshold-search-${shape}`);
      for (let m = 0; m <= 60; m++) {
        const cut = Float64Array.from(new Set(make(m, rng))).sort();
        const ix = buildCutIndex(cut);
        const lo = cut[0] ?? 0;
        const hi = cut[cut.length - 1] ?? 1;
        // Values on every threshold and next to it, between, outside the range, infinite and NaN (rank 0).
        const values = [
          ...cut,
          ...Array.from(cut, (c) => c + Math.abs(c) * 1e-15),
          ...Array.from({ length: 50 }, () => lo + (hi - lo) * rng.uniform(-0.1, 1.1)),
          Number.POSITIVE_INFINITY,
          Number.NEGATIVE_INFINITY,
          -0,
          Number.NaN,
        ];
        const count = (v: number) => cut.filter((c) => c < v).length;
        for (const v of values) {
          expect(lowerBound(cut, v)).toBe(count(v));
          expect(rankOf(ix, v)).toBe(count(v));
        }
        // encodeColumn: column 1 of rows 3.. of a width-2 batch to rows 2.. of the codes, four rows at a
        // time and the rest.
        const x = new Float64Array((values.length + 3) * 2);
        values.forEach((v, i) => {
          x[(i + 3) * 2 + 1] = v;
        });
        const codes = new Int32Array((values.length + 2) * 2);
        encodeColumn(ix, x, 2, 1, 3, values.length, codes, 2, 3);
        expect(Array.from(values, (_, i) => codes[(i + 2) * 2 + 1])).toEqual(
          values.map((v) => count(v) << 3),
        );
      }
    });
  }

  it('narrows a search to the thresholds of one bucket', () => {
    // Evenly spread thresholds: each has a bucket of its own, so a search needs no halving step.
    expect(buildCutIndex(Float64Array.from({ length: 100 }, (_, i) => i)).window).toBe(1);
    // One threshold per bucket but for a cluster of 5 (a span of 512 buckets: 3 apart): a window of 8.
    const clustered = Float64Array.from([
      0,
      0.1,
      0.2,
      0.3,
      0.4,
      ...Array.from({ length: 123 }, (_, i) => 4 * (i + 1)),
    ]);
    expect(buildCutIndex(clustered).window).toBe(8);
  });
});

describe('leaf order', () => {
  it('moves every row, its codes, sums and id together, into blocks of equal leaves in leaf order', () => {
    const rng = Rng.create('leaf-order');
    const [d, K, n, nodes] = [3, 2, 500, 40];
    // Leaves skewed towards low numbers, some never reached: long chains, empty buckets and fixed points.
    const leafOf = Int32Array.from({ length: n }, () => Math.floor(rng.uniform() ** 2 * nodes));
    const s = {
      featureBits: 0,
      rankBits: 0,
      codes: Int32Array.from({ length: n * d }, (_, i) => 1000 * Math.floor(i / d) + (i % d)),
      sums: Float64Array.from({ length: n * K }, (_, i) => Math.floor(i / K) + 0.25 * (i % K)),
      ids: Int32Array.from({ length: n }, (_, i) => i),
      leaves: leafOf.slice(),
      counts: new Int32Array(nodes),
      carry: new Int32Array(d),
      carrySums: new Float64Array(K),
    };
    leafStarts(s, n);
    moveRows(s, n, d, K);
    const seen = new Set<number>();
    for (let p = 0; p < n; p++) {
      const row = s.ids[p]!;
      seen.add(row);
      if (p > 0) expect(leafOf[row]).toBeGreaterThanOrEqual(leafOf[s.ids[p - 1]!]!);
      for (let j = 0; j < d; j++) expect(s.codes[p * d + j]).toBe(1000 * row + j);
      for (let k = 0; k < K; k++) expect(s.sums[p * K + k]).toBe(row + 0.25 * k);
    }
    expect(seen.size).toBe(n);
  });
});

describe('coded batch prediction', () => {
  const train = mixedData(3000, 'coded-train');

  it('forest probabilities and predictions equal the raw-value walk bit for bit', () => {
    const forest = fitRandomForest(train, { nEstimators: 30, seed: 3 });
    // 1003 rows: a batch that is not a multiple of the 8 rows walked together.
    const x = probeRows(forest.estimators, 1003, 'coded-probe');
    const ref = referenceProba(forest.estimators, x);
    expect(forest.predictProba(x)).toEqual(ref);
    const pred = forest.predict(x);
    for (let i = 0; i < 1003; i++) expect(pred[i]).toBe(ref[2 * i + 1]! > ref[2 * i]! ? 1 : 0);
  });

  it('labels by vote: the argmax of the full sums, with rows dropped once the trees left cannot change them', () => {
    const forest = fitRandomForest(train, { nEstimators: 40, seed: 8 });
    const { nFeatures: d, nClasses: K } = forest;
    const test = mixedData(2003, 'coded-vote');
    // 1005 and 2003 rows are reordered after the first tree; 101 are too few to be.
    for (const x of [
      test.x,
      probeRows(forest.estimators, 1005, 'coded-vote-probe'),
      test.x.slice(0, 101 * d),
    ]) {
      const n = x.length / d;
      const ref = referenceProba(forest.estimators, x);
      for (const wide of [false, true]) {
        const { labels, walks } = new CodedTrees(forest.estimators, d, K, wide).vote(x, n, 1 / 40);
        expect(Array.from(labels)).toEqual(
          Array.from({ length: n }, (_, i) => (ref[2 * i + 1]! > ref[2 * i]! ? 1 : 0)),
        );
        // Most rows of a 40-tree vote are decided before the last tree: far fewer walks than n x 40.
        expect(walks).toBeGreaterThanOrEqual(n * 8);
        expect(walks).toBeLessThan(n * 40 * 0.9);
      }
    }
    expect(Array.from(forest.predict(test.x))).toEqual(
      Array.from(new CodedTrees(forest.estimators, d, K).vote(test.x, test.n, 1 / 40).labels),
    );
  });

  it('labels by vote with three classes: the argmax of predictProba, first on ties', () => {
    const data = threeClassData(1500, 'coded-vote-3');
    const forest = fitRandomForest(data, { nEstimators: 24, seed: 2 });
    const x = probeRows(forest.estimators, 3001, 'coded-vote-3-probe');
    const proba = forest.predictProba(x);
    const expected = Array.from({ length: 3001 }, (_, i) => {
      let best = 0;
      for (let k = 1; k < 3; k++) if (proba[3 * i + k]! > proba[3 * i + best]!) best = k;
      return best;
    });
    expect(Array.from(forest.predict(x))).toEqual(expected);
  });

  it('a tree with a negative leaf value is never cut short (no bound holds for it)', () => {
    const tree = fitDecisionTree(train, { maxDepth: 4, seed: 1 });
    const json = tree.toJSON();
    const value = tree.value.slice();
    const leaf = tree.left.findIndex((l) => l < 0);
    value[2 * leaf] = -5;
    // fromJSON refuses it; the kernels must still be right for a tree built in memory.
    expect(() =>
      DecisionTree.fromJSON({ ...json, tree: { ...json.tree, value: encodeArray(value) } }),
    ).toThrow(InteropError);
    const damaged = damagedTree(tree, { value });
    const trees = [damaged, damaged, damaged, damaged, damaged, damaged, damaged, damaged, tree, tree];
    const x = probeRows(trees, 999, 'coded-negative');
    const { labels, walks } = new CodedTrees(trees, 4, 2).vote(x, 999, 0.1);
    expect(walks).toBe(999 * 10);
    const ref = referenceProba(trees, x);
    expect(Array.from(labels)).toEqual(
      Array.from({ length: 999 }, (_, i) => (ref[2 * i + 1]! > ref[2 * i]! ? 1 : 0)),
    );
  });

  it('batches of fewer than eight rows, walked eight trees at a time, give the sums and labels of the raw walk', () => {
    // 30 and 21 trees: three or two groups of eight, then single trees.
    const two = fitRandomForest(train, { nEstimators: 30, seed: 5 });
    const three = fitRandomForest(threeClassData(1500, 'coded-few-3'), { nEstimators: 21, seed: 2 });
    for (const forest of [two, three]) {
      const { nFeatures: d, nClasses: K } = forest;
      const wide = new CodedTrees(forest.estimators, d, K, true);
      for (let n = 1; n < 8; n++) {
        const x = probeRows(forest.estimators, n, `coded-few-${K}-${n}`);
        const ref = referenceProba(forest.estimators, x);
        expect(forest.predictProba(x)).toEqual(ref);
        const labels = Array.from({ length: n }, (_, i) => {
          let best = 0;
          for (let k = 1; k < K; k++) if (ref[i * K + k]! > ref[i * K + best]!) best = k;
          return best;
        });
        expect(Array.from(forest.predict(x))).toEqual(labels);
        const sums = new Float64Array(n * K);
        wide.addLeafValues(x, n, sums);
        for (let c = 0; c < ref.length; c++)
          expect(sums[c]! / forest.estimators.length).toBeCloseTo(ref[c]!, 14);
        expect(Array.from(wide.vote(x, n, 1 / forest.estimators.length).labels)).toEqual(labels);
      }
    }
  });

  it('the wide two-int layout gives the same probabilities as the packed one', () => {
    const forest = fitRandomForest(train, { nEstimators: 12, seed: 4 });
    const { nFeatures: d, nClasses: K } = forest;
    const x = probeRows(forest.estimators, 1001, 'coded-wide');
    const packed = new CodedTrees(forest.estimators, d, K);
    const wide = new CodedTrees(forest.estimators, d, K, true);
    expect([packed.layout.packed, wide.layout.packed]).toEqual([true, false]);
    const a = new Float64Array(1001 * K);
    const b = new Float64Array(1001 * K);
    packed.addLeafValues(x, 1001, a);
    wide.addLeafValues(x, 1001, b);
    expect(b).toEqual(a);
    const ref = referenceProba(forest.estimators, x);
    for (let c = 0; c < ref.length; c++) expect(a[c]! / 12).toBeCloseTo(ref[c]!, 14);
  });

  it('three classes, and a batch larger than one block', () => {
    const forest = fitRandomForest(threeClassData(1500, 'coded-3'), { nEstimators: 4, seed: 1 });
    // The block holds 2^20 codes: 262,144 rows of width 4.
    const x = probeRows(forest.estimators, 262_144 + 21, 'coded-probe-3');
    expect(forest.predictProba(x)).toEqual(referenceProba(forest.estimators, x));
  });

  it("a walk's first chunk in a thread, walked as a small piece then the rest, gives the sums and labels of a later one", () => {
    const forest = fitRandomForest(train, { nEstimators: 40, seed: 9 });
    const { nFeatures: d, nClasses: K } = forest;
    const coded = new CodedTrees(forest.estimators, d, K);
    const n = 1203;
    const x = probeRows(forest.estimators, n, 'coded-primed');
    const ref = referenceProba(forest.estimators, x);
    // The job CodedTrees builds for one thread, on a walk compiled afresh (not yet primed).
    const job = (vote: VotePlan | null): TreeJob => ({
      nodes: coded['nodes'],
      values: coded['values'],
      cutIndex: coded['cutIndex'],
      walkSource: coded['walkSource'],
      layout: coded.layout,
      d,
      K,
      x,
      n,
      out: new Float64Array(n * K),
      control: null,
      chunkRows: n,
      every: 2,
      vote,
    });
    const plan = (): VotePlan => ({
      labels: new Int32Array(n),
      bound: coded['bound'],
      scale: 1 / 40,
      walks: new Float64Array(1),
    });
    for (const vote of [false, true]) {
      const walk = compiledWalk(new Map(), coded['walkSource']);
      expect(walk.primed).toBe(false);
      const first = job(vote ? plan() : null);
      runChunks(first, walk, null);
      expect(walk.primed).toBe(true);
      const later = job(vote ? plan() : null);
      runChunks(later, walk, null);
      if (vote) {
        const labels = Array.from({ length: n }, (_, i) => (ref[2 * i + 1]! > ref[2 * i]! ? 1 : 0));
        expect(Array.from(first.vote!.labels)).toEqual(labels);
        expect(Array.from(later.vote!.labels)).toEqual(labels);
      } else {
        // Class sums: the forest's probabilities times the number of trees (as predictProba scales them).
        expect(first.out).toEqual(later.out);
        expect(first.out.map((v) => v * (1 / 40))).toEqual(ref);
      }
    }
  });

  it('compiles a walk once per layout and row width', () => {
    const layout = { packed: true, featureBits: 3, featureMask: 7, rankBits: 5, childShift: 8 };
    const cache = new Map<string, Walk>();
    const walk = compiledWalk(cache, walkSource(layout, 4));
    expect(compiledWalk(cache, walkSource({ ...layout }, 4))).toBe(walk);
    expect(compiledWalk(cache, walkSource(layout, 5))).not.toBe(walk);
    expect(compiledWalk(cache, walkSource({ ...layout, packed: false }, 4))).not.toBe(walk);
    expect(cache.size).toBe(3);
  });

  it('single trees: fully grown, a lone leaf, and a stored NaN threshold that sends every row right', () => {
    const tree = fitDecisionTree(train, { seed: 5 });
    const x = probeRows([tree], 517, 'coded-tree');
    expect(tree.predictProba(x)).toEqual(referenceProba([tree], x));
    expect(Array.from(tree.predict(x))).toEqual(
      Array.from(tree.apply(x), (leaf) => (tree.value[2 * leaf + 1]! > tree.value[2 * leaf]! ? 1 : 0)),
    );

    const leaf = fitDecisionTree(train, { minSamplesSplit: train.n + 1 });
    expect(leaf.nodeCount).toBe(1);
    expect(leaf.predictProba(x)).toEqual(referenceProba([leaf], x));

    const json = tree.toJSON();
    const threshold = tree.threshold.slice();
    const split = tree.left.findIndex((l, t) => t > 0 && l >= 0);
    threshold[split] = Number.NaN;
    expect(() =>
      DecisionTree.fromJSON({ ...json, tree: { ...json.tree, threshold: encodeArray(threshold) } }),
    ).toThrow(InteropError);
    const damaged = damagedTree(tree, { threshold });
    const ref = referenceProba([damaged], x);
    expect(damaged.predictProba(x)).toEqual(ref);
    expect(ref).not.toEqual(referenceProba([tree], x));
  });

  describe('prediction threads', () => {
    afterEach(() => setPredictionThreads('auto'));

    it('a batch shared by three threads gives the single-thread result bit for bit', () => {
      const forest = fitRandomForest(train, { nEstimators: 40, seed: 6 });
      // 40 trees x 30,011 rows is above the work from which a batch is shared.
      const x = probeRows(forest.estimators, 30_011, 'coded-threads');
      setPredictionThreads(1);
      const one = forest.predictProba(x);
      setPredictionThreads(3);
      expect(predictionThreads()).toBe(3);
      const three = forest.predictProba(x);
      expect(three).toEqual(one);
      expect(three.buffer).toBeInstanceOf(ArrayBuffer);
      expect(three).toEqual(referenceProba(forest.estimators, x));
    });

    it('a vote shared by three threads gives the single-thread labels and walks', () => {
      const forest = fitRandomForest(train, { nEstimators: 40, seed: 6 });
      const x = probeRows(forest.estimators, 30_011, 'coded-vote-threads');
      const coded = new CodedTrees(forest.estimators, forest.nFeatures, 2);
      setPredictionThreads(1);
      const one = coded.vote(x, 30_011, 1 / 40);
      setPredictionThreads(3);
      const three = coded.vote(x, 30_011, 1 / 40);
      expect(three.walks).toBe(one.walks);
      expect(three.labels).toEqual(one.labels);
      expect(three.labels.buffer).toBeInstanceOf(ArrayBuffer);
      expect(forest.predict(x)).toEqual(one.labels);
    });

    it('batches of changing sizes reuse the shared buffers; a batch already in shared memory is read in place', () => {
      const forest = fitRandomForest(train, { nEstimators: 40, seed: 7 });
      setPredictionThreads(2);
      // Large, then smaller, then larger than both: each result is its own batch's, not a leftover.
      for (const [n, seed] of [
        [30_011, 'coded-stage-a'],
        [26_217, 'coded-stage-b'],
        [40_003, 'coded-stage-c'],
      ] as const) {
        const x = probeRows(forest.estimators, n, seed);
        const ref = referenceProba(forest.estimators, x);
        expect(forest.predictProba(x)).toEqual(ref);
        expect(Array.from(forest.predict(x))).toEqual(
          Array.from({ length: n }, (_, i) => (ref[2 * i + 1]! > ref[2 * i]! ? 1 : 0)),
        );
        const inShared = new Float64Array(new SharedArrayBuffer(x.byteLength));
        inShared.set(x);
        expect(forest.predictProba(inShared)).toEqual(ref);
      }
    });

    it('working arrays kept from trees with wider threshold fields do not leak into the next ones', () => {
      setPredictionThreads(1);
      // Trees with many thresholds per feature (wide fields) leave their codes past the rows walked next:
      // here the code of a value with 2 of their thresholds of feature 3 below it.
      const forest = fitRandomForest(train, { nEstimators: 10, seed: 8 });
      const wide = new CodedTrees(forest.estimators, 4, 2);
      const cuts = [
        ...new Set(
          forest.estimators.flatMap((t) => Array.from(t.threshold).filter((_, i) => t.feature[i] === 3)),
        ),
      ].sort((a, b) => a - b);
      expect(cuts.length).toBeGreaterThan(100);
      wide.addLeafValues(
        new Float64Array(64 * 4).fill((cuts[1]! + cuts[2]!) / 2),
        64,
        new Float64Array(64 * 2),
      );
      // One threshold per feature (one-bit fields): x0 <= 0 is a leaf at depth 1 (class 0); otherwise
      // x1 <= 0 and then x2 <= 0 split down to leaves of classes 1, 0 and 1 at depths 2 and 3.
      const tree = {
        feature: Int32Array.from([0, -1, 1, -1, 2, -1, -1]),
        threshold: Float64Array.from([0, Number.NaN, 0, Number.NaN, 0, Number.NaN, Number.NaN]),
        left: Int32Array.from([1, -1, 3, -1, 5, -1, -1]),
        right: Int32Array.from([2, -1, 4, -1, 6, -1, -1]),
        value: Float64Array.from([0.5, 0.5, 1, 0, 0.5, 0.5, 0, 1, 0.5, 0.5, 1, 0, 0, 1]),
      };
      const narrow = new CodedTrees([tree], 4, 2);
      // Rows 0-6 walk to depth 2 or 3 while row 7, the last, sits on its leaf and reads past the batch:
      // there, a left code 2 would carry into the leaf's child field and send it on to node 2.
      const x = Float64Array.from([
        ...[1, 1, 1, 0, 1, 1, -1, 0, 1, 1, 1, 0, 1, -1, 0, 0, 1, 1, -1, 0, 1, 1, 1, 0, 1, -1, 0, 0],
        ...[-1, 0, 0, 0],
      ]);
      const out = new Float64Array(16);
      narrow.addLeafValues(x, 8, out);
      const classOne = [1, 0, 1, 1, 0, 1, 1, 0];
      expect(Array.from(out)).toEqual(classOne.flatMap((c) => (c ? [0, 1] : [1, 0])));
    });

    it('a batch right after a preparation, while the helpers still prepare, gives its own sums and labels', () => {
      const forest = fitRandomForest(train, { nEstimators: 40, seed: 9 });
      // One column more than the trees use: a row width, so a walk, that no other forest here has,
      // prepared for the first time below.
      const d = forest.nFeatures + 1;
      const n = 30_011;
      const narrow = probeRows(forest.estimators, n, 'coded-prepare');
      const x = new Float64Array(n * d);
      for (let i = 0; i < n; i++) x.set(narrow.subarray(i * 4, i * 4 + 4), i * d);
      setPredictionThreads(2);
      const coded = new CodedTrees(forest.estimators, d, 2);
      coded.prepare();
      const sums = new Float64Array(n * 2);
      coded.addLeafValues(x, n, sums);
      const ref = referenceProba(forest.estimators, narrow);
      expect(sums.map((v) => v * (1 / 40))).toEqual(ref);
      expect(Array.from(coded.vote(x, n, 1 / 40).labels)).toEqual(
        Array.from({ length: n }, (_, i) => (ref[2 * i + 1]! > ref[2 * i]! ? 1 : 0)),
      );
      // Prepared once per walk: a second preparation costs nothing and changes nothing.
      new CodedTrees(forest.estimators, d, 2).prepare();
      expect(coded.vote(x, n, 1 / 40).labels).toEqual(forest.predict(narrow));
    });

    it('a preparation runs on forests of lone leaves, of three classes and in the wide layout', () => {
      setPredictionThreads(2);
      const data = threeClassData(600, 'coded-prepare-3');
      const forest = fitRandomForest(data, { nEstimators: 5, seed: 1 });
      const leaf = fitRandomForest(mixedData(50, 'coded-prepare-leaf'), {
        nEstimators: 3,
        minSamplesSplit: 51,
        seed: 1,
      });
      expect(leaf.estimators.every((t) => t.nodeCount === 1)).toBe(true);
      for (const [trees, K] of [
        [forest.estimators, 3],
        [leaf.estimators, 2],
      ] as const) {
        const d = trees[0]!.nFeatures;
        const x = probeRows(trees, 2_001, 'coded-prepare-rows');
        const ref = referenceProba(trees, x);
        for (const wide of [false, true]) {
          const coded = new CodedTrees(trees, d, K, wide);
          coded.prepare();
          const sums = new Float64Array(2_001 * K);
          coded.addLeafValues(x, 2_001, sums);
          expect(sums.map((v) => v * (1 / trees.length))).toEqual(ref);
        }
      }
    });

    it('rejects a thread count that is not a positive integer', () => {
      for (const bad of [0, -1, 1.5, Number.NaN, '2' as unknown as number]) {
        expect(() => setPredictionThreads(bad)).toThrow(OptionsError);
      }
      setPredictionThreads(2);
      expect(predictionThreads()).toBe(2);
    });
  });
});
