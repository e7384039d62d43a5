// SliceFinder on a random forest's log loss on Adult (not a test). Run after `pnpm build`:
//   node bench/perf.mjs
// Data from FB_DATA_DIR, else the repository's ../shared/datasets.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAdult } from '@fb/datasets';
import { fitRandomForest } from '@fb/models';
import { slicefinder } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.FB_DATA_DIR ?? path.resolve(here, '../../../../shared/datasets');
const adult = await loadAdult({ dataDir });
const forest = fitRandomForest(adult, { nEstimators: 20, maxDepth: 10, seed: 1 });
console.log(`Adult train: ${adult.n} rows x ${adult.d} attributes; forest of 20 trees (depth 10)`);

for (const options of [
  { approach: 'lattice' },
  { approach: 'decision-tree' },
  { approach: 'lattice', loss: 'zero-one' },
]) {
  const times = [];
  let result;
  for (let rep = 0; rep < 3; rep++) {
    result = await slicefinder.run({ dataset: adult, model: forest }, options);
    times.push(result.run.wallSeconds);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${JSON.stringify(options)}: median ${times[1].toFixed(3)} s (min ${times[0].toFixed(3)}, max ${times[2].toFixed(3)}); ` +
      `${result.metrics.dsn} slices; ${JSON.stringify(result.extras.lattice ?? result.extras.decisionTree)}`,
  );
  for (const s of result.findings.subgroups.slice(0, 3)) {
    const desc = s.conditions
      .map((c) => ('values' in c ? `${c.attribute}∈{${c.values}}` : `${c.attribute}∈[${c.min},${c.max}]`))
      .join(' ∧ ');
    console.log(`  size ${s.size}  φ ${s.score.toFixed(3)}  p ${s.pValue?.toExponential(2)}  ${desc}`);
  }
}
