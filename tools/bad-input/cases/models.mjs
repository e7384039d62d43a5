import { createDataset } from '@fb/core';
import {
  classifierFromFunction,
  DecisionTree,
  fit,
  fitDecisionTree,
  fitLinearSvm,
  fitLogisticRegression,
  fitRandomForest,
  LinearSvm,
  LogisticRegression,
  modelFromJSON,
  RandomForest,
  trainTestSplit,
} from '@fb/models';
import { makeFixture } from '@fb/testkit';
import { fails, returns, unless } from '../src/cases.mjs';

const { dataset } = makeFixture(300);
const singleClass = createDataset({ schema: dataset.schema, x: dataset.x, y: new Int32Array(dataset.n) });
const tree = fitDecisionTree(dataset, { maxDepth: 4, seed: 1 });
const treeJson = JSON.parse(JSON.stringify(tree.toJSON()));
const forest = fitRandomForest(dataset, { nEstimators: 3, maxDepth: 3, seed: 1 });
const forestJson = JSON.parse(JSON.stringify(forest.toJSON()));
const logistic = fitLogisticRegression(dataset, {});
const logisticJson = JSON.parse(JSON.stringify(logistic.toJSON()));
const svm = fitLinearSvm(dataset, {});
const svmJson = JSON.parse(JSON.stringify(svm.toJSON()));

const b64 = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
const splits = [...tree.left.keys()].filter((t) => tree.left[t] >= 0);
const leaf = tree.left.findIndex((l) => l < 0);
/** The stored tree with some of its arrays changed. */
const storedTree = (change) => {
  const arrays = {
    left: tree.left.slice(),
    value: tree.value.slice(),
    threshold: tree.threshold.slice(),
    feature: tree.feature.slice(),
  };
  const extra = change(arrays) ?? {};
  const t = { ...treeJson.tree, ...extra };
  for (const k of Object.keys(arrays)) if (!(k in extra)) t[k] = b64(arrays[k]);
  return { ...treeJson, tree: t };
};
const fromTree = (change) => () => DecisionTree.fromJSON(storedTree(change));
const probe = dataset.x.subarray(0, 50);

