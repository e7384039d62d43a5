// Fit / predict figures on UCI Adult (30,162 training rows, 15,060 test rows after dropping rows with
// missing values; 14 attributes, categorical ones as codes), side by side with scikit-learn when a
// python3 with sklearn is available: three rounds, each timing ours then scikit-learn's (A B A B A B),
// medians printed with the load average. Then first calls against later ones in fresh processes. Run
// `pnpm build` first, then `pnpm bench`. Data: FB_DATA_DIR, else ../shared/datasets next to the
// repository. Prints figures; not a test.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAdult } from '@fb/datasets';
import { evaluate, fit, predictionThreads, setPredictionThreads } from '../dist/index.js';
import { benchRows } from './rows.mjs';
import { findPython, writeSplits } from './sklearn.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.FB_DATA_DIR ?? path.resolve(here, '../../../../shared/datasets');
const train = await loadAdult({ dataDir, split: 'train' });
const test = await loadAdult({ dataDir, split: 'test' });
const d = train.d;
const big = benchRows(train, test);
const distinct = new Set();
for (let i = 0; i < 100_000; i++) distinct.add(big.subarray(i * d, i * d + d).join(','));

const ROUNDS = 3;
const median = (v) => [...v].sort((a, b) => a - b)[(v.length - 1) >> 1];
const s = (v) => `${v.toFixed(3)} s`;
const acc = (m) => evaluate(m, test).accuracy.toFixed(4);
async function timed(fn) {
  const t0 = performance.now();
  const out = await fn();
  return [(performance.now() - t0) / 1000, out];
}

// A single tree predicts 100,000 rows in milliseconds, where one call's time moves by a third from call
// to call: both sides take the best of five calls (bench/sklearn_adult.py does the same).
async function bestOf5(fn) {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 5; r++) best = Math.min(best, (await timed(fn))[0]);
  return best;
}

const python = findPython();
const dir = mkdtempSync(path.join(tmpdir(), 'fb-models-bench-'));
writeSplits(dir, train, test);
const queries = [];
for (let i = 0; i < 100_000; i++) queries.push(big.subarray(i * d, i * d + d).join(','));
writeFileSync(path.join(dir, 'queries.csv'), `${queries.join('\n')}\n`);

