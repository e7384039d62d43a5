import { methodRegistry } from '@fb/bench';
import { checkResult, createDataset, defineSchema } from '@fb/core';
import { makeFixture } from '@fb/testkit';
import { fails, failsOrReturns, returns, unless, withBudget } from '../src/cases.mjs';
import { wideTable } from '../src/wide.mjs';

// Every detector of the study, through its public run(): bad options, data, models and contexts.
const fixture = makeFixture(300);
const { dataset } = fixture;
/** The fixture's model with input gradients of its score (central differences), for white-box methods. */
const model = {
  nFeatures: 5,
  nClasses: 2,
  predict: (x) => fixture.model.predict(x),
  predictProba: (x) => fixture.model.predictProba(x),
  scoreGradient(x) {
    const n = x.length / 5;
    const score = new Float64Array(n);
    const gradient = new Float64Array(x.length);
    const p = (row) => fixture.model.score(row, 0);
    for (let i = 0; i < n; i++) {
      const row = x.slice(5 * i, 5 * i + 5);
      score[i] = p(row);
      for (let j = 0; j < 5; j++) {
        const v = row[j];
        row[j] = v + 1e-4;
        const up = p(row);
        row[j] = v - 1e-4;
        gradient[5 * i + j] = (up - p(row)) / 2e-4;
        row[j] = v;
      }
    }
    return { score, gradient };
  },
};
const valid = (r) => {
  const { valid, errors } = checkResult(r);
  return unless(valid, `invalid result: ${errors}`);
};
/** A model that answers like the fixture's but breaks one promise. */
const broken = (over) => {
  return { ...model, ...over };
};
const withX = (change) => {
  const x = dataset.x.slice();
  change(x);
  return { schema: dataset.schema, x, y: dataset.y, n: dataset.n, d: dataset.d };
};
const quick = { budget: { maxSeconds: 1 } };
// 3,000 rows of 40 attributes: enough work that a method polling its budget only between long phases
// overruns it (src/budget-overrun.mjs prints every method's figure on larger tables).
const wide40 = wideTable(3000, 40);

// A schema whose non-protected ordinal spans 2^32 + 1 values: it used to wrap to one value.
const wideSchema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['m', 'f'] },
    { name: 'wide', kind: 'ordinal', protected: false, min: 0, max: 2 ** 32 },
    { name: 'job', kind: 'categorical', protected: false, categories: ['a', 'b', 'c'] },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});
const wide = (() => {
  const n = 200;
  const x = new Float64Array(3 * n);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    x[3 * i] = i % 2;
    x[3 * i + 1] = (i * 21_474_836) % 2 ** 32;
    x[3 * i + 2] = i % 3;
    y[i] = x[3 * i + 1] > 2 ** 31 !== (i % 2 === 1) ? 1 : 0;
  }
  return createDataset({ schema: wideSchema, x, y });
})();
// Decides on sex for large values of `wide`: discrimination only a search over the whole range finds.
const wideModel = {
  nFeatures: 3,
  nClasses: 2,
  predictProba(x) {
    const n = x.length / 3;
    const out = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const p = x[3 * i + 1] > 2 ** 31 ? (x[3 * i] === 1 ? 0.9 : 0.1) : 0.3;
      out[2 * i] = 1 - p;
      out[2 * i + 1] = p;
    }
    return out;
  },
  // Piecewise constant: a zero gradient, which white-box methods must cope with.
  scoreGradient(x) {
    const p = this.predictProba(x);
    return {
      score: Float64Array.from({ length: x.length / 3 }, (_, i) => p[2 * i + 1]),
      gradient: new Float64Array(x.length),
    };
  },
  predict(x) {
    const p = this.predictProba(x);
    return Int32Array.from({ length: x.length / 3 }, (_, i) => (p[2 * i + 1] >= 0.5 ? 1 : 0));
  },
};

