// CBS's time per cell on the article study's base scenario, with and without the fit cache, side by
// side in one run (not a test). After `pnpm build` of this package, @fb/synth and @fb/models:
//   node bench/cells.mjs [seeds] [scanTypes] [reference] [bias]
// `pnpm bench` (bench/sequential.mjs) runs it for seed 1 and the two scan types of the study's
// questions (`benchCells`).
// seeds: comma list (default 1); scanTypes: comma list (default all four); reference: the built
// `dist/index.js` of another CBS version to time as well (for example the package before a change,
// copied with the builds of @fb/subset-scan and @fb/models it imports, so that it runs on them);
// bias: `base` (default, minBias 0.75, maxBias 1.5) or `strong` (the study's large bias level, 1.5 to 3).
//
// Data: `generate` of @fb/synth with the article study's base scenario (apps/bench/studies/article.yaml:
// 3 planted pairs, 10 attributes, 6,000 rows with planted subgroups of 100-500 rows, population
// membership), half of the rows to train logistic regression,
// random forest (50 trees, 5 rows a leaf) and an MLP, the other half audited. For each scan type the
// three models are audited in turn (the cells of one data set and seed), with CBS's defaults (every
// class of every protected attribute, both directions, the default resamples, sequential stopping),
// first without the fit cache (`cbsFitCache.configure({ maxBytes: 0 })`), then with it (cleared before
// each scan type's first model), and with the reference version when given. Prints each cell's CPU
// time (and wall time) and whether every scan's score, resamples and p-value are the same in all
// versions.
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { subsetRows } from '@fb/core';
import * as models from '@fb/models';
import * as synth from '../../synth/dist/index.js';
import { cbs, cbsFitCache, DEFAULT_FIT_CACHE_BYTES } from '../dist/index.js';

const base = {
  pairs: 3,
  backgroundShare: 0.6,
  disjointSubgroups: true,
  ensembleSize: 0,
  minBias: 0.75,
  maxBias: 1.5,
  minAleatoric: 0.05,
  maxAleatoric: 0.3,
  minGroupSize: 100,
  maxGroupSize: 500,
  membership: 'population',
  rows: 6000,
  attributes: 10,
  threads: 1,
};
const biasLevels = { base: {}, strong: { minBias: 1.5, maxBias: 3 } };
let bias = biasLevels.base;

export async function cellsOf(seed) {
  const { dataset } = synth.generate({ ...base, ...bias, seed });
  const half = Math.floor(dataset.n / 2);
  const train = subsetRows(
    dataset,
    Int32Array.from({ length: half }, (_, i) => i),
  );
  const audit = subsetRows(
    dataset,
    Int32Array.from({ length: dataset.n - half }, (_, i) => half + i),
  );
  const fitted = [
    ['logistic regression', await models.fit(train, { model: 'logistic-regression', l2: 1 })],
    [
      'random forest',
      await models.fit(train, { model: 'random-forest', nEstimators: 50, minSamplesLeaf: 5, seed }),
    ],
    ['MLP', await models.fit(train, { model: 'mlp', seed })],
  ];
  return { audit, fitted };
}

/** What the decisions are: per scan, its score, resamples and p-values; and the subgroups found. */
function decisions(result) {
  return JSON.stringify({
    scans: result.extras.scans,
    subgroups: result.findings.subgroups.map((s) => [s.conditions, s.score, s.pValue]),
  });
}

async function timed(detector, audit, model, scanType, seed) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const result = await detector.run({ dataset: audit, model }, { scanType }, { seed });
  const cpu = process.cpuUsage(c0);
  const wall = (performance.now() - t0) / 1000;
  // CPU time of this process (the run is single-threaded): steadier than wall time on a shared machine.
  const seconds = (cpu.user + cpu.system) / 1e6;
  const resamples = result.extras.scans.reduce((s, c) => s + c.permutationsCompleted, 0);
  return { seconds, wall, resamples, decisions: decisions(result), stop: result.run?.stopReason };
}

