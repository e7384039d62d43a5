// VeriFair speed: verdicts at the paper's delta, batched against one model query per sample (the
// original's n_samples = 1). Run after `pnpm build`: `pnpm --filter @fb/subgroup-verifair bench`.
import { makeFixture } from '@fb/testkit';
import { verifair } from '../dist/index.js';

const { dataset, model } = makeFixture(20_000, 'verifair-bench');
console.log(`data: ${dataset.n} rows (testkit planted-bias fixture), model: ${model.description}`);
console.log('delta = 0.5e-10, c = 0.15, ratio form, independent-marginal populations\n');
console.log('batch    pair              verdict   samples/group   model calls   seconds');
for (const batchSize of [1, 1000, 10_000]) {
  const t = performance.now();
  const r = await verifair.run({ dataset, model }, { batchSize, population: 'independent' }, { seed: 1 });
  const total = (performance.now() - t) / 1000;
  for (const v of r.extras.verdicts) {
    const pair = `${v.attribute} ${v.a}/${v.b}`.padEnd(16);
    const calls = Math.ceil(v.samples / batchSize) * 2;
    console.log(
      `${String(batchSize).padStart(6)}   ${pair}  ${v.verdict.padEnd(8)}  ${String(v.samples).padStart(13)}   ${String(calls).padStart(11)}`,
    );
  }
  console.log(`${' '.repeat(6)}   all ${r.extras.verdicts.length} pairs: ${total.toFixed(3)} s\n`);
}
