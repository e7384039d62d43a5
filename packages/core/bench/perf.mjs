// What the counterfactual check costs per protected variant on top of the model: inputs on an
// Adult-shaped domain (14 attributes; age with 74 values, race 5 and sex 2 protected: 739 variants per
// input), checked through a fresh counting wrapper, against the same linear model predicting the same
// variant rows bare. Interleaved, best of 3. Prints figures; not a test. Run after `pnpm build`:
// pnpm --filter @fb/core bench. Then normal draws one at a time against in batches.
import {
  CounterfactualChecker,
  CountingClassifier,
  DomainSampler,
  defineSchema,
  ProtectedVariants,
  Rng,
  RunController,
} from '../dist/index.js';

const levels = [
  ['age', 74],
  ['workclass', 7],
  ['fnlwgt', 100],
  ['education', 16],
  ['education_num', 16],
  ['marital_status', 7],
  ['occupation', 14],
  ['relationship', 6],
  ['race', 5],
  ['sex', 2],
  ['capital_gain', 100],
  ['capital_loss', 100],
  ['hours_per_week', 99],
  ['native_country', 41],
];
const protectedNames = new Set(['age', 'race', 'sex']);
const schema = defineSchema({
  attributes: levels.map(([name, k]) => ({
    name,
    kind: 'ordinal',
    protected: protectedNames.has(name),
    min: 0,
    max: k - 1,
    step: 1,
  })),
  outcome: { name: 'income', labels: ['<=50K', '>50K'], favorable: 1 },
});
const d = levels.length;
const w = levels.map((_, j) => ((j * 7) % 5) / 40 - 0.05);
const model = {
  nFeatures: d,
  nClasses: 2,
  predict(x) {
    const n = x.length / d;
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      let s = -1;
      for (let j = 0; j < d; j++) s += w[j] * x[i * d + j];
      out[i] = s > 0 ? 1 : 0;
    }
    return out;
  },
};
const inputs = 1000;
const x = new Float64Array(inputs * d);
new DomainSampler(schema).fill(Rng.create('checker-bench'), x);
const variants = new ProtectedVariants(schema);
const block = variants.perInput + 1;

const runs = {
  'model alone on the variant rows': () => {
    const rows = new Float64Array(inputs * block * d);
    for (let i = 0; i < inputs; i++) {
      rows.set(x.subarray(i * d, (i + 1) * d), i * block * d);
      variants.write(x, i * d, rows, (i * block + 1) * d);
    }
    model.predict(rows);
  },
  'checker (variants, counting, records)': () => {
    const checker = new CounterfactualChecker(schema, new CountingClassifier(model), new RunController());
    for (let i = 0; i < inputs; i += 50) checker.check(x.subarray(i * d, (i + 50) * d));
  },
};
const best = {};
for (let round = 0; round < 3; round++) {
  for (const [name, run] of Object.entries(runs)) {
    const t0 = performance.now();
    run();
    best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, (performance.now() - t0) / 1000);
  }
}
const rows = inputs * block;
console.log(
  `counterfactual check: ${inputs} inputs x ${block} rows (${variants.perInput} variants), ${d} attributes; best of 3`,
);
for (const [name, s] of Object.entries(best)) {
  console.log(`  ${name.padEnd(40)} ${s.toFixed(3)} s = ${((s / rows) * 1e6).toFixed(3)} us per row`);
}
const [bare, checked] = Object.values(best);
console.log(
  `  checker over the model alone: ${(checked / bare).toFixed(2)}x, ${(((checked - bare) / rows) * 1e6).toFixed(3)} us per variant row`,
);

// Normal draws one at a time (`normal()` in a loop) against `normals()` filling the same array from a
// stream of the same seed: the same values (checked), five interleaved rounds of 20 batches of 200,000.
// `zigguratNormals()` fills the array too (other values, the same law) in the same rounds.
{
  const n = 200_000;
  const one = new Float64Array(n);
  const batch = new Float64Array(n);
  const zig = new Float64Array(n);
  const perDraw = { 'normal() in a loop': [], 'normals()': [], 'zigguratNormals()': [] };
  let same = true;
  for (let round = 0; round < 5; round++) {
    const a = Rng.create(`normals-${round}`);
    const b = Rng.create(`normals-${round}`);
    let t0 = performance.now();
    for (let k = 0; k < 20; k++) for (let i = 0; i < n; i++) one[i] = a.normal();
    perDraw['normal() in a loop'].push(((performance.now() - t0) / (20 * n)) * 1e6);
    t0 = performance.now();
    for (let k = 0; k < 20; k++) b.normals(batch);
    perDraw['normals()'].push(((performance.now() - t0) / (20 * n)) * 1e6);
    const c = Rng.create(`normals-${round}`);
    t0 = performance.now();
    for (let k = 0; k < 20; k++) c.zigguratNormals(zig);
    perDraw['zigguratNormals()'].push(((performance.now() - t0) / (20 * n)) * 1e6);
    for (let i = 0; i < n; i++) if (one[i] !== batch[i]) same = false;
  }
  console.log(
    `normal draws: 5 rounds of 20 x ${n.toLocaleString('en')}; the same values: ${same ? 'yes' : 'NO'}`,
  );
  for (const [name, ns] of Object.entries(perDraw)) {
    const sorted = [...ns].sort((x, y) => x - y);
    console.log(
      `  ${name.padEnd(20)} median ${sorted[2].toFixed(1)} ns a draw (${sorted[0].toFixed(1)}-${sorted[4].toFixed(1)})`,
    );
  }
}
