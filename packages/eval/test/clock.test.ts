import { type Classifier, CountingClassifier, createRng } from '@fb/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClock } from '../src/index.js';

const d = 3;
const model: Classifier = {
  nFeatures: d,
  nClasses: 2,
  predict: (x) => new Int32Array(x.length / d).map((_, i) => (x[i * d]! > 0.5 ? 1 : 0)),
};

describe('QueryClock', () => {
  it.each<[string, (rng: ReturnType<typeof createRng>) => number]>([
    ['random reals', (rng) => rng.uniform(0, 1)],
    ['few values (many repeats)', (rng) => rng.int(0, 2)],
    ['-0, 0 and NaN', (rng) => [-0, 0, Number.NaN, 1][rng.int(0, 3)]!],
  ])('stamps each distinct row with the count of distinct rows at its first query, on %s', (_, draw) => {
    const rng = createRng(3);
    const clock = new QueryClock(model, { shareIndex: false });
    clock.start();
    // Directly and through a counting wrapper (the clock keeps its own index).
    const counted = new CountingClassifier(clock.model);
    const order = new Map<string, number>();
    const key = (x: Float64Array, i: number) => Array.from(x.subarray(i * d, (i + 1) * d), String).join();
    const rows: Float64Array[] = [];
    for (let t = 0; t < 200; t++) {
      const n = rng.int(1, 30);
      const x = new Float64Array(n * d);
      for (let k = 0; k < x.length; k++) x[k] = draw(rng);
      (t % 2 ? counted : clock.model).predict(x);
      for (let i = 0; i < n; i++) {
        if (!order.has(key(x, i))) order.set(key(x, i), order.size + 1);
        rows.push(x.slice(i * d, (i + 1) * d));
      }
    }
    expect(clock.queries).toBe(order.size);
    let mismatches = 0;
    for (const row of rows) {
      const stamp = clock.stampOf(row);
      if (stamp?.queries !== order.get(key(row, 0))) mismatches++;
    }
    expect(mismatches).toBe(0);
    expect(clock.stampOf([9, 9, 9])).toBeNull();
  });

  it("gives the same stamps with the counting wrapper's index as with its own", () => {
    const rng = createRng(4);
    const own = new QueryClock(model, { shareIndex: false });
    const shared = new QueryClock(model);
    const viaOwn = new CountingClassifier(own.model);
    const viaShared = new CountingClassifier(shared.model);
    const withProba: Classifier = {
      ...model,
      predictProba: (x) => {
        const out = new Float64Array((x.length / d) * 2);
        for (let i = 0; i < x.length / d; i++)
          out[2 * i + 1] = 1 - (out[2 * i] = x[i * d]! > 0.5 ? 0.2 : 0.7);
        return out;
      },
    };
    const ownP = new QueryClock(withProba, { shareIndex: false });
    const sharedP = new QueryClock(withProba);
    const viaOwnP = new CountingClassifier(ownP.model);
    const viaSharedP = new CountingClassifier(sharedP.model);
    const rows: Float64Array[] = [];
    for (let t = 0; t < 200; t++) {
      const x = new Float64Array(rng.int(1, 30) * d);
      for (let k = 0; k < x.length; k++) x[k] = rng.int(0, 2);
      viaOwn.predict(x);
      viaShared.predict(x);
      // Labels and probabilities of the same rows: the second asks only rows new to its cache.
      const ask = t % 3 ? 'predict' : 'predictProba';
      viaOwnP[ask](x);
      viaSharedP[ask](x);
      for (let i = 0; i < x.length / d; i++) rows.push(x.slice(i * d, (i + 1) * d));
    }
    expect(shared.queries).toBe(own.queries);
    expect(sharedP.queries).toBe(ownP.queries);
    for (const row of rows) {
      expect(shared.stampOf(row)?.queries).toBe(own.stampOf(row)?.queries);
      expect(sharedP.stampOf(row)?.queries).toBe(ownP.stampOf(row)?.queries);
    }
    expect(shared.stampOf([9, 9, 9])).toBeNull();
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    ['its own index', false],
    ["the counting wrapper's index", true],
  ])('stamps each row with the seconds of the batch that first asked it, with %s', (_, shareIndex) => {
    // A clock whose every reading is one second after the last: batch t is read at t + 1 seconds.
    let ms = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (ms += 1000));
    const clock = new QueryClock(model, { shareIndex });
    clock.start();
    const counted = new CountingClassifier(clock.model);
    const rng = createRng(5);
    const firstBatch = new Map<string, number>();
    const rows: Float64Array[] = [];
    let batches = 0;
    for (let t = 0; t < 300; t++) {
      const x = new Float64Array(rng.int(1, 20) * d);
      for (let k = 0; k < x.length; k++) x[k] = rng.int(0, 4);
      // Through the wrapper, a batch with no new row does not reach the clock.
      const before = counted.distinctQueries;
      counted.predict(x);
      if (counted.distinctQueries === before) continue;
      batches++;
      for (let i = 0; i < x.length / d; i++) {
        const row = x.slice(i * d, (i + 1) * d);
        const key = row.join();
        if (!firstBatch.has(key)) firstBatch.set(key, batches);
        rows.push(row);
      }
    }
    expect(batches).toBeGreaterThan(20);
    expect(firstBatch.size).toBeGreaterThan(60);
    for (const row of rows) expect(clock.stampOf(row)?.seconds).toBe(firstBatch.get(row.join()));
  });
});
