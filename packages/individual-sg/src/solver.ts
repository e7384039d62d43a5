import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { bounds, cardinality, clampToDomain, type Schema } from '@fb/core';
import type { Predicate } from './constraints.js';
import type { BoundSpec, Ready, Reply, Request, VariableSpec } from './z3-protocol.js';

type Message = Ready | Reply;
/** Each kind of request without its id, which `Z3Thread.request` adds. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Outgoing = WithoutId<Request>;

/**
 * A thread running Z3 (`z3-thread.ts`), with the requests it has not answered yet. Z3 runs apart from
 * the run's own thread so that nothing it does can hold that thread: loading it (0.3–0.6 s) does not
 * block the event loop, a check the run stopped waiting for cannot delay the next run, and a module
 * whose memory went wrong (see the README) is ended with its thread.
 */
export class Z3Thread {
  /** Resolves once Z3 is loaded; rejects if the thread ends first. */
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve(r: Reply): void; reject(e: Error): void }>();
  private nextId = 0;
  private endedBy: Error | null = null;
  private signalReady!: () => void;
  private failReady!: (e: Error) => void;

  constructor(script: URL, workerData?: unknown) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.signalReady = resolve;
      this.failReady = reject;
    });
    // A load that fails rejects `ready`; the run awaiting it reports the error.
    this.ready.catch(() => undefined);
    // No flags of the process: `--input-type`, for one, fails a thread started from a file.
    this.worker = new Worker(script, { workerData, execArgv: [] });
    this.worker.on('message', (m: Message) => {
      if ('type' in m) {
        this.signalReady();
        return;
      }
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      waiting?.resolve(m);
    });
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', (code) => this.fail(new Error(`the Z3 thread exited (code ${code})`)));
  }

  get alive(): boolean {
    return this.endedBy === null;
  }

  request(request: Outgoing): Promise<Reply> {
    if (this.endedBy) return Promise.reject(this.endedBy);
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  /** Keeps the process alive while a run uses the thread. */
  lease(): void {
    this.worker.ref();
  }

  /** An idle thread does not keep the process alive. */
  idle(): void {
    this.worker.unref();
  }

  /** End the thread, whatever it is doing; its unanswered requests fail. */
  end(reason: string): void {
    this.fail(new Error(reason));
    void this.worker.terminate();
  }

  private fail(e: Error): void {
    if (this.endedBy) return;
    this.endedBy = e;
    this.failReady(e);
    for (const waiting of this.pending.values()) waiting.reject(e);
    this.pending.clear();
  }
}

/** The built thread script, beside this module; from the sources (the package's tests), the build's. */
function builtScript(): URL {
  const beside = new URL('./z3-thread.js', import.meta.url);
  return existsSync(fileURLToPath(beside)) ? beside : new URL('../dist/z3-thread.js', import.meta.url);
}

/** Where threads come from: the built script, or what a test configured (counted, see `releaseZ3`). */
let source: { script: URL; workerData?: unknown } | null = null;
let sourceChanges = 0;
/** Threads of finished runs, kept for the next run (loading Z3 takes 0.3–0.6 s). */
let idleThreads: Z3Thread[] = [];
/**
 * Threads of runs that ended before their thread could be kept: still loading Z3, or still answering a
 * check the run stopped waiting for. Each settles when its thread is kept or ended.
 */
const draining = new Set<Promise<void>>();

/**
 * Threads from another script from now on, and no idle thread kept (for tests: a stand-in thread that
 * answers late, never, or with errors). `null` goes back to the built script.
 */
export function useZ3ThreadScript(script: URL | null, workerData?: unknown): void {
  for (const t of idleThreads) t.end('replaced');
  draining.clear();
  idleThreads = [];
  sourceChanges++;
  source = script ? { script, workerData } : null;
}

/** A run's Z3 thread: a finished run's, else a new one; give it back with `releaseZ3`. */
export interface Lease {
  readonly thread: Z3Thread;
}

/**
 * A Z3 thread for one run, once Z3 is loaded in it. With no idle thread, a thread an ended run leaves
 * (still loading, or answering a check for at most the grace period) is waited for before a new one
 * loads Z3: a run stopped during the load would otherwise have the next run load Z3 again, and the
 * next. A thread whose load failed is not kept.
 */
export async function acquireZ3(): Promise<Lease> {
  let thread: Z3Thread | undefined;
  for (;;) {
    thread = idleThreads.pop();
    while (thread && !thread.alive) thread = idleThreads.pop();
    if (thread || draining.size === 0) break;
    await Promise.race(draining);
  }
  thread ??= source ? new Z3Thread(source.script, source.workerData) : new Z3Thread(builtScript());
  thread.lease();
  await thread.ready;
  return { thread };
}

/** How long a check the run stopped waiting for may go on before its thread is ended. */
const GRACE_MS = 500;

/** What a run leaves of its Z3 use: its solver (if it made one) and how the run ended. */
export interface RunEnd {
  solver: { close(): void } | null;
  /** The check the run stopped waiting for, if a budget stopped it mid-check. */
  abandoned: Promise<unknown> | null;
  /** The run ended by an error: its thread may be left in any state. */
  failed: boolean;
}

