// Generator figures (not a test). Run after `pnpm build`: pnpm --filter @fb/synth bench
// Five rounds, each: generate with the default threads, a plain copula sampler of the same size (the
// same copula, rows x attributes, one thread), generate on one thread, the plain sampler again; medians
// and the ratio within each round (median and range over rounds) are printed with the load average.
// Each round also times generate at 10,000 rows (the same kind of options scaled down, defaults
// otherwise, then with ensembleSize 0) and a tight numpy sampler of the same copula and outcome weights
// at both sizes (bench/tight_copula.py, run by FB_PYTHON or /usr/bin/python3; the line is skipped when
// numpy is missing), so that the ratios generate / tight numpy compare timings of the same round.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createRng } from '@fb/core';
import { reportTarget } from '../../../tools/perf-targets/report.mjs';
import { fitCopula, generate, sampleCopula } from '../dist/index.js';
import { largeOptions, smallOptions } from './options.mjs';

const mb = (b) => (b / 2 ** 20).toFixed(0);
let peakRss = 0;
const timer = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);
const median = (v) => [...v].sort((a, b) => a - b)[(v.length - 1) >> 1];
const range = (v) => `(${Math.min(...v).toFixed(2)}-${Math.max(...v).toFixed(2)})`;

const options = largeOptions;
const ROUNDS = 5;
// SMALL_CALLS calls per round and variant at 10,119 rows.
const small = smallOptions;
const SMALL_CALLS = 7;
const autoThreads = Math.min(8, availableParallelism());
console.log(`load average ${loadavg()[0].toFixed(1)} on entry; ${ROUNDS} rounds`);
const times = { auto: [], one: [], plain: [], small: [], smallNoEnsemble: [], tight: [], tightSmall: [] };
const ratios = { auto: [], one: [], tightAuto: [], tightOne: [], tightSmall: [], tightSmallNoEnsemble: [] };

// The tight numpy reference samples seed 1's copula with its outcome weights, which depend on the seed
// and the schema options only: the same for both sizes (checked after the rounds).
const warm = generate(small);
for (let k = 0; k < 2; k++) generate(small);
const python = process.env.FB_PYTHON ?? '/usr/bin/python3';
const finite = (v) => (v === Number.POSITIVE_INFINITY ? 1e308 : v === Number.NEGATIVE_INFINITY ? -1e308 : v);
const exported = (copula, model, rows) => ({
  d: copula.marginals.length,
  cholesky: Array.from(copula.cholesky),
  marginals: copula.marginals.map((m) =>
    m.kind === 'discrete'
      ? {
          kind: m.kind,
          upper: Array.from(m.upper, finite),
          order: Array.from(m.order),
          values: Array.from(m.values),
        }
      : { kind: m.kind, u: Array.from(m.u), x: Array.from(m.x) },
  ),
  outcome: {
    intercept: model.intercept,
    tables: model.tables.map((t) => (t ? Array.from(t) : null)),
    slopes: Array.from(model.slopes),
    centres: Array.from(model.centres),
  },
  rows,
});
const tmp = mkdtempSync(path.join(tmpdir(), 'fb-synth-bench-'));
const copulaFile = path.join(tmp, 'copula.json');
let tightSkipped = null;
let numpyVersion = '';
/** One run of the tight sampler per size (10,000 rows: the mean of enough repeats to last ~0.1 s). */
const tight = (rows) => {
  if (tightSkipped) return null;
  const run = spawnSync(python, [path.join(import.meta.dirname, 'tight_copula.py'), copulaFile, '1'], {
    encoding: 'utf8',
  });
  if (run.status !== 0 || run.error) {
    tightSkipped = `${python}: ${run.error?.message ?? run.stderr.trim().split('\n').at(-1)}`;
    return null;
  }
  const out = JSON.parse(run.stdout);
  numpyVersion = out.numpy;
  if (out.sizes[0].rows !== rows[0]) throw new Error('tight sampler: wrong size');
  return out.sizes.map((x) => x.median);
};
const timeSmall = (extra) => {
  const ts = [];
  for (let k = 0; k < SMALL_CALLS; k++) {
    const t0 = performance.now();
    generate({ ...small, ...extra });
    ts.push((performance.now() - t0) / 1000);
  }
  return median(ts);
};

let result;
for (let round = 0; round < ROUNDS; round++) {
  for (const threads of ['auto', 1]) {
    const t0 = performance.now();
    const r = generate({ ...options, threads });
    const seconds = (performance.now() - t0) / 1000;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    result = r;
    const t1 = performance.now();
    const plain = sampleCopula(r.copula, r.dataset.n, createRng(round));
    const plainSeconds = (performance.now() - t1) / 1000;
    if (plain.length !== r.dataset.x.length) throw new Error('plain sampler: wrong size');
    const key = threads === 'auto' ? 'auto' : 'one';
    times[key].push(seconds);
    times.plain.push(plainSeconds);
    ratios[key].push(seconds / plainSeconds);
  }
  if (round === 0)
    writeFileSync(
      copulaFile,
      JSON.stringify(exported(result.copula, result.truth.model, [result.dataset.n, warm.dataset.n])),
    );
  const smallSeconds = timeSmall({});
  const smallNoEnsemble = timeSmall({ ensembleSize: 0 });
  times.small.push(smallSeconds);
  times.smallNoEnsemble.push(smallNoEnsemble);
  const ref = tight([result.dataset.n, warm.dataset.n]);
  if (ref) {
    times.tight.push(ref[0]);
    times.tightSmall.push(ref[1]);
    ratios.tightAuto.push(times.auto.at(-1) / ref[0]);
    ratios.tightOne.push(times.one.at(-1) / ref[0]);
    ratios.tightSmall.push(smallSeconds / ref[1]);
    ratios.tightSmallNoEnsemble.push(smallNoEnsemble / ref[1]);
  }
}
rmSync(tmp, { recursive: true, force: true });
const r = result;
if (!r.copula.cholesky.every((v, i) => v === warm.copula.cholesky[i]))
  throw new Error('bench: the 10,000-row data sets have another copula than the 1,000,000-row one');
