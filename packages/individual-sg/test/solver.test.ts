import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Z3 replaced by counters: what is under test is when modules and contexts are made, reused and
// given up, and when solvers are released.
const z3 = vi.hoisted(() => ({
  modules: 0,
  contexts: 0,
  killed: [] as number[],
  failNextInit: false,
  concurrent: [] as number[],
}));
vi.mock('z3-solver', () => ({
  init: async () => {
    if (z3.failNextInit) {
      z3.failNextInit = false;
      throw new Error('cannot load the Z3 module');
    }
    const module = ++z3.modules;
    return {
      em: { module },
      Z3: {
        enable_concurrent_dec_ref: (ptr: number) => {
          z3.concurrent.push(ptr);
        },
      },
      Context: class {
        readonly module = module;
        readonly id = ++z3.contexts;
        readonly ptr = this.id;
      },
    };
  },
  killThreads: async (em: { module: number }) => {
    z3.killed.push(em.module);
  },
}));

const { acquireZ3, releaseZ3 } = await import('../src/solver.js');
type Ctx = { module: number; id: number };
const ctxOf = async (lease: ReturnType<typeof acquireZ3>) => (await lease).ctx as unknown as Ctx;
const solver = () => ({
  released: 0,
  interrupted: 0,
  release() {
    this.released++;
  },
  interrupt() {
    this.interrupted++;
  },
});
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const pending = () => {
  let answer!: (v: string) => void;
  const check = new Promise<string>((resolve) => {
    answer = resolve;
  });
  return { check, answer };
};
const finished = { abandoned: null, failed: false };

describe('Z3 across runs', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('loads the module once and gives a finished run’s context to the next run', async () => {
    const first = acquireZ3();
    const a = await ctxOf(first);
    // A run that overlaps gets a context of its own.
    const second = acquireZ3();
    const b = await ctxOf(second);
    expect(b.id).not.toBe(a.id);
    const s = solver();
    releaseZ3(first, { ...finished, solver: s });
    await flush();
    expect(s.released).toBe(1);
    expect(await ctxOf(acquireZ3())).toBe(a);
    releaseZ3(second, { ...finished, solver: null });
    await flush();
    expect(await ctxOf(acquireZ3())).toBe(b);
    expect(z3.modules).toBe(1);
    expect(z3.contexts).toBe(2);
    // Each new context queues its reference-count decrements (see newContext).
    expect(z3.concurrent).toEqual([a.id, b.id]);
  });

  it('leaves a check the run stopped waiting for to answer, and reuses its context when it does within 500 ms', async () => {
    const lease = acquireZ3();
    const ctx = await ctxOf(lease);
    const { check, answer } = pending();
    const s = solver();
    releaseZ3(lease, { solver: s, abandoned: check, failed: false });
    await flush();
    // Still checking: the next run gets another context, and the solver is not released yet.
    const other = acquireZ3();
    expect((await ctxOf(other)).id).not.toBe(ctx.id);
    await vi.advanceTimersByTimeAsync(499);
    answer('sat');
    await flush();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(s.interrupted).toBe(0);
    expect(s.released).toBe(1);
    expect(await ctxOf(acquireZ3())).toBe(ctx);
    expect(z3.killed).toEqual([]);
  });

  it('interrupts a check still running 500 ms later, and never reuses its context', async () => {
    const lease = acquireZ3();
    const ctx = await ctxOf(lease);
    const { check, answer } = pending();
    const s = solver();
    releaseZ3(lease, { solver: s, abandoned: check, failed: false });
    await vi.advanceTimersByTimeAsync(499);
    expect(s.interrupted).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.interrupted).toBe(1);
    expect(s.released).toBe(0);
    await vi.advanceTimersByTimeAsync(9_000);
    answer('unknown');
    await flush();
    expect(s.released).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(z3.killed).toEqual([]);
    expect(s.interrupted).toBe(1);
    // The interrupted context never comes back; a finished run's context does.
    const other = acquireZ3();
    const second = await ctxOf(other);
    expect(second.id).not.toBe(ctx.id);
    releaseZ3(other, { ...finished, solver: null });
    await flush();
    expect(await ctxOf(acquireZ3())).toBe(second);
    expect((await ctxOf(acquireZ3())).id).not.toBe(ctx.id);
    // A check that failed counts as answered too.
    const failing = acquireZ3();
    const f = solver();
    releaseZ3(failing, { solver: f, abandoned: Promise.reject(new Error('lost')), failed: false });
    await flush();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(f.interrupted).toBe(0);
    expect(f.released).toBe(1);
    expect(z3.killed).toEqual([]);
  });

  it('gives the module up after a run that failed: the next run loads a fresh one', async () => {
    const lease = acquireZ3();
    const before = await ctxOf(lease);
    const s = solver();
    releaseZ3(lease, { solver: s, abandoned: null, failed: true });
    await flush();
    // Nothing more is asked of the given-up module; its threads are idle, and left so.
    expect(s.released).toBe(0);
    expect(z3.killed).toEqual([]);
    const after = await ctxOf(acquireZ3());
    expect(after.module).toBe(before.module + 1);
  });

  it('gives the module up when an interrupted check has not answered 10 s later', async () => {
    const lease = acquireZ3();
    const before = await ctxOf(lease);
    const s = solver();
    releaseZ3(lease, { solver: s, abandoned: new Promise(() => undefined), failed: false });
    await vi.advanceTimersByTimeAsync(500 + 9_999);
    expect(s.interrupted).toBe(1);
    expect(z3.killed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await flush();
    expect(z3.killed).toEqual([before.module]);
    // Nothing more is asked of the given-up module: its solver is not released.
    expect(s.released).toBe(0);
    const after = await ctxOf(acquireZ3());
    expect(after.module).toBe(before.module + 1);
  });

  it('loads the module again on the next run after a load failed', async () => {
    vi.resetModules();
    const fresh = await import('../src/solver.js');
    const modulesBefore = z3.modules;
    z3.failNextInit = true;
    await expect(fresh.acquireZ3()).rejects.toThrow('cannot load the Z3 module');
    const lease = await fresh.acquireZ3();
    expect((lease.ctx as unknown as Ctx).module).toBe(modulesBefore + 1);
    expect(z3.modules).toBe(modulesBefore + 1);
  });
});
