// LIMI in the article study's cells: `@fb/synth` `generate` with the base scenario of
// apps/bench/studies/article.yaml (6,000 rows, 10 attributes, 3 planted pairs), the audited half, the
// study's three models trained on the other half, the TVAE fitted once (default options), then one run
// per model under 100,000 distinct queries with the options the study's phase rule gives
// (boundarySamples 10,000, maxTested 100,000, maxLatentVectors 100,000: apps/bench/src/plan/phases.ts).
// Prints CPU seconds (user + system of this process) of the fit and of each cell, with the run's phase timings and results, and the load.
// With BASELINE=<dir> (a build by `bench/make-baseline.sh <commit>`), the same fit and cells are run with
// that build first, then with this one, in one process: the before/after pair on the same data and
// models. SYNTH_SEED (default 1), SEED (run and fit seed, default 1), MODELS (lr,rf,mlp), SECONDS (the
// study's safety cap, default 300), LATENT (maxLatentVectors: default 100,000, as the study; `none` for no
// cap, or another number, e.g. the original's 1,000,000, gives both builds the same fixed work).
// `@fb/synth` is a workspace sibling, not a dependency of this package: it is read from its build.
import { loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import { Rng } from '@fb/core';
import { fit } from '@fb/models';
import { generate } from '../../synth/dist/index.js';
import * as current from '../dist/index.js';

const synthSeed = Number(process.env.SYNTH_SEED ?? 1);
const seed = Number(process.env.SEED ?? 1);
const modelNames = (process.env.MODELS ?? 'lr,rf,mlp').split(',');
const load = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');
const cpu = () => {
  const u = cpuUsage();
  return (u.user + u.system) / 1e6;
};

const { dataset } = generate({
  seed: synthSeed,
  attributes: 10,
  pairs: 3,
  minGroupSize: 100,
  maxGroupSize: 500,
  backgroundShare: 0.6,
  disjointSubgroups: true,
  ensembleSize: 0,
  membership: 'population',
  rows: 6000,
  minBias: 0.75,
  maxBias: 1.5,
  threads: 1,
});
// The audited half and the training half (a seeded split, as the study's).
const order = Rng.create(synthSeed)
  .fork('audit-split')
  .shuffle(Int32Array.from({ length: dataset.n }, (_, i) => i));
const half = Math.round(dataset.n / 2);
const subset = (rows) => {
  const sorted = Int32Array.from(rows).sort();
  const x = new Float64Array(sorted.length * dataset.d);
  const y = new Int32Array(sorted.length);
  sorted.forEach((r, i) => {
    x.set(dataset.x.subarray(r * dataset.d, (r + 1) * dataset.d), i * dataset.d);
    y[i] = dataset.y[r];
  });
  return { ...dataset, n: sorted.length, x, y };
};
const audit = subset(order.subarray(0, half));
const train = subset(order.subarray(half));
const specs = {
  lr: { label: 'logistic regression', options: { model: 'logistic-regression', l2: 1 } },
  rf: {
    label: 'random forest',
    options: { model: 'random-forest', nEstimators: 50, minSamplesLeaf: 5, seed: synthSeed },
  },
  mlp: { label: 'MLP', options: { model: 'mlp', seed: synthSeed } },
};
const models = modelNames.map((m) => ({
  name: m,
  label: specs[m].label,
  model: fit(train, specs[m].options),
}));
for (const m of models) await m.model;
for (const m of models) m.model = await m.model;
console.log(
  `synth seed ${synthSeed}: audited ${audit.n} rows x ${audit.d} attributes ` +
    `(${audit.schema.attributes.filter((a) => a.protected).length} protected); load ${load()}`,
);

const builds = [];
if (process.env.BASELINE) builds.push(['before', await import(`${process.env.BASELINE}/index.js`)]);
builds.push(['after', current]);
const latent =
  process.env.LATENT === 'none' ? null : process.env.LATENT ? Number(process.env.LATENT) : 100_000;
const maxSeconds = Number(process.env.SECONDS ?? 300);
const options = { boundarySamples: 10000, maxTested: 100000, maxLatentVectors: latent };
console.log(`options ${JSON.stringify(options)}; budget 100,000 distinct queries, ${maxSeconds} s cap`);
const rows = [];
// The fits first, the builds alternating (FITS rounds, default 2), then each model's cell with one build
// after the other: both builds meet the same load.
const fits = new Map();
for (let round = 0; round < Number(process.env.FITS ?? 2); round++) {
  for (const [name, lib] of builds) {
    const c = cpu();
    const fitted = await lib.fitLimiGenerator(audit, {}, seed);
    const fitCpu = cpu() - c;
    fits.set(name, { fitted, fitCpu: [...(fits.get(name)?.fitCpu ?? []), fitCpu] });
    console.log(
      `${name}: TVAE fit ${fitCpu.toFixed(2)} CPU s (${fitted.trainingSeconds.toFixed(2)} s wall; load ${load()}); ` +
        `checks ${JSON.stringify(fitted.checks)}; last loss ${fitted.lossPerEpoch.at(-1)}`,
    );
  }
}
for (const { name: m, model } of models) {
  for (const [name, lib] of builds) {
    const { fitted, fitCpu } = fits.get(name);
    const c = cpu();
    const r = await lib
      .limiWith(fitted)
      .run({ dataset: audit, model }, options, { seed, budget: { maxQueries: 100000, maxSeconds } });
    const cellCpu = cpu() - c;
    const x = r.extras;
    const t = Object.fromEntries(
      Object.entries(x.timings).map(([k, v]) => [k.replace('Seconds', ''), +v.toFixed(2)]),
    );
    const candidates = x.candidates ?? 0;
    rows.push({
      build: name,
      model: m,
      fitCpu: fitCpu.map((v) => v.toFixed(2)).join(', '),
      cellCpu,
      dsn: r.metrics.dsn,
      tsn: r.metrics.tsn,
      candidates,
      stop: r.run.stopReason,
    });
    console.log(
      `${name} ${m.padEnd(3)}: ${cellCpu.toFixed(2)} CPU s (${r.run.wallSeconds.toFixed(2)} s wall; load ${load()}); ` +
        `timings ${JSON.stringify(t)}; DSN ${r.metrics.dsn}, TSN ${r.metrics.tsn}, queries ${r.metrics.distinctQueries}, ` +
        `${r.run.stopReason}; boundary ${JSON.stringify(x.boundary)}; candidates ${x.candidates}, latent ${x.latentVectors}; ` +
        `naturalness ${JSON.stringify(x.naturalness)}`,
    );
  }
}
console.log(
  '\n| model | build | fit CPU s (each round) | cell CPU s | candidates | µs CPU per candidate | DSN | TSN | stopped by |\n' +
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
);
for (const r of rows)
  console.log(
    `| ${r.model} | ${r.build} | ${r.fitCpu} | ${r.cellCpu.toFixed(2)} | ${r.candidates} | ` +
      `${r.candidates ? ((1e6 * r.cellCpu) / r.candidates).toFixed(1) : '-'} | ${r.dsn} | ${r.tsn} | ${r.stop} |`,
  );
console.log(`load at the end ${load()}`);
