// Throughput of the matcher on the built dist: pairs judged per second and subgroup findings matched.
import { generatePlantedPair } from '@fb/synth';
import { matchPairs, matchSubgroups, plantedPairTruth } from '../dist/index.js';

const g = generatePlantedPair({ rows: 50_000, otherAttributes: 10, granularity: 1 }, 1);
const truth = plantedPairTruth(g.truth, g.dataset);
const d = g.dataset.d;
const pairs = [];
for (let i = 0; i < 100_000; i++) {
  const sample = Array.from(g.dataset.x.subarray((i % g.dataset.n) * d, ((i % g.dataset.n) + 1) * d));
  const counterfactual = sample.slice();
  counterfactual[0] = (sample[0] + 1) % 3;
  pairs.push({
    caseId: i,
    sample,
    counterfactual,
    sampleOutcome: 0,
    counterfactualOutcome: 1,
    changed: ['Attr1_T'],
  });
}
let t = performance.now();
const m = matchPairs(pairs, g.dataset, truth);
const pairSeconds = (performance.now() - t) / 1000;
const injected = m.filter((x) => x.verdict === 'injected').length;
console.log(
  `matchPairs: ${pairs.length} pairs in ${pairSeconds.toFixed(3)} s (${Math.round(pairs.length / pairSeconds)} pairs/s), ${injected} injected`,
);

const findings = Array.from({ length: 200 }, (_, k) => ({
  rank: k + 1,
  conditions: [{ attribute: `Attr${(k % 10) + 1}_X`, values: [k % 4] }],
  size: 0,
  score: 1,
  effect: null,
  pValue: null,
  direction: 'lower',
  details: {},
}));
t = performance.now();
matchSubgroups(findings, g.dataset, truth);
const subSeconds = (performance.now() - t) / 1000;
console.log(
  `matchSubgroups: ${findings.length} findings on ${g.dataset.n} rows in ${subSeconds.toFixed(3)} s`,
);
