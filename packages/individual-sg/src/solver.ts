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
 * A context that must not be used again is retired: kept referenced for the module's life, never
 * let go. `z3-solver` frees a context and each of its terms by separate finalisers, in no set order,
 * so a context let go with its terms can be freed before them; the terms' finalisers then write into
 * freed memory of the module, which other contexts reuse.
 */
interface Pool {
  readonly module: Promise<Z3>;
  readonly idle: Context<'sg'>[];
  readonly retired: Context<'sg'>[];
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
  current ??= { module: init(), idle: [], retired: [] };
  const pool = current;
  let module: Z3;
  try {
    module = await pool.module;
  } catch (e) {
    if (current === pool) current = null;
    throw e;
  }
  return { pool, ctx: pool.idle.pop() ?? newContext(module) };
}

/**
 * A context whose reference-count decrements are queued and applied by its next call from this
 * thread. `z3-solver` decrements a term's count from a finaliser, on this thread, whenever the garbage
 * collector gets to it, also while a check of the same context runs on a Z3 thread: applied at once,
 * the decrement frees terms and edits the context's term table under the running check. Z3 provides
 * this mode for garbage-collected bindings.
 */
function newContext(module: Z3): Context<'sg'> {
  const ctx = new module.Context('sg');
  module.Z3.enable_concurrent_dec_ref(ctx.ptr);
  return ctx;
}

/** How long a check the run stopped waiting for may go on before it is interrupted. */
const GRACE_MS = 500;
/** How long an interrupted check may take to answer before its module is given up. */
const INTERRUPT_WAIT_MS = 10_000;

/** What a run leaves of its Z3 use: its solver (if it made one) and how the run ended. */
export interface RunEnd {
  solver: { release(): void; interrupt(): void } | null;
  /** The check the run stopped waiting for, if a budget stopped it mid-check. */
  abandoned: Promise<unknown> | null;
  /** The run ended by an error: the module may be left in any state. */
  failed: boolean;
}

/**
 * End a run's use of Z3: its solver is released and its context goes back to the pool. After a run
 * that failed, the module is given up and the next run loads a fresh one: in the article study, from
 * one failed run on, the SG runs of that worker kept failing at once on a pooled context, with a sort
 * mismatch in terms built right after the context was leased (Z3's memory is corrupted now and then;
 * see the README). A check the run stopped waiting for (`abandoned`) is left to answer: it normally
 * does within milliseconds, and its context then goes back to the pool. One still running GRACE_MS
 * later is interrupted, and its context retired once it has answered: an
 * interrupt that lands after its check has ended stays pending in the context and cuts a later call
 * short, so that a reused context answered `sat` with a model that breaks the constraints
 * (test/z3-interrupt.test.ts). A check still running INTERRUPT_WAIT_MS after its interrupt ignored it
 * and would keep the process alive: the module's threads are ended and the module is dropped (its
 * memory may now hold a lock), so the next run loads a fresh one.
 */
export function releaseZ3(lease: Promise<Lease>, end: RunEnd): void {
  const { solver, abandoned, failed } = end;
  lease.then(
    ({ pool, ctx }) => {
      // Nothing more is asked of a module that was given up.
      const done = (reuse: boolean) => {
        if (current !== pool) return;
        solver?.release();
        (reuse ? pool.idle : pool.retired).push(ctx);
      };
      if (failed) {
        if (current === pool) current = null;
        return;
      }
      if (!abandoned) {
        done(true);
        return;
      }
      let answered = false;
      let interrupted = false;
      let giveUp: NodeJS.Timeout | undefined;
      const grace = setTimeout(() => {
        if (answered) return;
        interrupted = true;
        solver?.interrupt();
        giveUp = setTimeout(() => {
          if (answered) return;
          if (current === pool) current = null;
          pool.module.then((module) => killThreads(module.em)).catch(() => undefined);
        }, INTERRUPT_WAIT_MS);
        giveUp.unref();
      }, GRACE_MS);
      grace.unref();
      abandoned
        .catch(() => undefined)
        .then(() => {
          answered = true;
          clearTimeout(grace);
          clearTimeout(giveUp);
          done(!interrupted);
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
        if (this.ctx.isIntVal(value)) {
          row[j] = clampToDomain(a, this.lo[j]! + Number(value.value()) * this.step[j]!);
        } else if (this.ctx.isRealVal(value)) {
          row[j] = clampToDomain(a, value.asNumber());
        } else {
          // Seen once in a study run (a TypeError then): name what Z3 gave instead of a number.
          throw new Error(`Z3's model gave attribute "${a.name}" the value ${value.sexpr()}, not a number`);
        }
      }
      return true;
    } finally {
      solver.pop();
    }
  }
}
