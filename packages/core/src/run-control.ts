import { OptionsError } from './errors.js';
import { Rng } from './rng.js';

/** Limits on one detector run; any may be omitted. */
export interface Budget {
  /** Wall-clock seconds. */
  maxSeconds?: number;
  /** Tested samples (TSN) for individual methods. */
  maxTested?: number;
  /** Distinct model queries. */
  maxQueries?: number;
  /**
   * Discriminatory pairs kept in the result (default `DEFAULT_MAX_PAIRS`). Not a stopping rule: the
   * search goes on and `metrics.pairs` counts every pair; `findings.pairs` holds the first ones found.
   */
  maxPairs?: number;
}

/** Pairs an individual result keeps unless `budget.maxPairs` says otherwise (about 80 MB of JSON). */
export const DEFAULT_MAX_PAIRS = 100_000;

const BUDGET_FIELDS = new Set(['maxSeconds', 'maxTested', 'maxQueries', 'maxPairs']);

export type StopReason = 'completed' | 'time-budget' | 'tested-budget' | 'query-budget' | 'aborted';

export interface Progress {
  /** Which phase of the method is running, e.g. `global`, `local`, `restart`. */
  phase: string;
  /** Work done and planned in this phase, when the method knows it. */
  done?: number;
  total?: number;
  tested: number;
  discriminatory: number;
  elapsedSeconds: number;
}

/** What a caller passes to `detector.run`. */
export interface RunContextInit {
  /** Seed of the run's random stream (default 0). */
  seed?: number | string;
  budget?: Budget;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** Minimum milliseconds between two progress callbacks (default 250). */
  progressIntervalMs?: number;
}

function checkBudget(b: Budget | undefined): Budget {
  if (b === undefined) return {};
  if (b === null || typeof b !== 'object')
    throw new OptionsError('OPTIONS_INVALID', 'budget must be an object');
  for (const key of Object.keys(b)) {
    if (!BUDGET_FIELDS.has(key)) {
      throw new OptionsError('OPTIONS_UNKNOWN', `unknown budget field "${key}"`, {
        option: `/budget/${key}`,
      });
    }
    const v = (b as Record<string, unknown>)[key];
    if (v === undefined) continue;
    // Infinity is refused too: the result contract (JSON) cannot hold it; omit the field for no limit.
    if (
      typeof v !== 'number' ||
      !(v > 0) ||
      !Number.isFinite(v) ||
      (key !== 'maxSeconds' && !Number.isInteger(v))
    ) {
      throw new OptionsError(
        'OPTIONS_INVALID',
        `budget.${key} must be a positive ${key === 'maxSeconds' ? 'number' : 'integer'}, got ${String(v)}`,
        {
          option: `/budget/${key}`,
        },
      );
    }
  }
  return { ...b };
}

/**
 * The live state of one run: the random stream, the clock, the budget and the abort signal.
 * Methods call `shouldStop()` (cheap, synchronous) in inner loops and `await checkpoint()` between
 * batches, which also yields to the event loop so that an abort or a timer can fire.
 */
export class RunController {
  readonly rng: Rng;
  readonly seed: number | string;
  readonly budget: Budget;
  /** Most discriminatory pairs a result keeps. */
  readonly maxPairs: number;
  readonly signal: AbortSignal | undefined;
  private readonly onProgress: ((p: Progress) => void) | undefined;
  private readonly progressIntervalMs: number;
  private readonly started = performance.now();
  private readonly deadline: number;
  private lastYield = performance.now();
  private lastProgress = Number.NEGATIVE_INFINITY;
  private stopped: StopReason | null = null;
  /** Counters the budget is checked against; kept up to date by the counterfactual checker. */
  tested = 0;
  discriminatory = 0;
  queries: () => number = () => 0;
  /**
   * Seconds that building and validating the result will take once the search stops; the time budget
   * stops the search that much early so that the whole run fits in it. Kept up to date by the checker.
   */
  resultSeconds: () => number = () => 0;
  readonly startedAt = new Date();

  constructor(init: RunContextInit = {}) {
    const seed = init.seed ?? 0;
    this.rng = Rng.create(seed);
    this.seed = seed;
    this.budget = checkBudget(init.budget);
    this.maxPairs = this.budget.maxPairs ?? DEFAULT_MAX_PAIRS;
    this.signal = init.signal;
    this.onProgress = init.onProgress;
    this.progressIntervalMs = init.progressIntervalMs ?? 250;
    this.deadline =
      this.budget.maxSeconds !== undefined ? this.started + this.budget.maxSeconds * 1000 : Infinity;
  }

  elapsedSeconds(): number {
    return (performance.now() - this.started) / 1000;
  }

  /** Why the run must stop now, or null. Sticky: once stopped, always stopped. */
  shouldStop(): StopReason | null {
    if (this.stopped) return this.stopped;
    if (this.signal?.aborted) this.stopped = 'aborted';
    else if (performance.now() + this.resultSeconds() * 1000 >= this.deadline) this.stopped = 'time-budget';
    else if (this.budget.maxTested !== undefined && this.tested >= this.budget.maxTested)
      this.stopped = 'tested-budget';
    else if (this.budget.maxQueries !== undefined && this.queries() >= this.budget.maxQueries) {
      this.stopped = 'query-budget';
    }
    return this.stopped;
  }

  /**
   * Record that a budget refused further work although its counter has not reached the limit (e.g.
   * fewer queries remain than one more input needs). Has no effect once stopped.
   */
  stopFor(reason: Exclude<StopReason, 'completed'>): void {
    this.stopped ??= reason;
  }

  /** How many more samples may be tested under the budget (Infinity without a TSN budget). */
  remainingTested(): number {
    return this.budget.maxTested === undefined ? Infinity : Math.max(0, this.budget.maxTested - this.tested);
  }

  /** Seconds left before the time budget (Infinity without one). */
  remainingSeconds(): number {
    return Math.max(0, (this.deadline - performance.now()) / 1000 - this.resultSeconds());
  }

  /**
   * Report progress (throttled) and, every ~20 ms, yield to the event loop so that an abort signal or
   * timer can fire. Returns the stop reason, or null to go on.
   */
  async checkpoint(
    progress?: Omit<Progress, 'tested' | 'discriminatory' | 'elapsedSeconds'>,
  ): Promise<StopReason | null> {
    const now = performance.now();
    if (progress && this.onProgress && now - this.lastProgress >= this.progressIntervalMs) {
      this.lastProgress = now;
      this.report(progress);
    }
    if (now - this.lastYield >= 20) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.lastYield = performance.now();
    }
    return this.shouldStop();
  }

  /** Report progress now, unthrottled (e.g. at the end of a phase). */
  report(progress: Omit<Progress, 'tested' | 'discriminatory' | 'elapsedSeconds'>): void {
    this.onProgress?.({
      ...progress,
      tested: this.tested,
      discriminatory: this.discriminatory,
      elapsedSeconds: this.elapsedSeconds(),
    });
  }

  /** The final stop reason: the budget or abort that stopped the run, or `completed`. */
  finalReason(): StopReason {
    return this.stopped ?? (this.signal?.aborted ? 'aborted' : 'completed');
  }
}