export const cases = [
  fails('fit: options null', 'OPTIONS_INVALID', () => fit(dataset, null)),
  fails('fit: unknown model', 'OPTIONS_INVALID', () => fit(dataset, { model: 'boosted-stumps' })),
  fails('fit: unknown option', 'OPTIONS_UNKNOWN', () => fit(dataset, { model: 'decision-tree', depth: 3 })),
  fails('fit: function-valued option', 'OPTIONS_INVALID', () =>
    fit(dataset, { model: 'decision-tree', maxDepth: () => 3 }),
  ),
  fails('fit: maxDepth -1', 'OPTIONS_INVALID', () => fitDecisionTree(dataset, { maxDepth: -1 })),
  fails('fit: maxBins 1e9', 'OPTIONS_INVALID', () => fitDecisionTree(dataset, { maxBins: 1e9 })),
  fails('fit: forest of 1.5 trees', 'OPTIONS_INVALID', () => fitRandomForest(dataset, { nEstimators: 1.5 })),
  fails('fit: logistic l2 -1', 'OPTIONS_INVALID', () => fitLogisticRegression(dataset, { l2: -1 })),
  fails('fit: logistic on a single class', 'DATA_SINGLE_CLASS', () => fitLogisticRegression(singleClass, {})),
  fails('fit: tree on a single class', 'DATA_SINGLE_CLASS', () => fitDecisionTree(singleClass, {})),
  fails('fit: svm on a single class', 'DATA_SINGLE_CLASS', () => fitLinearSvm(singleClass, {})),
  fails('fit: a dataset that is not one', 'DATA_SHAPE', () => fitDecisionTree({ x: [1] }, {})),
  fails('fit: sample weights of the wrong length', 'DATA_SHAPE', () =>
    fitDecisionTree(dataset, {}, new Float64Array(3)),
  ),
  fails('fit: a negative sample weight', ['DATA_OUT_OF_DOMAIN', 'DATA_NOT_FINITE', 'OPTIONS_INVALID'], () =>
    fitDecisionTree(dataset, {}, new Float64Array(dataset.n).fill(-1)),
  ),
  fails('fit: NaN sample weights', ['DATA_NOT_FINITE', 'DATA_OUT_OF_DOMAIN'], () =>
    fitLogisticRegression(dataset, {}, new Float64Array(dataset.n).fill(Number.NaN)),
  ),
  fails('split: testFraction 2', 'OPTIONS_INVALID', () => trainTestSplit(dataset, { testFraction: 2 })),

  fails('predict: a batch of the wrong width', ['DATA_SHAPE', 'MODEL_MISMATCH'], () =>
    tree.predict(new Float64Array(7)),
  ),
  fails('predict: NaN in a row', ['DATA_NOT_FINITE', 'MODEL_OUTPUT'], () =>
    logistic.predict(new Float64Array(5).fill(Number.NaN)),
  ),

  fails('fromJSON: null', 'INTEROP_PARSE', () => modelFromJSON(null)),
  fails('fromJSON: unknown format', 'INTEROP_PARSE', () => modelFromJSON({ format: 'sklearn/pickle' })),
  fails('fromJSON: tree of another version', 'INTEROP_PARSE', () =>
    DecisionTree.fromJSON({ ...treeJson, version: 99 }),
  ),
  fails('fromJSON: tree without its arrays', 'INTEROP_PARSE', () =>
    DecisionTree.fromJSON({ ...treeJson, tree: {} }),
  ),
  fails('fromJSON: tree with a truncated array', 'INTEROP_PARSE', () =>
    DecisionTree.fromJSON({ ...treeJson, tree: { ...treeJson.tree, left: treeJson.tree.left.slice(0, 8) } }),
  ),
  fails('fromJSON: tree with nodeCount 1e9', 'INTEROP_PARSE', () =>
    DecisionTree.fromJSON({ ...treeJson, tree: { ...treeJson.tree, nodeCount: 1e9 } }),
  ),
  // A DAG (two nodes sharing children) used to load and then loop in predict().
  fails(
    'fromJSON: tree whose nodes share children (DAG)',
    'INTEROP_PARSE',
    fromTree((a) => void (a.left[splits[1]] = tree.left[splits[2]])),
  ),
  fails(
    'fromJSON: tree with a child pointing back',
    'INTEROP_PARSE',
    fromTree((a) => void (a.left[splits[1]] = 0)),
  ),
  fails(
    'fromJSON: tree with an unreachable node',
    'INTEROP_PARSE',
    fromTree((a) => void (a.left[0] = 3)),
  ),
  fails(
    'fromJSON: tree with left = -2 at a leaf',
    'INTEROP_PARSE',
    fromTree((a) => void (a.left[leaf] = -2)),
  ),
  fails(
    'fromJSON: tree splitting on feature 9',
    'INTEROP_PARSE',
    fromTree((a) => void (a.feature[0] = 9)),
  ),
  fails(
    'fromJSON: tree with a NaN threshold',
    'INTEROP_PARSE',
    fromTree((a) => void (a.threshold[0] = Number.NaN)),
  ),
  fails(
    'fromJSON: tree with an infinite threshold',
    'INTEROP_PARSE',
    fromTree((a) => void (a.threshold[0] = Number.POSITIVE_INFINITY)),
  ),
  fails(
    'fromJSON: tree with a NaN leaf',
    'INTEROP_PARSE',
    fromTree((a) => void (a.value[2 * leaf] = Number.NaN)),
  ),
  fails(
    'fromJSON: tree with a negative leaf share',
    'INTEROP_PARSE',
    fromTree((a) => void (a.value[2 * leaf] = -0.5)),
  ),
  fails(
    'fromJSON: tree with shares summing to 1.8',
    'INTEROP_PARSE',
    fromTree((a) => void a.value.set([0.9, 0.9], 2 * leaf)),
  ),
  fails(
    'fromJSON: tree with a wrong depth',
    'INTEROP_PARSE',
    fromTree(() => ({ maxDepth: 40 })),
  ),
  fails('fromJSON: tree with a bad schema', 'SCHEMA_INVALID', () =>
    DecisionTree.fromJSON({ ...treeJson, schema: { attributes: [] } }),
  ),
  fails('fromJSON: tree with unknown options', 'OPTIONS_UNKNOWN', () =>
    DecisionTree.fromJSON({ ...treeJson, options: { ...treeJson.options, depth: 2 } }),
  ),
  fails('fromJSON: forest with a DAG tree', 'INTEROP_PARSE', () =>
    RandomForest.fromJSON({
      ...forestJson,
      trees: [
        ...forestJson.trees.slice(0, 2),
        storedTree((a) => void (a.left[splits[1]] = tree.left[splits[2]])).tree,
      ],
    }),
  ),
  fails('fromJSON: forest missing a tree', 'INTEROP_PARSE', () =>
    RandomForest.fromJSON({ ...forestJson, trees: forestJson.trees.slice(1) }),
  ),
  fails('fromJSON: logistic with a NaN coefficient', 'INTEROP_PARSE', () =>
    LogisticRegression.fromJSON({
      ...logisticJson,
      coefficients: logisticJson.coefficients.map((c, i) => (i === 0 ? null : c)),
    }),
  ),
  fails('fromJSON: logistic with too few coefficients', 'INTEROP_PARSE', () =>
    LogisticRegression.fromJSON({ ...logisticJson, coefficients: logisticJson.coefficients.slice(1) }),
  ),
  fails('fromJSON: svm with NaN weights', 'INTEROP_PARSE', () =>
    LinearSvm.fromJSON({ ...svmJson, weights: b64(new Float64Array(svm.weights.length).fill(Number.NaN)) }),
  ),
  returns(
    'fromJSON: a stored tree predicts as the original',
    () => DecisionTree.fromJSON(treeJson).predict(probe),
    (p) =>
      unless(
        p.every((v, i) => v === tree.predict(probe)[i]),
        'predictions differ',
      ),
  ),
  returns(
    'fromJSON: a stored forest predicts as the original',
    async () => (await modelFromJSON(forestJson)).predictProba(probe),
    (p) =>
      unless(
        p.every((v, i) => v === forest.predictProba(probe)[i]),
        'probabilities differ',
      ),
  ),

  fails('function model: not a function', 'MODEL_MISSING', () =>
    classifierFromFunction(null, { nFeatures: 5 }),
  ),
  fails('function model: nFeatures 0', 'MODEL_MISMATCH', () =>
    classifierFromFunction(() => [], { nFeatures: 0 }),
  ),
  fails('function model: nClasses 1', 'MODEL_MISMATCH', () =>
    classifierFromFunction(() => [], { nFeatures: 5, nClasses: 1 }),
  ),
  fails('function model: returns a promise', 'MODEL_OUTPUT', () =>
    classifierFromFunction(async () => [0.5], { nFeatures: 5 }).predictProba(new Float64Array(5)),
  ),
  fails('function model: returns too few values', 'MODEL_OUTPUT', () =>
    classifierFromFunction(() => [], { nFeatures: 5 }).predictProba(new Float64Array(10)),
  ),
  fails('function model: returns 1.5', 'MODEL_OUTPUT', () =>
    classifierFromFunction((_x, n) => new Array(n).fill(1.5), { nFeatures: 5 }).predictProba(
      new Float64Array(5),
    ),
  ),
];
