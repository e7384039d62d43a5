import * as synth from '@fb/synth';
import { subsetRows, Rng } from '@fb/core';
import { loadavg } from 'node:os';
const A = await import('../../../packages/individual-limi/dist-ref/index.js');
const B = await import('../../../packages/individual-limi/dist/index.js');
const seeds = (process.argv[2] ?? '1').split(',').map(Number);
for (const seed of seeds) {
  const g = synth.generate({ attributes: 10, pairs: 3, minGroupSize: 100, maxGroupSize: 500, backgroundShare: 0.6, disjointSubgroups: true, ensembleSize: 0, membership: 'population', rows: 6000, minBias: 0.75, maxBias: 1.5, minAleatoric: 0.05, maxAleatoric: 0.3, seed, threads: 1 });
  const audit = subsetRows(g.dataset, Int32Array.from({ length: 3000 }, (_, i) => 2 * i));
  const out = [];
  for (const [name, M] of seed % 2 ? [['ref', A], ['new', B]] : [['new', B], ['ref', A]]) {
    const t = process.cpuUsage();
    const f = await M.fitLimiGenerator(audit, {}, seed);
    const c = process.cpuUsage(t);
    const z = f.generator.sampleLatent(Rng.create(7), 2000);
    const rows = f.generator.decode(z, 2000);
    out.push({ name, s: (c.user + c.system) / 1e6, sum: rows.reduce((a, b) => a + b, 0), loss: f.lossPerEpoch?.at(-1) });
  }
  const [x, y] = out.sort((a, b) => (a.name < b.name ? -1 : 1));
  console.log(`seed ${seed} new ${x.s.toFixed(2)} s ref ${y.s.toFixed(2)} s ratio ${(y.s / x.s).toFixed(2)} same ${x.sum === y.sum && x.loss === y.loss} load ${loadavg()[0].toFixed(2)}`);
}