const threads = predictionThreads();
console.log(
  `Adult: ${train.n} training rows, ${test.n} test rows, ${d} attributes; Node ${process.version}; ` +
    `${ROUNDS} rounds, ours then scikit-learn in each; load average ${loadavg()[0].toFixed(1)} on entry`,
);
const ours = {};
const sk = [];
const add = (key, value) => {
  ours[key] ??= [];
  ours[key].push(value);
};
let forest;
let tree;
let fullTree;
try {
  for (let round = 0; round < ROUNDS; round++) {
    setPredictionThreads('auto');
    const [fitS, f] = await timed(() => fit(train, { model: 'random-forest', nEstimators: 100, seed: 0 }));
    forest = f;
    add('forestFit', fitS);
    setPredictionThreads(1);
    add(
      'forestFit1',
      (await timed(() => fit(train, { model: 'random-forest', nEstimators: 100, seed: 0 })))[0],
    );
    add('predict1', (await timed(() => forest.predict(big)))[0]);
    add('proba1', (await timed(() => forest.predictProba(big)))[0]);
    setPredictionThreads('auto');
    add('predict', (await timed(() => forest.predict(big)))[0]);
    add('proba', (await timed(() => forest.predictProba(big)))[0]);
    const [treeFit, t] = await timed(() => fit(train, { model: 'decision-tree', maxDepth: 10 }));
    tree = t;
    add('treeFit', treeFit);
    add('treePredict', await bestOf5(() => tree.predict(big)));
    const [fullFit, ft] = await timed(() => fit(train, { model: 'decision-tree' }));
    fullTree = ft;
    add('fullTreeFit', fullFit);
    add('fullTreePredict', await bestOf5(() => fullTree.predict(big)));
    if (round === 0) {
      const [lrFit, lr] = await timed(() => fit(train, { model: 'logistic-regression' }));
      ours.logistic = { fit: lrFit, accuracy: acc(lr), columns: lr.encoder.encodedWidth, solver: lr.solver };
      const [svmFit, svm] = await timed(() => fit(train, { model: 'linear-svm' }));
      ours.svm = { fit: svmFit, accuracy: acc(svm), converged: svm.converged };
    }
    if (python) {
      sk.push(
        JSON.parse(
          execFileSync(python, [path.join(here, 'sklearn_adult.py'), dir, round === 0 ? 'all' : 'trees'], {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'ignore'],
          }),
        ),
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true });
}
const m = Object.fromEntries(Object.entries(ours).map(([k, v]) => [k, Array.isArray(v) ? median(v) : v]));
const rate = (sec) => `${Math.round(100_000 / sec).toLocaleString('en')} rows/s`;
const nodes = forest.estimators.reduce((a, t) => a + t.nodeCount, 0) / 100;
console.log(`ours (medians of ${ROUNDS}):`);
console.log(
  `  random forest (100 trees, ${nodes.toFixed(0)} nodes/tree): fit ${s(m.forestFit)} on ${threads} threads, ` +
    `${s(m.forestFit1)} on one; test accuracy ${acc(forest)}`,
);
console.log(
  `  forest on 100,000 rows (${distinct.size.toLocaleString('en')} distinct): predict ${s(m.predict)} on ${threads} threads ` +
    `(${rate(m.predict)}), ${s(m.predict1)} on one (${rate(m.predict1)}); predictProba ${s(m.proba)} on ${threads} ` +
    `threads (${rate(m.proba)}), ${s(m.proba1)} on one (${rate(m.proba1)})`,
);
console.log(
  `  decision tree (maxDepth 10, ${tree.nodeCount} nodes): fit ${s(m.treeFit)}, predict 100,000 rows ${s(m.treePredict)}, ` +
    `test accuracy ${acc(tree)}`,
);
console.log(
  `  decision tree (grown out, ${fullTree.nodeCount} nodes): fit ${s(m.fullTreeFit)}, predict 100,000 rows ` +
    `${s(m.fullTreePredict)}, test accuracy ${acc(fullTree)}`,
);
console.log(
  `  logistic regression (one-hot, ${ours.logistic.columns} columns, ${ours.logistic.solver}): fit ${s(ours.logistic.fit)}, ` +
    `test accuracy ${ours.logistic.accuracy}`,
);
console.log(
  `  linear SVM (one-hot, Platt on 5 folds): fit ${s(ours.svm.fit)} (6 solves), test accuracy ${ours.svm.accuracy}, ` +
    `converged=${ours.svm.converged}`,
);
// The MLP against scikit-learn's MLPClassifier: bench/mlp.mjs.
console.log(`  peak resident memory: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);

if (sk.length === 0) {
  console.log('scikit-learn: not available (no python3 with sklearn), comparison skipped');
} else {
  const k = (f) => median(sk.map(f));
  const first = sk[0];
  console.log(`scikit-learn ${first.version} on the same matrices (medians of ${sk.length}):`);
  for (const jobs of [1, 2]) {
    const key = `forest_jobs${jobs}`;
    console.log(
      `  RandomForestClassifier(100, n_jobs=${jobs}): fit ${s(k((r) => r[key].fit))}, predict 100,000 rows ` +
        `${s(k((r) => r[key].predict100k))}, accuracy ${first[key].accuracy.toFixed(4)}`,
    );
  }
  for (const [key, name] of [
    ['tree', 'DecisionTreeClassifier(max_depth=10)'],
    ['fullTree', 'DecisionTreeClassifier()'],
  ]) {
    console.log(
      `  ${name}: fit ${s(k((r) => r[key].fit))}, predict 100,000 rows ${s(k((r) => r[key].predict100k))}, ` +
        `accuracy ${first[key].accuracy.toFixed(4)}`,
    );
  }
  console.log(
    `  LogisticRegression (one-hot + scaled): fit ${s(first.logistic.fit)}, accuracy ${first.logistic.accuracy.toFixed(4)}`,
  );
  console.log(
    `  LinearSVC(hinge) (one-hot + scaled): fit ${s(first.svm.fit)}, accuracy ${first.svm.accuracy.toFixed(4)}`,
  );
  // Ratios per round (each of ours against the scikit-learn run right after it), then their median.
  const ratio = (ourKey, f) => median(ours[ourKey].map((v, r) => v / f(sk[r]))).toFixed(2);
  console.log('ratios ours / scikit-learn (median over rounds of the ratio within a round):');
  console.log(
    `  forest fit ${ratio('forestFit', (r) => r.forest_jobs2.fit)}x (${threads} threads vs n_jobs=2), ` +
      `${ratio('forestFit1', (r) => r.forest_jobs1.fit)}x (one thread vs n_jobs=1); ` +
      `forest predict ${ratio('predict', (r) => r.forest_jobs2.predict100k)}x (vs n_jobs=2)`,
  );
  console.log(
    `  tree (depth 10) fit ${ratio('treeFit', (r) => r.tree.fit)}x, predict ${ratio('treePredict', (r) => r.tree.predict100k)}x; ` +
      `grown-out tree fit ${ratio('fullTreeFit', (r) => r.fullTree.fit)}x, predict ${ratio('fullTreePredict', (r) => r.fullTree.predict100k)}x`,
  );
}
console.log(`load average ${loadavg()[0].toFixed(1)} at the end`);

// First calls against later ones, in fresh processes.
await import('./first-calls.mjs');