export const cases = methodRegistry.flatMap((det) => {
  const id = (what) => `${det.id}: ${what}`;
  const run = (input, options, context) => () => det.run(input, options, context);
  const cs = [
    // Every run with a time budget ends within BUDGET_GRACE_SECONDS of it (the harness times it).
    withBudget(
      2,
      failsOrReturns(
        id('budget 2 s on 3,000 rows x 40 attributes'),
        'MODEL_MISSING',
        run(wide40, {}, { seed: 1, budget: { maxSeconds: 2 } }),
        (r) =>
          valid(r) ??
          unless(
            r.run.stopReason === 'completed' || r.run.stopReason === 'time-budget',
            `stopReason ${r.run.stopReason}`,
          ),
      ),
    ),
    fails(id('options null'), 'OPTIONS_INVALID', run({ dataset, model }, null)),
    fails(id('options a number'), 'OPTIONS_INVALID', run({ dataset, model }, 7)),
    fails(id('unknown option'), 'OPTIONS_UNKNOWN', run({ dataset, model }, { noSuchOption: 1 })),
    fails(
      id('function-valued option'),
      'OPTIONS_INVALID',
      run({ dataset, model }, { noSuchOption: () => 1 }),
    ),
    fails(id('input null'), 'MODEL_MISSING', run(null)),
    fails(id('dataset missing'), 'DATA_SHAPE', run({ model })),
    fails(
      id('dataset with x as an array'),
      'DATA_SHAPE',
      run({ dataset: { ...dataset, x: [...dataset.x] }, model }),
    ),
    fails(
      id('NaN in the data'),
      'DATA_NOT_FINITE',
      run({ dataset: withX((x) => (x[7] = Number.NaN)), model }),
    ),
    fails(
      id('category code out of its domain'),
      'DATA_OUT_OF_DOMAIN',
      run({ dataset: withX((x) => (x[0] = 5)), model }),
    ),
    fails(
      id('a single outcome class'),
      'DATA_SINGLE_CLASS',
      run({ dataset: { ...dataset, y: new Int32Array(dataset.n) }, model }),
    ),
    fails(
      id('no rows'),
      'DATA_EMPTY',
      run({ dataset: { schema: dataset.schema, x: new Float64Array(0), y: new Int32Array(0) }, model }),
    ),
    fails(
      id('model of the wrong width'),
      'MODEL_MISMATCH',
      run({ dataset, model: broken({ nFeatures: 4 }) }),
    ),
    fails(
      id('model nClasses 3 for 2 labels'),
      'MODEL_MISMATCH',
      run({ dataset, model: broken({ nClasses: 3 }) }),
    ),
    fails(id('model nClasses 1.5'), 'MODEL_MISMATCH', run({ dataset, model: broken({ nClasses: 1.5 }) })),
    fails(
      id('model without predict'),
      'MODEL_MISSING',
      run({ dataset, model: { nFeatures: 5, nClasses: 2 } }),
    ),
    fails(
      id('budget maxSeconds -1'),
      'OPTIONS_INVALID',
      run({ dataset, model }, {}, { budget: { maxSeconds: -1 } }),
    ),
    fails(
      id('budget maxTested 1.5'),
      'OPTIONS_INVALID',
      run({ dataset, model }, {}, { budget: { maxTested: 1.5 } }),
    ),
    fails(
      id('budget maxPairs 0'),
      'OPTIONS_INVALID',
      run({ dataset, model }, {}, { budget: { maxPairs: 0 } }),
    ),
    fails(
      id('unknown budget field'),
      'OPTIONS_UNKNOWN',
      run({ dataset, model }, {}, { budget: { maxMinutes: 1 } }),
    ),
    fails(id('budget null'), 'OPTIONS_INVALID', run({ dataset, model }, {}, { budget: null })),
    fails(id('seed 1.5'), 'RNG_INVALID_ARGUMENT', run({ dataset, model }, {}, { seed: 1.5 })),
    // Whatever the method asks of the model, a broken answer is refused, never used.
    failsOrReturns(
      id('model predicts class 7'),
      'MODEL_OUTPUT',
      run({ dataset, model: broken({ predict: (x) => new Int32Array(x.length / 5).fill(7) }) }, {}, quick),
      valid,
    ),
    failsOrReturns(
      id('model predicts too few labels'),
      'MODEL_OUTPUT',
      run({ dataset, model: broken({ predict: () => new Int32Array(1) }) }, {}, quick),
      valid,
    ),
    failsOrReturns(
      id('probabilities summing to 1.8'),
      'MODEL_OUTPUT',
      run(
        { dataset, model: broken({ predictProba: (x) => model.predictProba(x).map((p) => p * 1.8) }) },
        {},
        quick,
      ),
      valid,
    ),
    failsOrReturns(
      id('NaN probabilities'),
      'MODEL_OUTPUT',
      run(
        {
          dataset,
          model: broken({ predictProba: (x) => new Float64Array(2 * (x.length / 5)).fill(Number.NaN) }),
        },
        {},
        quick,
      ),
      valid,
    ),
    returns(
      id('an already aborted signal'),
      run({ dataset, model }, {}, { signal: AbortSignal.abort() }),
      (r) =>
        valid(r) ?? unless(r.run.aborted && r.run.stopReason === 'aborted', `stopReason ${r.run.stopReason}`),
    ),
  ];
  if (!det.requiresModel) {
    // A data-only method may still need predictions for its default metrics: then it says so.
    cs.push(failsOrReturns(id('no model (data only)'), 'MODEL_MISSING', run({ dataset }, {}, quick), valid));
  } else {
    cs.push(fails(id('no model'), 'MODEL_MISSING', run({ dataset })));
  }
  if (det.kind === 'individual') {
    cs.push(
      returns(
        id('ordinal spanning 2^32 + 1 values'),
        run({ dataset: wide, model: wideModel }, {}, { budget: { maxTested: 300, maxSeconds: 5 } }),
        (r) => {
          const bad = valid(r);
          if (bad) return bad;
          const inDomain = r.findings.pairs.every((p) =>
            [p.sample, p.counterfactual].every((v) => Number.isInteger(v[1]) && v[1] >= 0 && v[1] <= 2 ** 32),
          );
          // A search that says it completed must have searched more than one point.
          const searched = r.run.stopReason !== 'completed' || r.metrics.tsn > 1;
          return (
            unless(inDomain, 'a pair leaves the domain') ??
            unless(searched, `completed after testing ${r.metrics.tsn} input(s)`)
          );
        },
      ),
      returns(
        id('budget.maxPairs 2 keeps 2 pairs, counts all'),
        run({ dataset, model }, {}, { budget: { maxPairs: 2, maxSeconds: 2 } }),
        (r) =>
          valid(r) ??
          unless(
            r.findings.pairs.length === Math.min(2, r.metrics.pairs),
            `${r.findings.pairs.length} kept of ${r.metrics.pairs}`,
          ) ??
          unless(r.budget.maxPairs === 2, 'budget.maxPairs not recorded'),
      ),
    );
  }
  if (det.id === 'sg' || det.id === 'expga') {
    // One explanation is one batch no budget interrupts: a huge one overran budgets or threw RangeError.
    cs.push(
      fails(id('limeSamples 2e7'), 'OPTIONS_INVALID', run({ dataset, model }, { limeSamples: 2e7 })),
      fails(id('limeSamples 5e8'), 'OPTIONS_INVALID', run({ dataset, model }, { limeSamples: 5e8 })),
    );
  }
  // The cases above that run under a time budget: the harness holds them to it.
  const budgets = new Map([
    ...['model predicts class 7', 'model predicts too few labels', 'probabilities summing to 1.8'].map(
      (w) => [id(w), 1],
    ),
    [id('NaN probabilities'), 1],
    [id('no model (data only)'), 1],
    [id('ordinal spanning 2^32 + 1 values'), 5],
    [id('budget.maxPairs 2 keeps 2 pairs, counts all'), 2],
  ]);
  return cs.map((c) =>
    budgets.has(c.id) && c.maxSeconds === undefined ? withBudget(budgets.get(c.id), c) : c,
  );
});
