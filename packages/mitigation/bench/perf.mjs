// Disparity before/after and accuracy cost of each mitigation, on planted-bias data from @fb/synth
// (one protected value carries a logit shift of -3). Run after `pnpm build`: node bench/perf.mjs
import { CounterfactualChecker, CountingClassifier, DomainSampler, Rng, RunController } from '@fb/core';
import { equalizedOdds, modelStatisticalParity, subgroupsOf } from '@fb/metrics';
import { accuracyScore, fitLogisticRegression, trainTestSplit } from '@fb/models';
import { generatePlantedPair } from '@fb/synth';
import {
  fitAdversarialDebiasing,
  fitMmdVae,
  ModelBiasMitigator,
  optimizeThresholds,
  retrainWithDiscrimination,
  reweighing,
  withGroupThresholds,
} from '../dist/index.js';

const { dataset, truth } = generatePlantedPair({ rows: 6000, bias: -3, granularity: 0, signal: 2 }, 1);
const attr = truth.pair.protectedAttribute;
const protectedAttributes = [attr];
const outer = trainTestSplit(dataset, { testFraction: 0.3, seed: 1 });
const inner = trainTestSplit(outer.train, { testFraction: 0.3, seed: 2 });
const { train, test: validation } = inner;
const { test } = outer;
const groups = subgroupsOf(test, protectedAttributes);
const sp = (pred) => modelStatisticalParity(null, pred, groups);
const eo = (pred) => equalizedOdds(test.y, pred, groups);
const acc = (pred) => accuracyScore(test.y, pred);
console.log(
  `planted pair: ${dataset.n} rows (train ${train.n}, validation ${validation.n}, test ${test.n}), disadvantaged value of ${attr}; disparities over ${attr}, on the test rows`,
);

const rows = [];
const record = (name, metric, before, after, t0) =>
  rows.push({
    mitigation: name,
    metric,
    before: before.value.toFixed(3),
    after: after.value.toFixed(3),
    'accuracy before': before.acc.toFixed(3),
    'accuracy after': after.acc.toFixed(3),
    seconds: ((performance.now() - t0) / 1000).toFixed(2),
  });
const measure = (pred, f) => ({ value: f(pred), acc: acc(pred) });

const base = fitLogisticRegression(train);
const basePred = base.predict(test.x);

let t0 = performance.now();
const rw = fitLogisticRegression(train, {}, reweighing(train, { protectedAttributes }));
record('reweighing (DP)', 'statistical parity', measure(basePred, sp), measure(rw.predict(test.x), sp), t0);

t0 = performance.now();
const proba = base.predictProba(validation.x);
const scores = Float64Array.from({ length: validation.n }, (_, i) => proba[i * 2 + 1]);
const th = optimizeThresholds(scores, validation.y, subgroupsOf(validation, protectedAttributes), {
  gridSize: 50,
});
const thModel = withGroupThresholds(base, train, th.thresholds, { protectedAttributes });
record(
  'group thresholds (EO, eps 0.05)',
  'equalized odds',
  measure(basePred, eo),
  measure(thModel.predict(test.x), eo),
  t0,
);

t0 = performance.now();
const mitigator = await new ModelBiasMitigator(base, { protectedAttributes }).fit(validation);
record(
  'probability multipliers (SP, 5 % rel.)',
  'statistical parity',
  measure(basePred, sp),
  measure(mitigator.predict(test.x), sp),
  t0,
);

t0 = performance.now();
const checker = new CounterfactualChecker(train.schema, new CountingClassifier(base), new RunController());
const inputs = new Float64Array(5000 * train.d);
new DomainSampler(train.schema).fill(Rng.create(3), inputs);
checker.check(inputs);
const retrain = await retrainWithDiscrimination(
  {
    fit: (ds) => fitLogisticRegression(ds),
    training: train,
    discovery: { findings: checker.findings() },
    model: base,
  },
  { shareOf: 'training', share: 0.05 },
);
const rtPred = retrain.model.predict(test.x);
record(
  'retraining with discovered IDs (5 % of |train|)',
  'statistical parity',
  measure(basePred, sp),
  measure(rtPred, sp),
  t0,
);
rows.push({
  mitigation: '  same, individual discrimination',
  metric: 'discriminatory share of 10,000 fresh inputs',
  before: retrain.before.fresh.rate.toFixed(3),
  after: retrain.after.fresh.rate.toFixed(3),
  'accuracy before': '',
  'accuracy after': '',
  seconds: '',
});

t0 = performance.now();
const plain = await fitAdversarialDebiasing(train, {
  protectedAttributes,
  adversaryWeight: 0,
  projection: false,
});
const adv = await fitAdversarialDebiasing(train, { protectedAttributes });
record(
  'adversarial debiasing (DP) vs same net without adversary',
  'statistical parity',
  measure(plain.predict(test.x), sp),
  measure(adv.predict(test.x), sp),
  t0,
);

t0 = performance.now();
const vae0 = await fitMmdVae(train, { protectedAttributes, mmdWeight: 0 });
const vae = await fitMmdVae(train, { protectedAttributes });
record(
  'MMD-VAE representation + head vs lambda 0',
  'statistical parity',
  measure(vae0.predict(test.x), sp),
  measure(vae.predict(test.x), sp),
  t0,
);

console.table(rows);
