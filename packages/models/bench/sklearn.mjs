// What the benchmarks share to run scikit-learn side by side: a python3 with sklearn, and the Adult
// splits as CSV (attributes as codes, then the label) for its scripts.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

/** A python3 that imports sklearn, or undefined. */
export function findPython() {
  return ['python3', '/usr/bin/python3'].find((p) => {
    try {
      execFileSync(p, ['-c', 'import sklearn'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
}

/** Write `train.csv` and `test.csv` into `dir`. */
export function writeSplits(dir, train, test) {
  const csv = (ds) => {
    const lines = [];
    for (let i = 0; i < ds.n; i++)
      lines.push([...ds.x.subarray(i * ds.d, (i + 1) * ds.d), ds.y[i]].join(','));
    return `${lines.join('\n')}\n`;
  };
  writeFileSync(path.join(dir, 'train.csv'), csv(train));
  writeFileSync(path.join(dir, 'test.csv'), csv(test));
}
