// First calls against later ones, each kind of model in fresh processes of its own (bench/first-call.mjs,
// FIRST_CALL_RUNS processes per kind, default 5, 0 to skip, one after the other): first / the faster of
// the two later calls, as the median and range over the processes. The forest is timed twice: with the
// default prediction threads, and with prediction on the calling thread alone (its first predict then pays
// one thread's compilation, with a core left for the compiler). The page faults of a first predict beyond
// a later one's are shown with what they cost in CPU time at the price of a fault in the same process (not
// in wall time: cutting a third of them, by reordering rows in place, did not change the first predict's
// time measurably). Each process runs with `--expose-gc`, so that every timed call starts after a full
// collection (FIRST_CALL_GC=0 to time calls as they come, see first-call.mjs). Run by
// bench/perf.mjs at its end, or alone: `node bench/first-calls.mjs`. Data: FB_DATA_DIR, else
// ../shared/datasets next to the repository. Prints figures; not a test.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportTarget } from '../../../tools/perf-targets/report.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.FB_DATA_DIR ?? path.resolve(here, '../../../../shared/datasets');
const median = (v) => [...v].sort((a, b) => a - b)[(v.length - 1) >> 1];
const s = (v) => `${v.toFixed(3)} s`;
// The faster of the later calls (the lower middle of two).
const later = (v) => median(v.slice(1));
const runs = Number(process.env.FIRST_CALL_RUNS ?? 5);
// Each timed call after a full collection (see first-call.mjs); FIRST_CALL_GC=0 times calls as they come.
const gcFlag = process.env.FIRST_CALL_GC === '0' ? [] : ['--expose-gc'];
const range = (v) => `${Math.min(...v).toFixed(2)}-${Math.max(...v).toFixed(2)}x`;
const ratios = (v) => `median ${median(v).toFixed(2)}x, ${range(v)}`;
const kinds =
  runs > 0
    ? [
        ['forest', 'forest (100 trees)'],
        ['forest-1', 'forest (100 trees), prediction on the calling thread alone'],
        ['tree', 'decision tree (depth 10)'],
        ['logistic', 'logistic regression'],
      ]
    : [];

/** `runs` fresh processes of one kind, each timing its calls after full collections or as they come. */
function processes(name, flags) {
  return Array.from({ length: runs }, () =>
    JSON.parse(
      execFileSync(process.execPath, [...flags, path.join(here, 'first-call.mjs'), dataDir, name], {
        encoding: 'utf8',
      }),
    ),
  );
}
const fitRatios = (results) => results.map((r) => r.fits.seconds[0] / later(r.fits.seconds));
const predictRatios = (results) => results.map((r) => r.predicts.seconds[0] / later(r.predicts.seconds));

for (const [name, label] of kinds) {
  const results = processes(name, gcFlag);
  const fit = fitRatios(results);
  const predict = predictRatios(results);
  const second = results.map((r) => r.secondModelFirstPredict.seconds / later(r.predicts.seconds));
  // The CPU time of the first predict's extra page faults, at this process's price of a fault.
  const faultSeconds = results.map(
    (r) => (Math.max(0, r.predicts.faults[0] - later(r.predicts.faults)) * r.usPerFault) / 1e6,
  );
  console.log(
    `first call in a fresh process, ${label}, ${runs} processes: fit ${ratios(fit)} a later fit ` +
      `(${s(median(results.map((r) => r.fits.seconds[0])))} vs ${s(median(results.map((r) => later(r.fits.seconds))))}); ` +
      `predict 100,000 rows ${ratios(predict)} a later predict ` +
      `(${s(median(results.map((r) => r.predicts.seconds[0])))} vs ${s(median(results.map((r) => later(r.predicts.seconds))))}); ` +
      `a second model's first predict ${ratios(second)}`,
  );
  console.log(
    `  page faults of the first predict ${median(results.map((r) => r.predicts.faults[0]))} against ` +
      `${median(results.map((r) => later(r.predicts.faults)))} in a later one, at ` +
      `${median(results.map((r) => r.usPerFault)).toFixed(1)} us a fault here (${s(median(faultSeconds))} of CPU time)`,
  );
}
console.log(
  `load average ${loadavg()[0].toFixed(1)} after the first calls; ` +
    (gcFlag.length
      ? 'each timed call after two full collections'
      : 'calls timed as they came (FIRST_CALL_GC=0)'),
);

// The time target: first calls at most 1.5x a later one in fresh processes, timed as the calls come
// (no collection forced before them), for the study's trained models.
if (runs > 0) {
  console.log('first calls as they come (the time target), medians over fresh processes:');
  for (const [name, label] of kinds.filter(([n]) => n !== 'forest-1')) {
    const results = gcFlag.length ? processes(name, []) : processes(name, gcFlag);
    for (const [call, values] of [
      ['fit', fitRatios(results)],
      ['predict', predictRatios(results)],
    ]) {
      reportTarget({
        target: `${label}: first ${call} / a later one, fresh processes, as calls come`,
        reference: 'at most 1.5x',
        measured: `${ratios(values)} (${runs} processes, load ${loadavg()[0].toFixed(1)})`,
        holds: median(values) <= 1.5,
        command: 'FIRST_CALL_GC=0 node packages/models/bench/first-calls.mjs',
      });
    }
  }
}
