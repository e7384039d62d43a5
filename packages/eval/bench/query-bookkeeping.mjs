// What query bookkeeping costs on top of the model: the study's logistic regression predicting 1M
// uniformly drawn rows (20 attributes) bare, behind core's CountingClassifier, and behind the
// counting wrapper over eval's QueryClock (the study's stack), interleaved, best of 3. Prints figures;
// not a test. Run after `pnpm build`: pnpm --filter @fb/eval bench
import { CountingClassifier, DomainSampler, Rng } from '@fb/core';
import { fit } from '@fb/models';
import { generate } from '@fb/synth';
import { QueryClock } from '../dist/index.js';

const N = 1_000_000;
const { dataset } = generate({ seed: 1, attributes: 20, pairs: 20 });
const model = await fit(dataset, { model: 'logistic-regression' });
const d = dataset.d;
const distinct = new Float64Array(N * d);
new DomainSampler(dataset.schema).fill(Rng.create('bookkeeping'), distinct);
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

const stacks = {
  bare: () => model,
  counting: () => new CountingClassifier(model),
  'counting + clock': () => {
    const clock = new QueryClock(model);
    clock.start();
    return new CountingClassifier(clock.model);
  },
};
const best = {};
for (let round = 0; round < 3; round++) {
  for (const [name, make] of Object.entries(stacks)) {
    for (const [kind, x] of [
      ['distinct', distinct],
      ['3 repeats', repeated],
    ]) {
      const m = make();
      const t0 = performance.now();
      m.predict(x);
      const s = (performance.now() - t0) / 1000;
      const key = `${kind}|${name}`;
      best[key] = Math.min(best[key] ?? Number.POSITIVE_INFINITY, s);
    }
  }
}
console.log(
  `query bookkeeping: ${model.description}, ${N.toLocaleString('en')} rows x ${d} attributes; best of 3`,
);
for (const kind of ['distinct', '3 repeats']) {
  const bare = best[`${kind}|bare`];
  const rows = kind === 'distinct' ? N : Math.floor(N / 3);
  for (const name of Object.keys(stacks)) {
    const s = best[`${kind}|${name}`];
    const extra =
      name === 'bare' ? '' : `, ${(((s - bare) / rows) * 1e6).toFixed(3)} us per distinct row over bare`;
    console.log(
      `  ${kind.padEnd(9)} ${name.padEnd(16)} ${s.toFixed(3)} s = ${(s / bare).toFixed(2)}x bare${extra}`,
    );
  }
}
