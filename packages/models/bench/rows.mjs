import { Rng } from '@fb/core';

/**
 * 100,000 queries shaped like a fairness tester's: the test rows, then copies of them with two attributes
 * replaced by values of random training rows (so that most rows are distinct).
 */
export function benchRows(train, test) {
  const d = train.d;
  const big = new Float64Array(100_000 * d);
  const rng = Rng.create('models-bench');
  for (let i = 0; i < 100_000; i++) {
    big.set(test.x.subarray((i % test.n) * d, (i % test.n) * d + d), i * d);
    if (i < test.n) continue;
    for (let k = 0; k < 2; k++) {
      const j = rng.int(0, d - 1);
      big[i * d + j] = train.x[rng.int(0, train.n - 1) * d + j];
    }
  }
  return big;
}
