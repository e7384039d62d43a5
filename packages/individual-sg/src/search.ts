import { CheckStatus, type IndividualSearch, type RunController } from '@fb/core';
import {
  type ConstraintSet,
  constraintKey,
  globalConstraintSets,
  localConstraintSets,
} from './constraints.js';
import { PathExplainer } from './explainer.js';
import type { SgOptions } from './options.js';
import { RowPriorityQueue } from './priority-queue.js';
import { seedOrder } from './seeds.js';
import { acquireZ3, PathSolver, releaseZ3 } from './solver.js';

/**
 * Queue ranks (lower first): local candidates 1 + c, seeds 5, global candidates 10 - c (c = the set's
 * `confidence`: the whole negated path's mean for a local set, the set's own for a global one).
 */
const SEED_RANK = 5;
const LOCAL_RANK = 1;
const GLOBAL_RANK = 10;

/** Resolves with `work`, or with null as soon as the run must stop (polled every 10 ms). */
async function unlessStopped<T>(work: Promise<T>, ctl: RunController): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const stop = new Promise<null>((resolve) => {
    timer = setInterval(() => {
      if (ctl.shouldStop()) resolve(null);
    }, 10);
  });
  try {
    return await Promise.race([work, stop]);
  } finally {
    clearInterval(timer);
  }
}

/**
 * SG (Aggarwal et al., ESEC/FSE 2019): a priority queue seeded with k-means-ordered data rows. Each
 * popped input is checked; its decision path in a local tree (the LIME way) gives constraint sets,
 * local ones (around a discriminatory input) and global ones (towards new paths), solved with Z3;
 * the solutions join the queue with local first.
 */
export async function symbolicGeneration({
  dataset,
  model,
  options,
  ctl,
  checker,
}: IndividualSearch<SgOptions>): Promise<Record<string, unknown>> {
  const { d, schema } = dataset;
  const isProtected = (j: number) => schema.attributes[j]!.protected;
  const z3 = acquireZ3();
  let solver: PathSolver | null = null;
  const stats = {
    explained: 0,
    discriminatoryExplained: 0,
    repeatsPopped: 0,
    emptyPaths: 0,
    localSets: 0,
    globalSets: 0,
    visitedSkipped: 0,
    unsatisfiable: 0,
    queueLeft: 0,
  };
  const timings = { z3InitSeconds: 0, explainSeconds: 0, solveSeconds: 0 };
  const paths = new Set<string>();
  // A check the run stopped waiting for (see `releaseZ3`).
  let abandoned: Promise<unknown> | null = null;
  let failed = true;
  try {
    const queue = new RowPriorityQueue(d);
    const seeds = seedOrder(
      dataset,
      options.clusters,
      options.seeds,
      ctl.rng.fork('kmeans'),
      () => ctl.shouldStop() !== null,
    );
    for (const i of seeds) queue.push(dataset.x, i * d, SEED_RANK);
    const explainer = new PathExplainer(dataset, options.limeSamples);
    const limeRng = ctl.rng.fork('lime');
    const treeRng = ctl.rng.fork('tree');
    const visited = new Set<string>();
    let lastExplainSeconds = 0;
    const t = new Float64Array(d);
    const row = new Float64Array(d);
    while (queue.length > 0 && checker.tsn < options.sampleLimit) {
      if (await ctl.checkpoint({ phase: 'search', done: checker.tsn, total: options.sampleLimit })) break;
      queue.pop(t);
      // One input per check: the queue order depends on what the previous input produced.
      const { status, fresh } = checker.check(t);
      if (status[0] === CheckStatus.Skipped) {
        ctl.shouldStop(); // records which budget ran out
        break;
      }
      if (fresh[0] === 0) {
        stats.repeatsPopped++;
        continue;
      }
      const discriminatory = status[0] === CheckStatus.Discriminatory;
      // One explanation queries limeSamples rows at once: never start one the query budget cannot pay.
      const maxQueries = ctl.budget.maxQueries;
      if (maxQueries !== undefined && model.distinctQueries + options.limeSamples > maxQueries) {
        ctl.stopFor('query-budget');
        break;
      }
      // An explanation (one batch query and one tree fit) runs to its end once started: under a time
      // budget, none starts that the time left cannot pay for, going by the last one.
      if (lastExplainSeconds > ctl.remainingSeconds()) {
        ctl.stopFor('time-budget');
        break;
      }
      const explainStart = performance.now();
      const path = explainer.explain(model, t, limeRng, treeRng.nextU32());
      lastExplainSeconds = (performance.now() - explainStart) / 1000;
      timings.explainSeconds += lastExplainSeconds;
      stats.explained++;
      if (discriminatory) stats.discriminatoryExplained++;
      if (path.length === 0) {
        stats.emptyPaths++;
        continue;
      }
      paths.add(constraintKey(path));
      const sets: { set: ConstraintSet; rank: number }[] = [];
      if (discriminatory) {
        for (const set of localConstraintSets(path, isProtected))
          sets.push({ set, rank: LOCAL_RANK + set.confidence });
        stats.localSets += sets.length;
      }
      for (const set of globalConstraintSets(path, isProtected, options.confidenceThreshold)) {
        const key = constraintKey(set.constraints);
        if (visited.has(key)) {
          stats.visitedSkipped++;
          continue;
        }
        visited.add(key);
        stats.globalSets++;
        sets.push({ set, rank: GLOBAL_RANK - set.confidence });
      }
      if (sets.length === 0) continue;
      if (!solver) {
        const initStart = performance.now();
        const lease = await unlessStopped(z3, ctl);
        timings.z3InitSeconds = (performance.now() - initStart) / 1000;
        if (!lease) break;
        solver = new PathSolver(lease, schema);
      }
      const solveStart = performance.now();
      for (const { set, rank } of sets) {
        if (ctl.shouldStop()) break;
        row.set(t);
        // A check waits for Z3's thread, which can take a loaded machine long to start: the
        // wait, not the check, is what a stop cuts short.
        const solving = solver.solve(set.constraints, row);
        const sat = await unlessStopped(solving, ctl);
        if (sat === null) {
          abandoned = solving;
          break;
        }
        if (sat) queue.push(row, 0, rank);
        else stats.unsatisfiable++;
      }
      timings.solveSeconds += (performance.now() - solveStart) / 1000;
      if (ctl.shouldStop()) break;
    }
    stats.queueLeft = queue.length;
    failed = false;
  } finally {
    releaseZ3(z3, { solver, abandoned, failed });
  }
  return {
    ...stats,
    solverChecks: solver?.checks ?? 0,
    repeatedSolves: solver?.repeats ?? 0,
    paths: paths.size,
    timings,
  };
}
