import { bounds, cardinality, clampToDomain, type Schema } from '@fb/core';
import { init, killThreads } from 'z3-solver';
import type { Predicate } from './constraints.js';

type Z3 = Awaited<ReturnType<typeof init>>;

/** One Z3 module per process, initialised on first use (about 300 ms). */
let shared: Promise<Z3> | null = null;
/** Thread shutdown of the last run, awaited before the module is used again. */
let stopping: Promise<void> = Promise.resolve();

/** The process's Z3 module, initialised on first use. */
export async function acquireZ3(): Promise<Z3> {
  await stopping;
  shared ??= init();
  return shared;
}

/**
 * End Z3's worker threads so that the process can exit, once `pending` (a check the run stopped
 * waiting for) has settled: killing a thread mid-check would leave Z3's call lock held for good.
 * The module stays loaded: the next run reuses it, and Z3 starts new workers on its next check.
 */
export function releaseZ3(z3: Promise<Z3>, pending: Promise<unknown>): void {
  stopping = pending
    .catch(() => undefined)
    .then(() => z3)
    .then(async (module) => {
      await threadsIdle(module.em);
      await killThreads(module.em);
    })
    .catch(() => undefined);
}

/** Longest wait for Z3's threads to report back before they are ended regardless. */
const IDLE_WAIT_MS = 2000;

/**
 * Resolve once no Z3 thread is running. A check's answer can arrive before its thread's own
 * "finished" message; ending the thread in between makes Emscripten print a warning about a message
 * from a terminated worker on stderr.
 */
async function threadsIdle(em: { PThread: { runningWorkers: unknown[] } }): Promise<void> {
  const deadline = performance.now() + IDLE_WAIT_MS;
  while (em.PThread.runningWorkers.length > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/**
 * Path constraints over the schema's attributes, solved incrementally with Z3: one variable per
 * attribute with its domain bounds asserted once (an Int grid index for a discrete attribute, a Real
 * for a continuous one); each constraint set is solved between push and pop.
 */
export class PathSolver {
  checks = 0;
  private readonly schema: Schema;
  private readonly solver;
  private readonly ctx;
  private readonly vars;
  private readonly lo: Float64Array;
  private readonly step: Float64Array;

  constructor(z3: Z3, schema: Schema) {
    const attrs = schema.attributes;
    this.schema = schema;
    const ctx = new z3.Context('sg');
    this.ctx = ctx;
    this.solver = new ctx.Solver();
    this.lo = new Float64Array(attrs.length);
    this.step = new Float64Array(attrs.length);
    this.vars = attrs.map((a, j) => {
      const [lo, hi] = bounds(a);
      this.lo[j] = lo;
      const k = cardinality(a);
      if (Number.isFinite(k)) {
        this.step[j] = a.categories ? 1 : a.step!;
        const v = ctx.Int.const(`x${j}`);
        this.solver.add(v.ge(0), v.le(k - 1));
        return v;
      }
      const v = ctx.Real.const(`x${j}`);
      this.solver.add(v.ge(ctx.Real.val(lo)), v.le(ctx.Real.val(hi)));
      return v;
    });
  }

  private assertion(p: Predicate) {
    const j = p.feature;
    const v = this.vars[j]!;
    if (this.step[j] === 0) {
      const t = this.ctx.Real.val(p.threshold);
      return p.le ? v.le(t) : v.gt(t);
    }
    // On the grid lo + k step: x <= t  <=>  k <= floor((t - lo) / step).
    const last = Math.floor((p.threshold - this.lo[j]!) / this.step[j]! + 1e-9);
    return p.le ? v.le(last) : v.ge(last + 1);
  }

  /** Ask a running check to give up (it then answers 'unknown'). */
  interrupt(): void {
    this.ctx.interrupt();
  }

  /** A value for every attribute the constraints mention, written into `row`; false if unsatisfiable. */
  async solve(constraints: readonly Predicate[], row: Float64Array): Promise<boolean> {
    const { solver } = this;
    solver.push();
    try {
      for (const p of constraints) solver.add(this.assertion(p));
      this.checks++;
      if ((await solver.check()) !== 'sat') return false;
      const model = solver.model();
      for (const p of constraints) {
        const j = p.feature;
        const value = model.eval(this.vars[j]!, true);
        const a = this.schema.attributes[j]!;
        row[j] = this.ctx.isIntVal(value)
          ? clampToDomain(a, this.lo[j]! + Number(value.value()) * this.step[j]!)
          : clampToDomain(a, (value as unknown as { asNumber(): number }).asNumber());
      }
      return true;
    } finally {
      solver.pop();
    }
  }
}
