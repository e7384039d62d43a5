import { existsSync } from 'node:fs';
import { Hasher } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { runTasks, type SamplingJob, type SamplingTask } from '../src/sampling-threads.js';

const d = 4;
const correlation = Float64Array.from([
  1, 0.6, -0.4, 0.5, 0.6, 1, 0.1, 0.7, -0.4, 0.1, 1, -0.3, 0.5, 0.7, -0.3, 1,
]);
const tasks: SamplingTask[] = [0, 1, 2, 3].map((t) => ({
  index: Int32Array.from([t % d, (t + 1) % d]),
  lo: Float64Array.from([-0.5, 0.2]),
  hi: Float64Array.from([0.8, Number.POSITIVE_INFINITY]),
  size: 50,
  row: 50 * t,
  label: `subgroup-${t}`,
}));

function run(order: readonly SamplingTask[], out: Float64Array): void {
  const job: SamplingJob = {
    seed: 11,
    forks: ['rows'],
    correlation,
    tasks: order,
    out,
    control: new Int32Array(3),
    errorText: new Uint8Array(8),
  };
  runTasks(job);
}

describe('conditional sampling in threads', () => {
  it("a subgroup's rows do not depend on which tasks run before it", () => {
    const inOrder = new Float64Array(200 * d);
    run(tasks, inOrder);
    const reversed = new Float64Array(200 * d);
    run([...tasks].reverse(), reversed);
    const alone = new Float64Array(200 * d);
    run([tasks[2]!], alone);
    expect(reversed).toEqual(inOrder);
    expect(alone.subarray(100 * d, 150 * d)).toEqual(inOrder.subarray(100 * d, 150 * d));
  });

  // Helper threads run the built script, so this compares the built package with itself.
  const dist = new URL('../dist/index.js', import.meta.url);
  it.skipIf(!existsSync(dist))('the built generator gives the same output on 1 and 3 threads', async () => {
    const { generate } = await import(dist.href);
    // Over 100,000 subgroup rows, so that helper threads are used.
    const options = {
      seed: 2,
      attributes: 14,
      pairs: 60,
      valueSampling: 'uniform',
      minIntersectionality: 2,
      minGranularity: 3,
      maxGranularity: 4,
      minGroupSize: 1800,
      maxGroupSize: 2000,
      backgroundShare: 0.05,
      ensembleSize: 2,
    };
    const digest = (threads: number) => {
      const r = generate({ ...options, threads });
      return new Hasher().numbers(r.dataset.x).numbers(r.dataset.y).numbers(r.truth.probability).digest();
    };
    expect(digest(3)).toBe(digest(1));
  });
});
