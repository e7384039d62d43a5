import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { HelperPool, reportFailure, sharedProgress, threadCount, waitForItems } from '../src/threads.js';

// A helper that claims items and squares them into shared memory, failing on the item `failAt`.
const SOURCE = `
const { parentPort } = require('node:worker_threads');
${reportFailure.toString()}
parentPort.on('message', (job) => {
  try {
    for (let i = Atomics.add(job.control, 0, 1); i < job.out.length; i = Atomics.add(job.control, 0, 1)) {
      if (i === job.failAt) throw new Error('item ' + i + ' is bad');
      job.out[i] = i * i;
      Atomics.add(job.control, 1, 1);
      Atomics.notify(job.control, 1);
    }
  } catch (e) {
    ${reportFailure.name}(job, e);
  }
});
`;

describe('helper threads', () => {
  const pool = new HelperPool(() => new Worker(SOURCE, { eval: true }));

  function run(items: number, failAt: number): Float64Array {
    const progress = sharedProgress();
    const out = new Float64Array(new SharedArrayBuffer(items * 8));
    for (const w of pool.take(2)) w.postMessage({ ...progress, out, failAt });
    waitForItems(progress, items, (problem) => new RangeError(`squares: ${problem}`));
    return out;
  }

  it('helpers claim every item once and the caller waits for all of them', () => {
    const out = run(5000, -1);
    for (let i = 0; i < 5000; i++) expect(out[i]).toBe(i * i);
  });

  it("a helper's failure reaches the caller with its message", () => {
    expect(() => run(5000, 1234)).toThrow(
      new RangeError('squares: failed in a helper thread: item 1234 is bad'),
    );
  });

  it("threadCount: 'auto' is one per core up to 8, a count stays as given", () => {
    expect(threadCount('auto')).toBe(Math.min(8, availableParallelism()));
    expect(threadCount(3)).toBe(3);
  });
});
