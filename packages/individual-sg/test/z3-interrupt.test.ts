import { defineSchema } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { acquireZ3, PathSolver, releaseZ3 } from '../src/solver.js';

// The real Z3: why a context that was interrupted is never used again.
const schema = defineSchema({
  attributes: [
    { name: 'g', kind: 'categorical', protected: true, categories: ['a', 'b'] },
    { name: 'v', kind: 'continuous', protected: false, min: 0, max: 1 },
  ],
  outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
});
const above = [{ feature: 1, le: false, threshold: 0.25, confidence: 1 }];

describe('Z3 contexts after an interrupt', () => {
  it('an interrupt that lands between checks breaks the next model of that context', async () => {
    const { ctx } = await acquireZ3();
    const solver = new PathSolver(ctx, schema);
    const row = new Float64Array(2);
    expect(await solver.solve(above, row)).toBe(true);
    expect(row[1]).toBeGreaterThan(0.25);
    solver.interrupt();
    solver.release();
    // The next run's solver on that context: 'sat', and a value that breaks v > 0.25, because the
    // pending interrupt cut the model short.
    const reused = new PathSolver(ctx, schema);
    expect(await reused.solve(above, row)).toBe(true);
    expect(row[1]).not.toBeGreaterThan(0.25);
  });

  it('a run that stopped waiting for a check past 500 ms: its context is interrupted and retired, and the next run gets sound models', async () => {
    const lease = acquireZ3();
    const { ctx } = await lease;
    const first = new PathSolver(ctx, schema);
    const row = new Float64Array(2);
    expect(await first.solve(above, row)).toBe(true);
    // A check that the run stopped waiting for and that answers after the grace: its interrupt lands
    // on the context once nothing runs there any more, as in the first test.
    let answer!: (v: string) => void;
    const abandoned = new Promise<string>((resolve) => {
      answer = resolve;
    });
    releaseZ3(lease, { solver: first, abandoned, failed: false });
    await new Promise<void>((resolve) => setTimeout(resolve, 600));
    answer('unknown');
    await new Promise<void>((resolve) => setImmediate(resolve));
    const next = await acquireZ3();
    expect(next.ctx).not.toBe(ctx);
    const solver = new PathSolver(next.ctx, schema);
    for (let k = 0; k < 3; k++) {
      row.fill(0);
      expect(await solver.solve(above, row)).toBe(true);
      expect(row[1]).toBeGreaterThan(0.25);
    }
  });
});