/**
 * End a run's use of Z3. Its solver is closed and its thread kept for the next run, unless:
 * - the run failed: its thread is ended, so a module gone wrong cannot fail the runs after it (in the
 *   article study, from one failed SG run on, the runs that reused its Z3 module kept failing at once);
 * - a budget stopped the run during a check (`abandoned`): the check is left to answer, which it
 *   normally does within milliseconds, and the thread is then kept; one still running GRACE_MS later
 *   is ended with its thread. Ending a thread ends Z3 in it, whatever state Z3 is in, so nothing of a
 *   check that never answers (a module whose memory went wrong) outlives the run by more than that.
 */
export function releaseZ3(lease: Promise<Lease>, end: RunEnd): void {
  const { solver, abandoned, failed } = end;
  const from = sourceChanges;
  const settled: Promise<void> = lease
    .then(
      ({ thread }) => {
        const keep = () => {
          if (!thread.alive) return;
          // A thread from a script since replaced is not kept.
          if (from !== sourceChanges) {
            thread.end('replaced');
            return;
          }
          solver?.close();
          thread.idle();
          idleThreads.push(thread);
        };
        if (failed) {
          thread.end('its run failed');
          return;
        }
        if (!abandoned) {
          keep();
          return;
        }
        const grace = setTimeout(() => thread.end('a check did not answer in time'), GRACE_MS);
        grace.unref();
        return abandoned
          .catch(() => undefined)
          .then(() => {
            clearTimeout(grace);
            keep();
          });
      },
      () => undefined,
    )
    .finally(() => draining.delete(settled));
  draining.add(settled);
}

let solverIds = 0;

/**
 * Path constraints over the schema's attributes, solved incrementally with Z3 on the run's thread: one
 * variable per attribute with its domain bounds asserted once (an Int grid index for a discrete
 * attribute, a Real for a continuous one); each constraint set is solved between push and pop.
 */
export class PathSolver {
  /** Z3 checks made. */
  checks = 0;
  /** Solves answered from `answers` without a check. */
  repeats = 0;
  /**
   * Each constraint set solved so far (keyed by its bounds, as sent to Z3), with Z3's values or null if
   * unsatisfiable. A local search asks the same one-attribute sets again and again (in the article study's
   * MLP cells about four solves in five are repeats). A repeat is answered with the values Z3 gave the
   * first time: the reference builds a new solver per set and so always gets the same answer to the same
   * set, where this incremental solver's answer could depend on the checks before it.
   */
  private readonly answers = new Map<string, number[] | null>();
  private readonly id = ++solverIds;
  private readonly thread: Z3Thread;
  private readonly schema: Schema;
  private readonly lo: Float64Array;
  private readonly step: Float64Array;
  private readonly opened: Promise<Reply>;

  constructor(lease: Lease, schema: Schema) {
    const attrs = schema.attributes;
    this.thread = lease.thread;
    this.schema = schema;
    this.lo = new Float64Array(attrs.length);
    this.step = new Float64Array(attrs.length);
    const variables = attrs.map((a, j): VariableSpec => {
      const [lo, hi] = bounds(a);
      this.lo[j] = lo;
      const k = cardinality(a);
      if (!Number.isFinite(k)) return { grid: false, lo, hi };
      this.step[j] = a.categories ? 1 : a.step!;
      return { grid: true, count: k };
    });
    this.opened = this.thread.request({ type: 'open', solver: this.id, variables });
    // A failed open fails the run's first solve.
    this.opened.catch(() => undefined);
  }

  private bound(p: Predicate): BoundSpec {
    const j = p.feature;
    if (this.step[j] === 0) return { variable: j, le: p.le, bound: p.threshold };
    // On the grid lo + k step: x <= t  <=>  k <= floor((t - lo) / step).
    return { variable: j, le: p.le, bound: Math.floor((p.threshold - this.lo[j]!) / this.step[j]! + 1e-9) };
  }

  /** Free the solver's memory in Z3 (the thread stays usable). */
  close(): void {
    this.thread.request({ type: 'close', solver: this.id }).catch(() => undefined);
  }

  /** A value for every attribute the constraints mention, written into `row`; false if unsatisfiable. */
  async solve(constraints: readonly Predicate[], row: Float64Array): Promise<boolean> {
    const bounds = constraints.map((p) => this.bound(p));
    const key = bounds.map((b) => `${b.variable}${b.le ? '<=' : '>'}${b.bound}`).join('&');
    let values = this.answers.get(key);
    if (values !== undefined) {
      this.repeats++;
    } else {
      this.answer(await this.opened);
      this.checks++;
      values = this.answer(
        await this.thread.request({ type: 'solve', solver: this.id, constraints: bounds }),
      );
      this.answers.set(key, values);
    }
    if (!values) return false;
    constraints.forEach((p, c) => {
      const j = p.feature;
      const a = this.schema.attributes[j]!;
      const v = values[c]!;
      row[j] = clampToDomain(a, this.step[j] === 0 ? v : this.lo[j]! + v * this.step[j]!);
    });
    return true;
  }

  /** The values of a reply, or its error thrown with the attribute it names. */
  private answer(reply: Reply): number[] | null {
    if (reply.ok) return reply.values ?? null;
    const name = reply.variable !== undefined ? this.schema.attributes[reply.variable]!.name : undefined;
    throw new Error(
      name !== undefined ? `Z3's model gave attribute "${name}" ${reply.message}` : `Z3: ${reply.message}`,
    );
  }
}
