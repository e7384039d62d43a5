// The MLP (64-32-16-8-4, relu, Adam 0.001, batches of 128, 20 epochs, no early stopping) on UCI Adult
// against scikit-learn's MLPClassifier with the same network, schedule and encoding (one-hot +
// standardised), run alternately in this one command, best of 2 each; then input gradients of 10,000
// rows. Prints figures; not a test. Run after `pnpm build`: node bench/mlp.mjs (FB_DATA_DIR, else
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
let oursBest = Number.POSITIVE_INFINITY;
let skBest = Number.POSITIVE_INFINITY;
let oursCpu = Number.POSITIVE_INFINITY;
let skCpu = Number.POSITIVE_INFINITY;
let mlp;
let sk;
try {
  for (let round = 0; round < 2; round++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    mlp = await fitMlp(train, options);
    oursBest = Math.min(oursBest, (performance.now() - t0) / 1000);
    const c = process.cpuUsage(c0);
    oursCpu = Math.min(oursCpu, (c.user + c.system) / 1e6);
    if (python) {
      sk = JSON.parse(
        execFileSync(python, [path.join(here, 'sklearn_mlp.py'), dir, String(epochs)], { encoding: 'utf8' }),
      );
      skBest = Math.min(skBest, sk.fit);
      skCpu = Math.min(skCpu, sk.cpu);
    }
  }
} finally {
  rmSync(dir, { recursive: true });
}
const accuracy = evaluate(mlp, test).accuracy;
// CPU seconds (all threads) next to wall time: on a loaded machine the wall time depends on the share
// of the cores each process gets.
console.log(
  `  ours:         fit ${oursBest.toFixed(2)} s wall, ${oursCpu.toFixed(2)} s CPU, test accuracy ${accuracy.toFixed(4)}`,
);
if (sk) {
  console.log(
    `  scikit-learn: fit ${skBest.toFixed(2)} s wall, ${skCpu.toFixed(2)} s CPU, test accuracy ${sk.accuracy.toFixed(4)} (MLPClassifier, ${sk.version}, ${sk.epochs} epochs)`,
  );
  console.log(
    `  fit ours / scikit-learn: ${(oursBest / skBest).toFixed(2)}x wall, ${(oursCpu / skCpu).toFixed(2)}x CPU`,
  );
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
