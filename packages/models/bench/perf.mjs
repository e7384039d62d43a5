// Fit / predict figures on UCI Adult (30,162 training rows, 15,060 test rows after dropping rows with
// missing values; 14 attributes, categorical ones as codes), side by side with scikit-learn when a
// python3 with sklearn is available. Run `pnpm build` first, then `pnpm bench`. Data: FB_DATA_DIR, else
// ../shared/datasets next to the repository. Prints figures; not a test.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from '@fb/core';
import { loadAdult } from '@fb/datasets';
import { evaluate, fit, predictionThreads, setPredictionThreads } from '../dist/index.js';
import { findPython, writeSplits } from './sklearn.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.FB_DATA_DIR ?? path.resolve(here, '../../../../shared/datasets');
const train = await loadAdult({ dataDir, split: 'train' });
const test = await loadAdult({ dataDir, split: 'test' });
const d = train.d;
// 100,000 queries shaped like a fairness tester's: the test rows, then copies of them with two attributes
// replaced by values of random training rows (so that most rows are distinct).
const big = new Float64Array(100_000 * d);
const rng = Rng.create('models-bench');
for (let i = 0; i < 100_000; i++) {
  big.set(test.x.subarray((i % test.n) * d, (i % test.n) * d + d), i * d);
  if (i < test.n) continue;
  for (let k = 0; k < 2; k++) {
    const j = rng.int(0, d - 1);
    big[i * d + j] = train.x[rng.int(0, train.n - 1) * d + j];
  }
}
const distinct = new Set();
for (let i = 0; i < 100_000; i++) distinct.add(big.subarray(i * d, i * d + d).join(','));

async function bestOf(repeat, fn) {
  let best = Number.POSITIVE_INFINITY;
  let out;
  for (let r = 0; r < repeat; r++) {
    const t0 = performance.now();
    out = await fn();
    best = Math.min(best, (performance.now() - t0) / 1000);
  }
  return [best, out];
}
const s = (v) => `${v.toFixed(3)} s`;
const acc = (m) => evaluate(m, test).accuracy.toFixed(4);

console.log(`Adult: ${train.n} training rows, ${test.n} test rows, ${d} attributes; Node ${process.version}`);
const ours = {};
{
  const [fitS, forest] = await bestOf(2, () =>
    fit(train, { model: 'random-forest', nEstimators: 100, seed: 0 }),
  );
  const threads = predictionThreads();
  setPredictionThreads(1);
  const [oneS] = await bestOf(3, () => forest.predict(big));
  const [probaOneS] = await bestOf(3, () => forest.predictProba(big));
  setPredictionThreads('auto');
  const [predS] = await bestOf(3, () => forest.predict(big));
  const [probaS] = await bestOf(3, () => forest.predictProba(big));
  const nodes = forest.estimators.reduce((a, t) => a + t.nodeCount, 0) / 100;
  const rate = (sec) => `${Math.round(100_000 / sec).toLocaleString('en')} rows/s`;
  ours.forest = { fit: fitS, predict100k: predS, proba100k: probaS, accuracy: acc(forest) };
  console.log(
    `random forest (100 trees, ${nodes.toFixed(0)} nodes/tree): fit ${s(fitS)}, test accuracy ${ours.forest.accuracy}; ` +
      `100,000 rows (${distinct.size.toLocaleString('en')} distinct): predict ${s(predS)} on ${threads} threads (${rate(predS)}), ` +
      `${s(oneS)} on one (${rate(oneS)}); predictProba ${s(probaS)} on ${threads} threads (${rate(probaS)}), ` +
      `${s(probaOneS)} on one (${rate(probaOneS)})`,
  );
}
{
  const [fitS, tree] = await bestOf(5, () => fit(train, { model: 'decision-tree', maxDepth: 10 }));
  ours.tree = { fit: fitS, accuracy: acc(tree) };
  console.log(`decision tree (maxDepth 10): fit ${s(fitS)}, test accuracy ${ours.tree.accuracy}`);
}
{
  const [fitS, lr] = await bestOf(3, () => fit(train, { model: 'logistic-regression' }));
  ours.logistic = { fit: fitS, accuracy: acc(lr) };
  console.log(
    `logistic regression (one-hot, ${lr.encoder.encodedWidth} columns, ${lr.solver}): fit ${s(fitS)}, test accuracy ${ours.logistic.accuracy}`,
  );
}
{
  const [fitS, svm] = await bestOf(3, () => fit(train, { model: 'linear-svm' }));
  ours.svm = { fit: fitS, accuracy: acc(svm) };
  console.log(
    `linear SVM (one-hot, Platt on 5 folds): fit ${s(fitS)} (6 solves), test accuracy ${ours.svm.accuracy}, converged=${svm.converged}`,
  );
}
// The MLP against scikit-learn's MLPClassifier: bench/mlp.mjs.
console.log(`peak resident memory: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);

const python = findPython();
if (!python) {
  console.log('scikit-learn: not available (no python3 with sklearn), comparison skipped');
} else {
  const dir = mkdtempSync(path.join(tmpdir(), 'fb-models-bench-'));
  writeSplits(dir, train, test);
  const queries = [];
  for (let i = 0; i < 100_000; i++) queries.push(big.subarray(i * d, i * d + d).join(','));
  writeFileSync(path.join(dir, 'queries.csv'), `${queries.join('\n')}\n`);
  const sk = JSON.parse(
    execFileSync(python, [path.join(here, 'sklearn_adult.py'), dir], { encoding: 'utf8' }),
  );
  rmSync(dir, { recursive: true });
  console.log(`scikit-learn ${sk.version} on the same matrices:`);
  for (const jobs of [1, 2]) {
    const f = sk[`forest_jobs${jobs}`];
    console.log(
      `  RandomForestClassifier(100, n_jobs=${jobs}): fit ${s(f.fit)}, predict 100,000 rows ${s(f.predict100k)}, accuracy ${f.accuracy.toFixed(4)}`,
    );
  }
  console.log(
    `  DecisionTreeClassifier(max_depth=10): fit ${s(sk.tree.fit)}, accuracy ${sk.tree.accuracy.toFixed(4)}`,
  );
  console.log(
    `  LogisticRegression (one-hot + scaled): fit ${s(sk.logistic.fit)}, accuracy ${sk.logistic.accuracy.toFixed(4)}`,
  );
  console.log(
    `  LinearSVC(hinge) (one-hot + scaled): fit ${s(sk.svm.fit)}, accuracy ${sk.svm.accuracy.toFixed(4)}`,
  );
  console.log(
    `ratios (ours / scikit-learn): forest fit ${(ours.forest.fit / sk.forest_jobs2.fit).toFixed(2)}x vs n_jobs=2, ` +
      `${(ours.forest.fit / sk.forest_jobs1.fit).toFixed(2)}x vs n_jobs=1; forest predict ` +
      `${(ours.forest.predict100k / sk.forest_jobs2.predict100k).toFixed(2)}x; tree fit ${(ours.tree.fit / sk.tree.fit).toFixed(2)}x`,
  );
}