/**
 * Time the cells of each seed and scan type: the reference version (when given), this one without
 * the fit cache and with it. Returns the seconds per scan type and version, and the cells whose
 * decisions agree.
 */
export async function benchCells(seeds, scanTypes, reference = null) {
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  // Warm-up: the first calls of the solvers are slower.
  {
    const { audit, fitted } = await cellsOf(99);
    await cbs.run({ dataset: audit, model: fitted[0][1] }, { permutations: 5 }, { seed: 0 });
  }
  const totals = new Map();
  let same = 0;
  let cells = 0;
  for (const seed of seeds) {
    const { audit, fitted } = await cellsOf(seed);
    for (const scanType of scanTypes) {
      const runs = { reference: [], uncached: [], cached: [] };
      // Each version's fit cache starts empty for the scan type, as this one's does below.
      reference?.cbsFitCache?.clear();
      if (reference)
        for (const [, model] of fitted)
          runs.reference.push(await timed(reference.cbs, audit, model, scanType, seed));
      cbsFitCache.configure({ maxBytes: 0 });
      for (const [, model] of fitted) runs.uncached.push(await timed(cbs, audit, model, scanType, seed));
      cbsFitCache.configure({ maxBytes: DEFAULT_FIT_CACHE_BYTES });
      cbsFitCache.clear();
      for (const [, model] of fitted) runs.cached.push(await timed(cbs, audit, model, scanType, seed));
      const { hits, misses } = cbsFitCache.stats();
      fitted.forEach(([label], k) => {
        const variants = Object.entries(runs).filter(([, r]) => r.length > 0);
        const agree = variants.every(([, r]) => r[k].decisions === runs.cached[k].decisions);
        cells++;
        if (agree) same++;
        const parts = variants.map(
          ([name, r]) => `${name} ${r[k].seconds.toFixed(2)} s (wall ${r[k].wall.toFixed(1)})`,
        );
        const ratio =
          (reference ? runs.reference[k].seconds : runs.uncached[k].seconds) / runs.cached[k].seconds;
        console.log(
          `seed ${seed} ${scanType.padEnd(27)} ${label.padEnd(19)} ${parts.join(', ')} ` +
            `(${runs.cached[k].resamples} scan resamples${runs.cached[k].stop && runs.cached[k].stop !== 'completed' ? `, stopped: ${runs.cached[k].stop}` : ''}): ` +
            `${ratio.toFixed(2)}x, same decisions: ${agree ? 'yes' : 'NO'}`,
        );
        for (const [name, r] of variants) {
          const t = totals.get(`${scanType} ${name}`) ?? 0;
          totals.set(`${scanType} ${name}`, t + r[k].seconds);
        }
      });
      console.log(`  fit cache: ${hits} hits, ${misses} misses over the three cells`);
    }
  }
  console.log('\nper scan type, CPU seconds over the cells:');
  for (const scanType of scanTypes) {
    const get = (name) => totals.get(`${scanType} ${name}`);
    const ref = reference ? `reference ${get('reference').toFixed(1)} s, ` : '';
    const against = reference ? get('reference') : get('uncached');
    console.log(
      `  ${scanType.padEnd(27)} ${ref}uncached ${get('uncached').toFixed(1)} s, cached ${get('cached').toFixed(1)} s: ` +
        `${(against / get('cached')).toFixed(2)}x`,
    );
  }
  console.log(`${same} of ${cells} cells with the same decisions in every version`);
  console.log(
    `load average at end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  return { totals, same, cells };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const seeds = (process.argv[2] ?? '1').split(',').map(Number);
  const scanTypes = (
    process.argv[3] ??
    'separation-recommendations,separation-predictions,sufficiency-recommendations,sufficiency-predictions'
  ).split(',');
  const reference = process.argv[4] ? await import(process.argv[4]) : null;
  const level = process.argv[5] ?? 'base';
  if (!(level in biasLevels)) throw new Error(`bias: base or strong, got ${level}`);
  bias = biasLevels[level];
  console.log(`bias level: ${level}`);
  await benchCells(seeds, scanTypes, reference);
}
