import { generate } from '../dist/index.js';
const options = {
  seed: 1,
  attributes: 20,
  pairs: 100,
  valueSampling: 'uniform',
  minIntersectionality: 2,
  minGranularity: 3,
  maxGranularity: 4,
  minGroupSize: 1600,
  maxGroupSize: 2000,
  backgroundShare: 0.1,
  threads: 1,
};
const t0 = performance.now();
const c0 = process.cpuUsage();
const r = generate(options);
const c = process.cpuUsage(c0);
console.log(
  r.dataset.n,
  ((performance.now() - t0) / 1000).toFixed(2),
  's wall',
  ((c.user + c.system) / 1e6).toFixed(2),
  'cpu',
);
