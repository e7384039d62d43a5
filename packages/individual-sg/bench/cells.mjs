// SG in the article study's base cells: `@fb/synth` `generate` with the base scenario (6,000 rows, 10
// attributes, 3 planted pairs), the audited half, logistic regression, random forest and MLP trained on
// the other half, then one run per model with the options the study's phase rule gives SG (seeds 1,
// sampleLimit 100,000) under 100,000 distinct queries. Prints CPU seconds (user + system of this
// process, the Z3 thread's included) of each run with its results, and the load.
// With BASELINE=<dir> (another build's dist), each cell runs with that build and this one in turn, in
// one process, and the two results are compared (everything but clock readings and the solver's counters)
// and their CPU seconds printed side by side; DIFF=1 prints the parts that differ. SYNTHS (data seeds, default 2), MODELS (lr,rf,mlp), SEEDS (run seeds, default 1; a
// seed given again repeats the cell, with the other build first).
// `@fb/synth` is a workspace sibling, not a dependency of this package: it is read from its build.
import { loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import { Rng, reproducibleView, subsetRows } from '@fb/core';
import { fit } from '@fb/models';
import { generate } from '../../synth/dist/index.js';
import * as current from '../dist/index.js';

const synths = (process.env.SYNTHS ?? '2').split(',').map(Number);
const modelNames = (process.env.MODELS ?? 'lr,rf,mlp').split(',');
const runSeeds = (process.env.SEEDS ?? '1').split(',').map(Number);
const load = () => loadavg().map((v) => v.toFixed(2));
/** CPU seconds of this process so far (user and system, every thread). */
function cpu() {
  const { user, system } = cpuUsage();
  return (user + system) / 1e6;
}

// The study's base scenario (apps/bench/studies/article.yaml), generated on one thread.
const scenario = { attributes: 10, pairs: 3, minGroupSize: 100, maxGroupSize: 500, backgroundShare: 0.6 };
const population = { disjointSubgroups: true, ensembleSize: 0, membership: 'population', rows: 6000 };
const bias = { minBias: 0.75, maxBias: 1.5, threads: 1 };

/** The audited half and the trained models of one data seed. */
async function cell(synthSeed) {
  const { dataset } = generate({ ...scenario, ...population, ...bias, seed: synthSeed });
  const order = Rng.create(synthSeed)
    .fork('audit-split')
    .shuffle(Int32Array.from({ length: dataset.n }, (_, i) => i));
  const half = Math.round(dataset.n / 2);
  const rowsOf = (picked) => subsetRows(dataset, Int32Array.from(picked).sort());
  const train = rowsOf(order.subarray(half));
  const specs = {
    lr: { model: 'logistic-regression', l2: 1 },
    rf: { model: 'random-forest', nEstimators: 50, minSamplesLeaf: 5, seed: synthSeed },
    mlp: { model: 'mlp', seed: synthSeed },
  };
  const models = {};
  for (const m of modelNames) models[m] = await fit(train, specs[m]);
  return { audit: rowsOf(order.subarray(0, half)), models };
}

/**
 * What two builds must agree on: the reproducible result without the solver's own counters (a build
 * that answers repeated constraint sets from a cache makes fewer Z3 checks for the same search).
 */
function comparable(r) {
  const view = reproducibleView(r);
  const { solverChecks, repeatedSolves, ...extras } = view.extras ?? {};
  return { ...view, extras };
}

const builds = [];
if (process.env.BASELINE) builds.push(['before', await import(`${process.env.BASELINE}/index.js`)]);
builds.push(['after', current]);
console.log(`load ${load().join(' ')}`);
console.log(
  '| data seed | model | seed | TSN | DSN | pairs | distinct queries | stop | ' +
    `${builds.map(([b]) => `${b} CPU s`).join(' | ')} | same | load |`,
);
console.log(`|---|---|---|---:|---:|---:|---:|---|${builds.map(() => '---:|').join('')}---|---|`);
let differ = 0;
for (const s of synths) {
  const { audit, models } = await cell(s);
  for (const m of modelNames) {
    for (const [k, seed] of runSeeds.entries()) {
      const runs = [];
      // The builds take turns at going first (SEEDS=1,1,1,1 repeats a cell), and are printed in order.
      const turn = k % 2 === 0 ? builds : [...builds].reverse();
      for (const [name, lib] of turn) {
        const c = cpu();
        const r = await lib.sg.run(
          { dataset: audit, model: models[m] },
          { seeds: 1, sampleLimit: 100_000 },
          { seed, budget: { maxQueries: 100_000 } },
        );
        runs.push({ name, r, cpu: cpu() - c, view: JSON.stringify(comparable(r)) });
      }
      runs.sort((a, b) => builds.findIndex(([n]) => n === a.name) - builds.findIndex(([n]) => n === b.name));
      const same = runs.every((x) => x.view === runs[0].view);
      if (!same) {
        differ++;
        if (process.env.DIFF) {
          const a = JSON.parse(runs[0].view),
            b = JSON.parse(runs[1].view);
          for (const k of Object.keys(a))
            if (JSON.stringify(a[k]) !== JSON.stringify(b[k]))
              console.log(
                'differs:',
                k,
                JSON.stringify(a[k]).slice(0, 300),
                '|',
                JSON.stringify(b[k]).slice(0, 300),
              );
        }
      }
      // Each build's figures when they differ (before / after).
      const fig = (f) => [...new Set(runs.map(f))].join(' / ');
      console.log(
        `| ${s} | ${m} | ${seed} | ${fig((x) => x.r.metrics.tsn)} | ${fig((x) => x.r.metrics.dsn)} | ` +
          `${fig((x) => x.r.metrics.pairs)} | ${fig((x) => x.r.metrics.distinctQueries)} | ${fig((x) => x.r.run.stopReason)} | ` +
          `${runs.map((x) => x.cpu.toFixed(2)).join(' | ')} | ${same ? 'yes' : 'NO'} | ${load().join(' ')} |`,
      );
    }
  }
}
if (differ > 0) {
  console.error(`${differ} cells differ between the builds`);
  process.exitCode = 1;
}
