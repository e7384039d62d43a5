// First calls against later ones, in a fresh process for one kind of model (run by bench/perf.mjs, a
// few times per kind; prints one JSON object): the 100-tree forest, a depth-10 tree or a logistic
// regression fitted three times on Adult, the first model's predict on the 100,000 benchmark rows three times, then the second
// model's first predict (what a later model pays once the process is warm). Not a test.
// Each call also reports the page faults it took (all threads of the process), and the process measures
// what a page fault costs on this machine by writing to fresh memory: a first call touches working
// memory that later calls reuse, and the price of that depends on the machine.
// `forest-1` is the forest with prediction on the calling thread alone (`setPredictionThreads(1)`).
// Run with `--expose-gc` (as bench/first-calls.mjs does), every timed call starts after two full
// collections (see `collect`), first and later calls alike: a fresh process owes V8 its first full collection (5-7 ms
// here) to whichever call first crosses the initial heap limit, which depends on what the process did
// before, not on the call. Without the flag, calls are timed as they come. The fault price is measured
// after the calls, so that its 48 MB of writes do not start that collection early.
// The 100,000 rows are made after the fits, just before they are predicted, as a tester makes its
// queries. Made before the fits and left unread through them, the first predict's walk took about
// 1.7 ms longer in a third of processes, which reading half of the rows beforehand removed (see the
// README, "What a first call pays for").
// Usage: node [--expose-gc] bench/first-call.mjs <dataDir> forest|forest-1|tree|logistic
import { resourceUsage } from 'node:process';
import { loadAdult } from '@fb/datasets';
import { fit, setPredictionThreads } from '../dist/index.js';
import { benchRows } from './rows.mjs';

const [dataDir, kind] = process.argv.slice(2);
const forest = { model: 'random-forest', nEstimators: 100, seed: 0 };
const options = {
  forest,
  'forest-1': forest,
  tree: { model: 'decision-tree', maxDepth: 10 },
  logistic: { model: 'logistic-regression' },
}[kind];
if (!options) throw new Error(`usage: first-call.mjs <dataDir> forest|forest-1|tree|logistic (got ${kind})`);
if (kind === 'forest-1') setPredictionThreads(1);

/** Microseconds per page fault: one byte written per 4 KB page of a fresh 16 MB buffer (median of 3). */
function faultCost() {
  const costs = [];
  for (let r = 0; r < 3; r++) {
    const buffer = new Uint8Array(16 * 2 ** 20);
    const f0 = resourceUsage().minorPageFault;
    const t0 = performance.now();
    for (let i = 0; i < buffer.length; i += 4096) buffer[i] = 1;
    const us = (performance.now() - t0) * 1000;
    costs.push(us / Math.max(1, resourceUsage().minorPageFault - f0));
  }
  return costs.sort((a, b) => a - b)[1];
}

/**
 * A full collection, then a second one: V8 sweeps after a full collection on helper threads while the
 * program goes on, and after a collection with much to free (the first predict's follows three fits) that
 * sweeping ran alongside the timed call, on a machine of two cores. The second collection finishes it.
 */
function collect() {
  globalThis.gc?.();
  globalThis.gc?.();
}

/** Seconds and page faults of one call (after two full collections, under `--expose-gc`). */
async function timed(fn) {
  collect();
  const f0 = resourceUsage().minorPageFault;
  const t0 = performance.now();
  const value = await fn();
  return { seconds: (performance.now() - t0) / 1000, faults: resourceUsage().minorPageFault - f0, value };
}

const train = await loadAdult({ dataDir, split: 'train' });
const test = await loadAdult({ dataDir, split: 'test' });
const fits = [];
const models = [];
for (let r = 0; r < 3; r++) {
  const call = await timed(() => fit(train, { ...options, ...(options === forest ? { seed: r } : {}) }));
  fits.push(call);
  models.push(call.value);
}
const big = benchRows(train, test);
const predicts = [];
for (let r = 0; r < 3; r++) predicts.push(await timed(() => models[0].predict(big)));
const second = await timed(() => models[1].predict(big));
const usPerFault = faultCost();
const strip = (calls) => ({ seconds: calls.map((c) => c.seconds), faults: calls.map((c) => c.faults) });
console.log(
  JSON.stringify({
    fits: strip(fits),
    predicts: strip(predicts),
    secondModelFirstPredict: { seconds: second.seconds, faults: second.faults },
    usPerFault,
    collected: globalThis.gc !== undefined,
  }),
);
