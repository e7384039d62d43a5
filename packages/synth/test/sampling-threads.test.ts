import { existsSync } from 'node:fs';
import { createRng, defineSchema } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { BiasIndex } from '../src/bias-index.js';
import { buildCopula } from '../src/copula.js';
import { discreteMarginal } from '../src/marginal.js';
import { randomOutcome } from '../src/outcome-model.js';
import { BLOCK_SUMS, type OutcomeArrays, outcomeArrays } from '../src/outcomes.js';
import { type PopulationJob, runTasks, type SamplingTask } from '../src/sampling-threads.js';
import { type Constraint, constraintLatent, type SubgroupDef } from '../src/subgroups.js';
import { outputDigest } from './helpers.js';

const d = 4;
const schema = defineSchema({
  attributes: [0, 1, 2, 3].map((j) => ({
    name: `a${j}`,
    kind: 'categorical' as const,
    protected: j === 0,
    categories: ['0', '1', '2'],
  })),
  outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
});
const copula = buildCopula(
  schema,
  schema.attributes.map((a) => discreteMarginal(a, Float64Array.from([0.3, 0.3, 0.4]))),
  Float64Array.from([1, 0.6, -0.4, 0.5, 0.6, 1, 0.1, 0.7, -0.4, 0.1, 1, -0.3, 0.5, 0.7, -0.3, 1]),
);
const cell = (attr: number, k: number): Constraint => ({
  attr,
  discrete: true,
  kLo: k,
  kHi: k,
  lo: k,
  hi: k,
  maxInclusive: true,
});
// Four subgroups of 50 rows, each on the protected attribute and one other.
const subgroups: SubgroupDef[] = [0, 1, 2, 3].map((t) => ({
  id: t,
  pair: t >> 1,
  side: (t & 1) as 0 | 1,
  constraints: [cell(0, t & 1), cell(1 + (t % 3), 2)],
  bias: t & 1 ? 0 : 1.5,
  aleatoric: 0.2,
  size: 50,
}));
const tasks: SamplingTask[] = subgroups.map((g, t) => {
  const box = g.constraints.map((c) => constraintLatent(copula, c));
  return {
    index: Int32Array.from(g.constraints, (c) => c.attr),
    lo: Float64Array.from(box, (b) => b[0]),
    hi: Float64Array.from(box, (b) => b[1]),
    size: 50,
    row: 50 * t,
    label: `subgroup-${t}`,
  };
});
const setup = {
  schema,
  model: randomOutcome(copula, 1, 0, createRng(3)),
  tau: 0,
  threshold: 0.5,
  bernoulli: true,
  minAleatoric: 0,
  maxAleatoric: 0.5,
};

/** Run the tasks in the given order; the sums come back in task order. */
function run(
  order: readonly number[],
  position: Int32Array | null = null,
): { x: Float64Array; outcomes: OutcomeArrays; sums: Float64Array } {
  const job: PopulationJob = {
    seed: 11,
    copula,
    subgroups: order.map((t) => subgroups[t]!),
    maxCombinations: 1000,
    setup,
    tasks: order.map((t) => tasks[t]!),
    sums: new Float64Array(order.length * BLOCK_SUMS),
    control: new Int32Array(3),
    errorText: new Uint8Array(8),
  };
  const to = { position, x: new Float64Array(200 * d), outcomes: outcomeArrays(200, false) };
  runTasks(job, new BiasIndex(copula, subgroups, 1000), to);
  const sums = new Float64Array(4 * BLOCK_SUMS);
  order.forEach((t, at) => {
    sums.set(job.sums.subarray(at * BLOCK_SUMS, (at + 1) * BLOCK_SUMS), t * BLOCK_SUMS);
  });
  return { x: to.x, outcomes: to.outcomes, sums };
}

describe('subgroup rows and outcomes in threads', () => {
  it("a subgroup's rows and outcomes do not depend on which tasks run before it", () => {
    const inOrder = run([0, 1, 2, 3]);
    const reversed = run([3, 2, 1, 0]);
    const alone = run([2]);
    expect(reversed).toEqual(inOrder);
    const rows = (a: Float64Array | Int32Array, width: number) => a.subarray(100 * width, 150 * width);
    expect(rows(alone.x, d)).toEqual(rows(inOrder.x, d));
    for (const key of Object.keys(inOrder.outcomes) as (keyof OutcomeArrays)[])
      expect(rows(alone.outcomes[key], 1)).toEqual(rows(inOrder.outcomes[key], 1));
    expect(alone.sums.subarray(2 * BLOCK_SUMS, 3 * BLOCK_SUMS)).toEqual(
      inOrder.sums.subarray(2 * BLOCK_SUMS, 3 * BLOCK_SUMS),
    );
    // With positions, row r lands at row position[r].
    const position = Int32Array.from({ length: 200 }, (_, r) => (r * 7 + 3) % 200);
    const placed = run([1, 3, 0, 2], position);
    for (let r = 0; r < 200; r++) {
      const p = position[r]!;
      expect(placed.x.subarray(p * d, (p + 1) * d)).toEqual(inOrder.x.subarray(r * d, (r + 1) * d));
      for (const key of Object.keys(inOrder.outcomes) as (keyof OutcomeArrays)[])
        expect(placed.outcomes[key][p]).toBe(inOrder.outcomes[key][r]);
    }
    // Every row meets its subgroup's conditions; the biased subgroups' rows carry their bias.
    for (let i = 0; i < 200; i++) {
      const g = subgroups[Math.floor(i / 50)]!;
      for (const c of g.constraints) expect(inOrder.x[i * d + c.attr]).toBe(c.lo);
      expect(inOrder.outcomes.bias[i]! >= g.bias).toBe(true);
    }
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
    const digest = (threads: number) => outputDigest(generate({ ...options, threads }));
    expect(digest(3)).toBe(digest(1));
  });
});
