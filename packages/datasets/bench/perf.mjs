// Load time of every loader on the reference copies (gzipped), from the built package.
import { resolve } from 'node:path';
import * as datasets from '../dist/index.js';

const dataDir = process.env.FB_DATA_DIR ?? resolve(import.meta.dirname, '../../../../shared/datasets');
const runs = [
  ['loadAdult train', datasets.loadAdult, {}],
  ['loadAdult test', datasets.loadAdult, { split: 'test' }],
  ['loadGerman', datasets.loadGerman, {}],
  ['loadBank', datasets.loadBank, {}],
  ['loadCompas', datasets.loadCompas, {}],
  ['loadCensus13', datasets.loadCensus13, {}],
  ['loadCredit', datasets.loadCredit, {}],
  ['loadBankLiterature', datasets.loadBankLiterature, {}],
];
console.log('loader               rows    ms (median of 3, gunzip + SHA-256 + parse)');
for (const [name, load, options] of runs) {
  const times = [];
  let n = 0;
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    n = (await load({ dataDir, ...options })).n;
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(20)} ${String(n).padStart(6)} ${times[1].toFixed(0).padStart(5)}`);
}
