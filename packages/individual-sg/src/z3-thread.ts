// The Z3 thread of SG's path solver (see `solver.ts`): loads Z3, keeps one context for its life and
// one incremental solver per open run, and answers the runs' requests one at a time, in order.
import { parentPort } from 'node:worker_threads';
import { type Arith, type Context, init, type Solver } from 'z3-solver';
import type { BoundSpec, Ready, Reply, Request, VariableSpec } from './z3-protocol.js';

type Ctx = Context<'sg'>;

interface OpenSolver {
  solver: Solver<'sg'>;
  variables: Arith<'sg'>[];
  grid: boolean[];
}

const port = parentPort!;
let ctx: Ctx;
/** Z3's synchronous check, `Z3_solver_check` of the WebAssembly module (1 = sat, -1 = unsat, 0 = unknown). */
let checkNow: (solver: Solver<'sg'>) => number;
const solvers = new Map<number, OpenSolver>();

function open(variables: VariableSpec[]): OpenSolver {
  const solver = new ctx.Solver();
  const vars = variables.map((v, j) => {
    if (v.grid) {
      const x = ctx.Int.const(`x${j}`);
      solver.add(x.ge(0), x.le(v.count - 1));
      return x;
    }
    const x = ctx.Real.const(`x${j}`);
    solver.add(x.ge(ctx.Real.val(v.lo)), x.le(ctx.Real.val(v.hi)));
    return x;
  });
  return { solver, variables: vars, grid: variables.map((v) => v.grid) };
}

function assertion(s: OpenSolver, c: BoundSpec) {
  const x = s.variables[c.variable]!;
  if (s.grid[c.variable]) return c.le ? x.le(c.bound) : x.ge(c.bound + 1);
  const t = ctx.Real.val(c.bound);
  return c.le ? x.le(t) : x.gt(t);
}

/**
 * The model's value of each constraint's variable, or null if the constraints are unsatisfiable (or Z3
 * cannot tell). The check is Z3's synchronous one: this thread has nothing else to do while it runs,
 * and `solver.check()` runs each check on a new Z3 thread and answers through a timer, which took
 * about 8.7 ms a check against 1.4 ms (a small problem, 200 checks each, on a loaded machine).
 */
function solve(s: OpenSolver, constraints: BoundSpec[]): number[] | null {
  const { solver } = s;
  solver.push();
  try {
    for (const c of constraints) solver.add(assertion(s, c));
    if (checkNow(solver) !== 1) return null;
    const model = solver.model();
    try {
      return constraints.map((c) => {
        const value = model.eval(s.variables[c.variable]!, true);
        if (ctx.isIntVal(value)) return Number(value.value());
        if (ctx.isRealVal(value)) return value.asNumber();
        // Seen in study runs (a TypeError then): name what Z3 gave instead of a number.
        throw Object.assign(new Error(`the value ${value.sexpr()}, not a number`), { variable: c.variable });
      });
    } finally {
      model.release();
    }
  } finally {
    solver.pop();
  }
}

function handle(request: Request): Reply {
  try {
    if (request.type === 'open') {
      solvers.set(request.solver, open(request.variables));
      return { id: request.id, ok: true };
    }
    const s = solvers.get(request.solver);
    if (!s) throw new Error(`no open solver ${request.solver}`);
    if (request.type === 'close') {
      solvers.delete(request.solver);
      s.solver.release();
      return { id: request.id, ok: true };
    }
    return { id: request.id, ok: true, values: solve(s, request.constraints) };
  } catch (e) {
    const variable = (e as { variable?: number }).variable;
    return {
      id: request.id,
      ok: false,
      message: e instanceof Error ? e.message : String(e),
      ...(variable !== undefined ? { variable } : {}),
    };
  }
}

/** Z3 loaded, with the thread's context. A failed load is thrown, which ends the thread with it. */
async function load(): Promise<void> {
  const { Context, Z3, em } = await init();
  ctx = new Context('sg');
  // Reference-count decrements from the garbage collector's finalisers are queued and applied by the
  // context's next call from this thread.
  Z3.enable_concurrent_dec_ref(ctx.ptr);
  checkNow = (solver) => {
    const result: number = em._Z3_solver_check(ctx.ptr, solver.ptr);
    const code = Z3.get_error_code(ctx.ptr); // 0: Z3_OK
    if (code !== 0) throw new Error(Z3.get_error_msg(ctx.ptr, code));
    return result;
  };
}

// Requests wait for the load; then each is answered in full before the next.
let queue: Promise<unknown> = load().then(() => port.postMessage({ type: 'ready' } satisfies Ready));
port.on('message', (request: Request) => {
  queue = queue.then(() => port.postMessage(handle(request)));
});
