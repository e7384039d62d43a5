import { createRng } from '@fb/core';
import { generate, sampleCopula } from '../dist/index.js';
const options = { seed: 1, attributes: 20, pairs: 100, valueSampling: 'uniform', minIntersectionality: 2, minGranularity: 3, maxGranularity: 4, minGroupSize: 1600, maxGroupSize: 2000, backgroundShare: 0.1, threads: 1 };
for (let i = 0; i < Number(process.argv[2] ?? 2); i++) {
  let t = performance.now(); const r = generate(options); const g = performance.now() - t;
  t = performance.now(); sampleCopula(r.copula, r.dataset.n, createRng(1)); const p = performance.now() - t;
  console.log('rows', r.dataset.n, 'generate', g.toFixed(0), 'plain', p.toFixed(0), 'ratio', (g / p).toFixed(2));
}
