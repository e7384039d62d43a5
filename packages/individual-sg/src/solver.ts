import { bounds, cardinality, clampToDomain, type Schema } from '@fb/core';
import { type Context, init, killThreads } from 'z3-solver';
import type { Predicate } from './constraints.js';

type Z3 = Awaited<ReturnType<typeof init>>;

/**
 * The process's Z3 module, initialised on first use (about 300 ms), and the contexts of finished
 * runs. Both are kept between runs:
 * - a Z3 context is freed only when the garbage collector finalises its JavaScript object, which
 *   comes long after a run; a new context per run grew Z3's memory by several MB a run until it
 *   could reach its 2 GB limit and abort (bench/many-runs.mjs);
 * - idle Z3 threads do not keep the process alive, while ending a thread that is still inside Z3
 *   can leave a lock in the module's memory held, so that a later call waits forever.
 */
interface Pool {
  readonly module: Promise<Z3>;
  readonly idle: Context<'sg'>[];
}
let current: Pool | null = null;

/** A Z3 context for one run: a finished run's, else a new one; give it back with `releaseZ3`. */
export interface Lease {
  readonly pool: Pool;
  readonly ctx: Context<'sg'>;
}

/**
 * A context of the process's Z3 module, once the module is ready. A module that failed to load is
 * forgotten, so that the next run loads it again instead of failing the same way.
 */
export async function acquireZ3(): Promise<Lease> {
  current ??= { module: init(), idle: [] };
  const pool = current;
  let module: Z3;
  try {
    module = await pool.module;
  } catch (e) {
    if (current === pool) current = null;
    throw e;
  }
  return { pool, ctx: pool.idle.pop() ?? new module.Context('sg') };
}

/** How long an interrupted check may take to answer before its module is given up. */
const INTERRUPT_WAIT_MS = 10_000;

/**
 * End a run's use of Z3: its solver is released and its context goes back to the pool. A run that
 * interrupted a check (`abandoned`: the check it stopped waiting for) gives its context up instead,
 * once that check has answered (normally within milliseconds): an interrupt that lands after the
 * check ended stays pending in the context and cancels a later call half-way, so that a reused
 * context answered `sat` with a model that breaks the constraints (test/z3-interrupt.test.ts). A
 * check still running INTERRUPT_WAIT_MS later ignored its interrupt and would keep the process alive:
 * the module's threads are ended and the module is dropped (its memory may now hold a lock), so the
 * next run loads a fresh one.
 */
export function releaseZ3(
  lease: Promise<Lease>,
  solver: { release(): void } | null,
  abandoned: Promise<unknown> | null,
): void {
  lease.then(
    ({ pool, ctx }) => {
      if (!abandoned) {
        if (current !== pool) return;
        solver?.release();
        pool.idle.push(ctx);
        return;
      }
      // Interrupted: the solver is released once its check answered, and the context is dropped
      // (freed when the garbage collector finalises it).
      const giveUp = () => {
        if (current === pool) solver?.release();
      };
      let answered = false;
      const timer = setTimeout(() => {
        if (answered) return;
        if (current === pool) current = null;
        pool.module.then((module) => killThreads(module.em)).catch(() => undefined);
      }, INTERRUPT_WAIT_MS);
      timer.unref();
      abandoned
        .catch(() => undefined)
        .then(() => {
          answered = true;
          clearTimeout(timer);
          giveUp();
        });
    },
    () => undefined,
  );
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

  constructor(ctx: Context<'sg'>, schema: Schema) {
    const attrs = schema.attributes;
    this.schema = schema;
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

  /** Free the solver's memory in Z3 (the context stays usable). */
  release(): void {
    this.solver.release();
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
