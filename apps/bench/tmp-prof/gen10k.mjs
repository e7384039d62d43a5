import * as synth from '@fb/synth';
const o = { attributes: 20, pairs: 3, minGroupSize: 100, maxGroupSize: 500, backgroundShare: 0.6, disjointSubgroups: true, ensembleSize: Number(process.argv[3] ?? 0), membership: 'population', rows: Number(process.argv[2] ?? 10000), threads: 1 };
const ts = [];
for (let s = 1; s <= 12; s++) { const t = performance.now(); synth.generate({ ...o, seed: s }); ts.push(performance.now() - t); }
console.log(ts.map((t) => t.toFixed(1)).join(' '));
