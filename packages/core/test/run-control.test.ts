import { describe, expect, it } from 'vitest';
import { type Budget, OptionsError, type Progress, RunController } from '../src/index.js';
import { expectError } from './helpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('budget validation', () => {
  it.each<[string, unknown, string, string]>([
    ['an unknown field', { maxTime: 5 }, 'OPTIONS_UNKNOWN', '/budget/maxTime'],
    ['zero seconds', { maxSeconds: 0 }, 'OPTIONS_INVALID', '/budget/maxSeconds'],
    ['negative seconds', { maxSeconds: -1 }, 'OPTIONS_INVALID', '/budget/maxSeconds'],
    ['NaN seconds', { maxSeconds: Number.NaN }, 'OPTIONS_INVALID', '/budget/maxSeconds'],
    ['infinite seconds', { maxSeconds: Number.POSITIVE_INFINITY }, 'OPTIONS_INVALID', '/budget/maxSeconds'],
    ['zero tested', { maxTested: 0 }, 'OPTIONS_INVALID', '/budget/maxTested'],
    ['fractional tested', { maxTested: 1.5 }, 'OPTIONS_INVALID', '/budget/maxTested'],
    ['negative queries', { maxQueries: -10 }, 'OPTIONS_INVALID', '/budget/maxQueries'],
    ['queries as a string', { maxQueries: '10' }, 'OPTIONS_INVALID', '/budget/maxQueries'],
  ])('rejects %s', (_, budget, code, option) => {
    const e = expectError(() => new RunController({ budget: budget as Budget }), OptionsError, code, {
      option,
    });
    expect(e.message).toContain(option.split('/').pop()!);
  });

  it('rejects a budget that is not an object', () => {
    expectError(
      () => new RunController({ budget: null as unknown as Budget }),
      OptionsError,
      'OPTIONS_INVALID',
    );
    expectError(() => new RunController({ budget: 5 as unknown as Budget }), OptionsError, 'OPTIONS_INVALID');
  });

  it('accepts positive limits, fractional seconds and omitted fields, and copies the budget', () => {
    const budget = { maxSeconds: 0.25, maxTested: 10, maxQueries: undefined };
    const ctl = new RunController({ budget });
    expect(ctl.budget).toEqual(budget);
    expect(ctl.budget).not.toBe(budget);
    expect(new RunController().budget).toEqual({});
    expect(new RunController().seed).toBe(0);
  });
});

describe('shouldStop', () => {
  it('runs on while no limit is reached', () => {
    const ctl = new RunController({ budget: { maxTested: 5, maxQueries: 10, maxSeconds: 3600 } });
    ctl.tested = 4;
    ctl.queries = () => 9;
    expect(ctl.shouldStop()).toBeNull();
    expect(ctl.remainingTested()).toBe(1);
    expect(ctl.finalReason()).toBe('completed');
  });

  it('stops on the time budget', async () => {
    const ctl = new RunController({ budget: { maxSeconds: 0.001 } });
    await sleep(15);
    expect(ctl.remainingSeconds()).toBe(0);
    expect(ctl.shouldStop()).toBe('time-budget');
    expect(ctl.finalReason()).toBe('time-budget');
  });

  it('stops on the tested budget', () => {
    const ctl = new RunController({ budget: { maxTested: 5 } });
    ctl.tested = 5;
    expect(ctl.remainingTested()).toBe(0);
    expect(ctl.shouldStop()).toBe('tested-budget');
  });

  it('stops on the query budget', () => {
    const ctl = new RunController({ budget: { maxQueries: 10 } });
    let q = 3;
    ctl.queries = () => q;
    expect(ctl.shouldStop()).toBeNull();
    q = 10;
    expect(ctl.shouldStop()).toBe('query-budget');
  });

  it('stops on abort', () => {
    const ac = new AbortController();
    const ctl = new RunController({ signal: ac.signal });
    expect(ctl.shouldStop()).toBeNull();
    ac.abort();
    expect(ctl.shouldStop()).toBe('aborted');
    expect(ctl.finalReason()).toBe('aborted');
  });

  it('finalReason reports an abort even if shouldStop was never called', () => {
    const ac = new AbortController();
    const ctl = new RunController({ signal: ac.signal });
    ac.abort();
    expect(ctl.finalReason()).toBe('aborted');
  });

  it('is sticky: the first reason stays even when the counters go back or another limit is hit', () => {
    const ac = new AbortController();
    const ctl = new RunController({ budget: { maxTested: 2, maxQueries: 5 }, signal: ac.signal });
    ctl.tested = 2;
    expect(ctl.shouldStop()).toBe('tested-budget');
    ctl.tested = 0;
    ctl.queries = () => 100;
    ac.abort();
    expect(ctl.shouldStop()).toBe('tested-budget');
    expect(ctl.finalReason()).toBe('tested-budget');
  });

  it('without a budget, remaining is unlimited', () => {
    const ctl = new RunController();
    expect(ctl.remainingTested()).toBe(Number.POSITIVE_INFINITY);
    expect(ctl.remainingSeconds()).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('checkpoint and progress', () => {
  it('yields to the event loop so that a timer-driven abort ends a busy loop', async () => {
    const ac = new AbortController();
    const ctl = new RunController({ signal: ac.signal });
    setTimeout(() => ac.abort(), 30);
    const rng = ctl.rng.fork('work');
    let reason = null;
    let iterations = 0;
    // The elapsed-time guard only keeps a broken checkpoint from hanging the test run.
    while (reason === null && ctl.elapsedSeconds() < 20) {
      for (let i = 0; i < 200; i++) rng.next();
      iterations++;
      reason = await ctl.checkpoint({ phase: 'busy' });
    }
    expect(reason).toBe('aborted');
    expect(iterations).toBeGreaterThan(1);
  });

  it('reports progress with the live counters, throttled by progressIntervalMs', async () => {
    const seen: Progress[] = [];
    const ctl = new RunController({ onProgress: (p) => seen.push(p), progressIntervalMs: 0 });
    ctl.tested = 7;
    ctl.discriminatory = 2;
    await ctl.checkpoint({ phase: 'global', done: 1, total: 4 });
    await ctl.checkpoint({ phase: 'global', done: 2, total: 4 });
    await ctl.checkpoint();
    expect(seen.map((p) => [p.phase, p.done, p.total, p.tested, p.discriminatory])).toEqual([
      ['global', 1, 4, 7, 2],
      ['global', 2, 4, 7, 2],
    ]);
    expect(seen.every((p) => p.elapsedSeconds >= 0)).toBe(true);

    const once: Progress[] = [];
    const slow = new RunController({ onProgress: (p) => once.push(p), progressIntervalMs: 1e9 });
    for (let i = 0; i < 5; i++) await slow.checkpoint({ phase: 'local', done: i });
    slow.report({ phase: 'end' });
    expect(once.map((p) => p.phase)).toEqual(['local', 'end']);
  });

  it('gives each seed its own reproducible stream', () => {
    const a = new RunController({ seed: 3 }).rng.fork('x').nextU32();
    expect(new RunController({ seed: 3 }).rng.fork('x').nextU32()).toBe(a);
    expect(new RunController({ seed: 4 }).rng.fork('x').nextU32()).not.toBe(a);
    expect(new RunController({ seed: 'abc' }).seed).toBe('abc');
  });
});
