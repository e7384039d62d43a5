// The MLP (64-32-16-8-4, relu, Adam 0.001, batches of 128, 20 epochs, no early stopping) on UCI Adult
// against scikit-learn's MLPClassifier with the same network, schedule and encoding (one-hot +
// standardised), run alternately in this one command, best of 2 each, ours with its loops on WebAssembly
// and on typed arrays; then input gradients of 10,000 rows. Prints figures; not a test. Run after `pnpm build`: node bench/mlp.mjs (FB_DATA_DIR, else
// ../shared/datasets next to the repository).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAdult } from '@fb/datasets';
import { evaluate, fitMlp } from '../dist/index.js';
import { findPython, writeSplits } from './sklearn.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.FB_DATA_DIR ?? path.resolve(here, '../../../../shared/datasets');
const train = await loadAdult({ dataDir, split: 'train' });
const test = await loadAdult({ dataDir, split: 'test' });
const d = train.d;
const epochs = 20;
const options = { epochs, earlyStopping: false, learningRate: 0.001, seed: 0 };

const python = findPython();
const dir = mkdtempSync(path.join(tmpdir(), 'fb-mlp-bench-'));
writeSplits(dir, train, test);

console.log(
  `MLP 64-32-16-8-4 on Adult (${train.n} training rows, ${test.n} test rows), ${epochs} epochs; ` +
    `load average ${loadavg()[0].toFixed(1)} on entry`,
);
// Ours with the loops on WebAssembly SIMD (the default) and on typed arrays (FB_MLP_KERNELS=js; the
// same weights to the bit), then scikit-learn, alternately.
const best = { wasm: Infinity, js: Infinity, sk: Infinity };
const cpu = { wasm: Infinity, js: Infinity, sk: Infinity };
let mlp;
let sk;
const ourFit = async (kernels) => {
  process.env.FB_MLP_KERNELS = kernels;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const model = await fitMlp(train, options);
  best[kernels] = Math.min(best[kernels], (performance.now() - t0) / 1000);
  const c = process.cpuUsage(c0);
  cpu[kernels] = Math.min(cpu[kernels], (c.user + c.system) / 1e6);
  delete process.env.FB_MLP_KERNELS;
  return model;
};
try {
  for (let round = 0; round < 2; round++) {
    mlp = await ourFit('wasm');
    await ourFit('js');
    if (python) {
      sk = JSON.parse(
        execFileSync(python, [path.join(here, 'sklearn_mlp.py'), dir, String(epochs)], { encoding: 'utf8' }),
      );
      best.sk = Math.min(best.sk, sk.fit);
      cpu.sk = Math.min(cpu.sk, sk.cpu);
    }
  }
} finally {
  rmSync(dir, { recursive: true });
}
const accuracy = evaluate(mlp, test).accuracy;
// CPU seconds (all threads) next to wall time: on a loaded machine the wall time depends on the share
// of the cores each process gets.
const line = (k) => `fit ${best[k].toFixed(2)} s wall, ${cpu[k].toFixed(2)} s CPU`;
console.log(`  ours, WebAssembly loops: ${line('wasm')}, test accuracy ${accuracy.toFixed(4)}`);
console.log(`  ours, typed-array loops: ${line('js')} (the same weights)`);
if (sk) {
  console.log(
    `  scikit-learn:            ${line('sk')}, test accuracy ${sk.accuracy.toFixed(4)} (MLPClassifier, ${sk.version}, ${sk.epochs} epochs)`,
  );
  for (const k of ['wasm', 'js']) {
    console.log(
      `  fit ours (${k === 'wasm' ? 'WebAssembly' : 'typed arrays'}) / scikit-learn: ${(best[k] / best.sk).toFixed(2)}x wall, ${(cpu[k] / cpu.sk).toFixed(2)}x CPU`,
    );
  }
} else console.log('  scikit-learn: not available (no python3 with sklearn), comparison skipped');

const rows = test.x.subarray(0, 10_000 * d);
let gradBest = Number.POSITIVE_INFINITY;
let gradCpu = Number.POSITIVE_INFINITY;
for (let r = 0; r < 5; r++) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  mlp.scoreGradient(rows);
  gradBest = Math.min(gradBest, (performance.now() - t0) / 1000);
  const c = process.cpuUsage(c0);
  gradCpu = Math.min(gradCpu, (c.user + c.system) / 1e6);
}
console.log(
  `  scoreGradient, 10,000 rows: ${gradBest.toFixed(3)} s wall, ${gradCpu.toFixed(3)} s CPU ` +
    `(best of 5; load average ${loadavg()[0].toFixed(1)})`,
);
