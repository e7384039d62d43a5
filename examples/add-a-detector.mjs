// Add a detector: a minimal subgroup method built with defineSubgroupDetector of @fb/core, run on a small
// dataset with a planted disparity.
//
//   node examples/add-a-detector.mjs
//
// The method ("decision gaps") asks the model for its decision on every row, and compares the
// favourable-decision rate of each value of a protected attribute, alone or together with one value of
// another categorical attribute, with the rate of all other rows. It reports the k largest gaps. A real
// method gets its own package, tests, conformance suite and README: `pnpm new:method subgroup <name>`
// scaffolds all of it (see docs/contributing.md).
import { createDataset, defineSchema, defineSubgroupDetector, describeSubgroup, memberMask } from '@fb/core';

/** @typedef {{ k: number }} Options */
const decisionGaps = defineSubgroupDetector(
  /** @type {import('@fb/core').SubgroupDetectorSpec<Options>} */ ({
    id: 'decision-gaps',
    version: '0.0.0',
    access: 'black-box',
    description:
      'Largest gaps in favourable-decision rate between a protected value (or a pair) and the rest.',
    requiresModel: true,
    // The options' JSON Schema: defaults are filled in and anything else is refused with an OptionsError.
    optionsSchema: {
      type: 'object',
      properties: {
        k: { type: 'integer', minimum: 1, default: 3, description: 'Subgroups reported.' },
      },
    },
    async scan({ dataset, model, options, ctl }) {
      const { schema, n } = dataset;
      // One batched query for every row (the model is wrapped to count queries for the result).
      const decisions = model.predict(dataset.x);
      const favourable = schema.outcome.favorable;

      // Candidate subgroups: every value of a protected categorical attribute, alone or with one value of
      // another categorical attribute.
      const categorical = schema.attributes.filter((a) => a.kind === 'categorical');
      const candidates = [];
      for (const a of categorical.filter((a) => a.protected)) {
        a.categories.forEach((_, v) => {
          candidates.push([{ attribute: a.name, values: [v] }]);
          for (const b of categorical.filter((b) => b.name !== a.name && (!b.protected || b.name > a.name)))
            b.categories.forEach((_, w) => {
              candidates.push([
                { attribute: a.name, values: [v] },
                { attribute: b.name, values: [w] },
              ]);
            });
        });
      }

      const found = [];
      for (const conditions of candidates) {
        if (ctl.shouldStop()) break; // time budget or abort: report what was scanned
        const mask = memberMask(dataset, conditions);
        let inside = 0;
        let inFavourable = 0;
        let outFavourable = 0;
        for (let i = 0; i < n; i++) {
          const f = decisions[i] === favourable ? 1 : 0;
          if (mask[i]) {
            inside++;
            inFavourable += f;
          } else outFavourable += f;
        }
        if (inside === 0 || inside === n) continue;
        const effect = inFavourable / inside - outFavourable / (n - inside);
        found.push({ conditions, size: inside, effect });
      }
      found.sort((p, q) => Math.abs(q.effect) - Math.abs(p.effect));
      const subgroups = found.slice(0, options.k).map(
        (s, r) =>
          /** @type {import('@fb/core').SubgroupFinding} */ ({
            rank: r + 1,
            conditions: s.conditions,
            size: s.size,
            score: Math.abs(s.effect),
            effect: s.effect,
            pValue: null, // no test: a gap is a description, not evidence (a real method says what it controls)
            direction: s.effect < 0 ? 'lower' : 'higher',
            details: {},
          }),
      );
      return { subgroups, extras: { candidates: candidates.length } };
    },
  }),
);

// Every combination of sex, region and income 0..99 once (600 rows). The model approves incomes of 50
// and more, except for women in the south, whom it approves from 80 only.
const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['male', 'female'] },
    { name: 'region', kind: 'categorical', protected: false, categories: ['north', 'south', 'east'] },
    { name: 'income', kind: 'ordinal', protected: false, min: 0, max: 99, step: 1 },
  ],
  outcome: { name: 'loan', labels: ['denied', 'approved'], favorable: 1 },
});
const x = [];
for (let sex = 0; sex < 2; sex++)
  for (let region = 0; region < 3; region++)
    for (let income = 0; income < 100; income++) x.push(sex, region, income);
const approves = (sex, region, income) => income >= (sex === 1 && region === 1 ? 80 : 50);
const model = {
  nFeatures: 3,
  nClasses: 2,
  /** @param {Float64Array} rows */
  predict: (rows) =>
    Int32Array.from({ length: rows.length / 3 }, (_, i) =>
      approves(rows[3 * i], rows[3 * i + 1], rows[3 * i + 2]) ? 1 : 0,
    ),
};
// The recorded outcomes are the model's own decisions here; the scan looks at the decisions only.
const y = Int32Array.from({ length: x.length / 3 }, (_, i) =>
  approves(x[3 * i], x[3 * i + 1], x[3 * i + 2]) ? 1 : 0,
);
const dataset = createDataset({ schema, x, y });

// The detector validates the data, fills the options' defaults, counts model queries and returns a
// DiscoveryResult that validates against the result schema, like every published method.
const result = await decisionGaps.run({ dataset, model }, { k: 3 }, { seed: 1 });
console.log(
  `${result.method.id}: ${result.extras.candidates} candidate subgroups, ${result.metrics.queries} model queries`,
);
for (const s of result.findings.subgroups)
  console.log(
    `${s.rank}. ${describeSubgroup(schema, s.conditions)} | rows ${s.size} | gap ${s.effect.toFixed(3)}`,
  );