const biasedRows = r.truth.counterfactualLabel.reduce((s, v, i) => s + (v !== r.dataset.y[i] ? 1 : 0), 0);
console.log(
  `generate: ${r.dataset.n.toLocaleString('en')} rows x ${r.dataset.d} attributes, ${r.truth.pairs.length} pairs, ` +
    `${biasedRows} rows whose counterfactual label differs; peak RSS ${mb(peakRss)} MB`,
);
const s = (v) => `${median(v).toFixed(2)} s`;
console.log(
  `  generate, threads auto = ${autoThreads}: ${s(times.auto)}; threads 1: ${s(times.one)}; ` +
    `plain copula sampler (sampleCopula, same copula and size, one thread): ${s(times.plain)} (medians)`,
);
console.log(
  `  ratio generate / plain sampler (median over rounds, range): ${median(ratios.auto).toFixed(2)}x ${range(ratios.auto)} ` +
    `with threads auto, ${median(ratios.one).toFixed(2)}x ${range(ratios.one)} on one thread; per row: ${((median(times.one) / r.dataset.n) * 1e6).toFixed(1)} us ` +
    `vs ${((median(times.plain) / r.dataset.n) * 1e6).toFixed(1)} us on one thread`,
);
const ms = (v) => `${(median(v) * 1000).toFixed(1)} ms`;
const x = (v) => `${median(v).toFixed(2)}x ${range(v)}`;
console.log(
  `generate at ${warm.dataset.n.toLocaleString('en')} rows x ${warm.dataset.d} attributes, ${small.pairs} pairs (median of ${SMALL_CALLS} calls per round, median over rounds): ` +
    `${ms(times.small)} with the default ensemble (ensembleSize 10), ${ms(times.smallNoEnsemble)} with ensembleSize 0`,
);
if (tightSkipped)
  console.log(
    `tight numpy copula: skipped (${tightSkipped}; set FB_PYTHON to a Python with numpy and scipy)`,
  );
else {
  console.log(
    `tight numpy copula (bench/tight_copula.py, numpy ${numpyVersion}; same copula and outcome weights, one run per round): ` +
      `${median(times.tight).toFixed(3)} s at ${r.dataset.n.toLocaleString('en')} rows, ${ms(times.tightSmall)} at ${warm.dataset.n.toLocaleString('en')} rows (medians)`,
  );
  console.log(
    `  ratio generate / tight numpy (median over rounds, range): ${x(ratios.tightAuto)} at ${r.dataset.n.toLocaleString('en')} rows with threads auto, ` +
      `${x(ratios.tightOne)} on one thread; ${x(ratios.tightSmall)} at ${warm.dataset.n.toLocaleString('en')} rows, ${x(ratios.tightSmallNoEnsemble)} with ensembleSize 0`,
  );
}
const load = loadavg()[0].toFixed(1);
for (const [target, values, limit] of [
  [
    `generate at ${r.dataset.n.toLocaleString('en')} x ${r.dataset.d} (threads auto) / tight numpy copula`,
    ratios.tightAuto,
    2,
  ],
  [
    `generate at ${warm.dataset.n.toLocaleString('en')} rows (defaults) / tight numpy copula`,
    ratios.tightSmall,
    3,
  ],
]) {
  reportTarget({
    target,
    reference: `at most ${limit}x`,
    measured: tightSkipped
      ? `no numpy reference (${tightSkipped})`
      : `${x(values)}, median of ${ROUNDS} rounds (load ${load})`,
    holds: tightSkipped ? null : median(values) <= limit,
    command: 'pnpm --filter @fb/synth bench',
  });
}
console.log(
  `load average ${loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')} (1, 5, 15 min) at the end of generate`,
);

const dataDir = process.env.FB_DATA_DIR ?? path.resolve(import.meta.dirname, '../../../../shared/datasets');
if (existsSync(dataDir)) {
  const { loadAdult } = await import('@fb/datasets');
  const adult = await loadAdult({ dataDir });
  fitCopula(adult);
  const fits = [];
  for (let rep = 0; rep < 5; rep++) {
    const t0 = performance.now();
    fitCopula(adult);
    fits.push((performance.now() - t0) / 1000);
  }
  fits.sort((a, b) => a - b);
  console.log(
    `fitCopula on Adult (${adult.n} rows x ${adult.d} attributes): median ${fits[2].toFixed(3)} s (min ${fits[0].toFixed(3)}, max ${fits[4].toFixed(3)}; first, cold call excluded)`,
  );
} else console.log(`fitCopula on Adult: skipped, no data at ${dataDir}`);
clearInterval(timer);
