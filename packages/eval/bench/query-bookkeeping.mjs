// What query bookkeeping costs on top of the model: the study's logistic regression predicting 1M
// rows (20 attributes), all distinct or each asked three times, bare, behind core's CountingClassifier,
// and behind the counting wrapper over eval's QueryClock (the study's stack), in one batch and in
// batches of 1,000, interleaved, best of 5 (and the time target's median over the 5); then the row
// index alone by its size. Prints figures; not a test. Run after `pnpm build`: pnpm --filter @fb/eval bench
import os from 'node:os';
import { CountingClassifier, Rng, RowIndex } from '@fb/core';
import { fit } from '@fb/models';
import { generate } from '@fb/synth';
import { reportTarget } from '../../../tools/perf-targets/report.mjs';
import { distinctRows } from '../../core/bench/distinct-rows.mjs';
import { QueryClock } from '../dist/index.js';

const N = 1_000_000;
const { dataset } = generate({ seed: 1, attributes: 20, pairs: 20 });
const model = await fit(dataset, { model: 'logistic-regression' });
const d = dataset.d;
// N distinct rows: uniform draws, a repeated draw replaced by a new one.
const distinct = distinctRows(dataset.schema, N, 'bookkeeping');
// The same rows, each asked three times (a third of them distinct), in shuffled order.
const repeated = new Float64Array(N * d);
{
  const rng = Rng.create('bookkeeping-repeats');
  const third = Math.floor(N / 3);
  for (let i = 0; i < N; i++) {
    const src = rng.int(0, third - 1);
    repeated.set(distinct.subarray(src * d, src * d + d), i * d);
  }
}

const repeatedDistinct = new RowIndex(d, N).getOrAddAll(repeated, N, new Int32Array(N));

const stacks = {
  bare: () => model,
  counting: () => new CountingClassifier(model),
  'counting + clock': () => {
    const clock = new QueryClock(model);
    clock.start();
    return new CountingClassifier(clock.model);
  },
};
// One batch of all rows, or a study's pattern: the same rows in batches of 1,000 through one wrapper.
const kinds = [
  { name: 'distinct', x: distinct, batch: N, distinctRows: N },
  { name: '3 repeats', x: repeated, batch: N, distinctRows: repeatedDistinct },
  { name: 'distinct, 1,000 per batch', x: distinct, batch: 1000, distinctRows: N },
  { name: '3 repeats, 1,000 per batch', x: repeated, batch: 1000, distinctRows: repeatedDistinct },
];
const best = {};
// Each round's seconds, for the time target's median over rounds.
const perRound = {};
const ROUNDS = 5;
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, make] of Object.entries(stacks)) {
    for (const kind of kinds) {
      const m = make();
      const step = kind.batch * d;
      const t0 = performance.now();
      for (let at = 0; at < kind.x.length; at += step) m.predict(kind.x.subarray(at, at + step));
      const s = (performance.now() - t0) / 1000;
      const key = `${kind.name}|${name}`;
      best[key] = Math.min(best[key] ?? Number.POSITIVE_INFINITY, s);
      (perRound[key] ??= []).push(s);
    }
  }
}
const load = os.loadavg()[0].toFixed(2);
console.log(
  `query bookkeeping: ${model.description}, ${N.toLocaleString('en')} rows x ${d} attributes; best of ${ROUNDS}; load ${load}`,
);
for (const kind of kinds) {
  const bare = best[`${kind.name}|bare`];
  console.log(`  ${kind.name} (${kind.distinctRows.toLocaleString('en')} distinct rows)`);
  for (const name of Object.keys(stacks)) {
    const s = best[`${kind.name}|${name}`];
    const extra =
      name === 'bare'
        ? ''
        : `, ${(((s - bare) / kind.distinctRows) * 1e6).toFixed(3)} us per distinct row (${(((s - bare) / N) * 1e6).toFixed(3)} per query) over bare`;
    console.log(`    ${name.padEnd(16)} ${s.toFixed(3)} s = ${(s / bare).toFixed(2)}x bare${extra}`);
  }
}

// The time target: the study's stack over the bare model, per distinct row, 1M distinct rows in batches of
// 1,000, as the median over rounds of each round's difference.
{
  const stack = perRound['distinct, 1,000 per batch|counting + clock'];
  const bare = perRound['distinct, 1,000 per batch|bare'];
  const us = stack.map((s, r) => ((s - bare[r]) / N) * 1e6).sort((a, b) => a - b);
  const median = us[(us.length - 1) >> 1];
  reportTarget({
    target: 'query bookkeeping per distinct 20-feature row (1M distinct rows, batches of 1,000)',
    reference: 'at most 0.2 us',
    measured: `${median.toFixed(3)} us, median of ${ROUNDS} rounds (${us[0].toFixed(3)}-${us.at(-1).toFixed(3)}; load ${load})`,
    holds: median <= 0.2,
    command: 'node packages/eval/bench/query-bookkeeping.mjs',
  });
}

// The index alone, by its size: the same 1M distinct rows in 1,000-row batches into fresh indexes of
// 10,000, 100,000 or 1M rows each (adding), then asked again (finding). Best of 3.
console.log('  row index alone, 1,000-row batches, by rows per index (best of 3):');
const ids = new Int32Array(1000);
for (const size of [10_000, 100_000, N]) {
  let add = Number.POSITIVE_INFINITY;
  let again = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    let a = 0;
    let f = 0;
    for (let from = 0; from < N; from += size) {
      const index = new RowIndex(d);
      const part = distinct.subarray(from * d, (from + size) * d);
      const pass = () => {
        const t0 = performance.now();
        for (let at = 0; at < part.length; at += 1000 * d)
          index.getOrAddAll(part.subarray(at, at + 1000 * d), 1000, ids);
        return performance.now() - t0;
      };
      a += pass();
      f += pass();
    }
    add = Math.min(add, a);
    again = Math.min(again, f);
  }
  console.log(
    `    ${size.toLocaleString('en').padStart(9)} rows: adding ${((add / N) * 1e3).toFixed(3)} us per row, finding ${((again / N) * 1e3).toFixed(3)} us per row`,
  );
}
