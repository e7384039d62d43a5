// VeriFair on Bank (45,211 rows, a logistic regression fitted on them), maxSamples 100,000, seed 1: CPU
// seconds, metrics and the number of findings and verdicts. With BASELINE=<dir> (another build's dist,
// e.g. a copy of dist made before a change), that build runs first on the same data and model in the same
// process, and the two results are compared apart from their query counts. Data: FB_DATA_DIR, else
// ../shared/datasets next to the repository. Run after `pnpm build`: node bench/bank.mjs. Not a test.

import { loadavg } from 'node:os';
import path from 'node:path';
import { cpuUsage } from 'node:process';
import { reproducibleView } from '@fb/core';
import { fit } from '@fb/models';
import { loadBank } from '../../datasets/dist/index.js';

const dataDir = process.env.FB_DATA_DIR ?? path.resolve(import.meta.dirname, '../../../../shared/datasets');
const loaded = await loadBank({ dataDir });
const dataset = loaded.dataset ?? loaded;
const model = await fit(dataset, { model: 'logistic-regression' });
const builds = [
  ...(process.env.BASELINE ? [path.resolve(process.env.BASELINE, 'index.js')] : []),
  '../dist/index.js',
];
const views = [];
for (const build of builds) {
  const { verifair } = await import(build);
  const c0 = cpuUsage();
  const r = await verifair.run({ dataset, model }, { maxSamples: 100_000 }, { seed: 1 });
  const c = cpuUsage(c0);
  console.log(
    `${build}: ${((c.user + c.system) / 1e6).toFixed(2)} CPU s, ${JSON.stringify(r.metrics)}, ` +
      `${r.findings.subgroups.length} findings, ${r.extras.verdicts.length} verdicts`,
  );
  const { metrics: _m, ...rest } = reproducibleView(r);
  views.push(JSON.stringify(rest));
}
if (views.length === 2) console.log(`same findings and verdicts: ${views[0] === views[1]}`);
console.log(
  `load ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' ')}`,
);
process.exit(0);
