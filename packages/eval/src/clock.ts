import {
  type Classifier,
  type DifferentiableClassifier,
  GrowableArray,
  isDifferentiable,
  RowIndex,
  type RowIndexSharing,
} from '@fb/core';

/** When a finding became known: seconds since the clock started and distinct model queries so far. */
export interface Stamp {
  seconds: number;
  queries: number;
}

/**
 * Wraps the model under audit and stamps the first query of every distinct row with the elapsed time
 * and the number of distinct rows queried so far. A discriminatory pair is known once both its rows
 * have been asked, so its stamp is the later of the two: exact for every method, with no hook inside
 * the method. The detector's own counting wrapper sits outside this one and forwards only unseen rows;
 * it lends the clock its row index (`RowIndexSharing`), so that a row is hashed once, not twice.
 */
export class QueryClock {
  readonly model: Classifier;
  private readonly index: RowIndex;
  /** The counting wrapper's index, once lent: its ids [0, stamped) have their stamps. */
  private shared: RowIndex | null = null;
  private stamped = 0;
  /**
   * Stamps by batch, not by row: the rows with ids from runStart[k] (up to the next run's start) were
   * first queried at runSeconds[k]. A stamp per row would cost 8 bytes of fresh memory per distinct row.
   */
  private readonly runStart = new GrowableArray((n) => new Int32Array(n), 64);
  private readonly runSeconds = new GrowableArray((n) => new Float64Array(n), 64);
  private runs = 0;
  private started = performance.now();
  private readonly width: number;
  private readonly canShare: boolean;
  private ids = new Int32Array(0);

  /**
   * `shareIndex` (default true): accept the row index a `CountingClassifier` built on `model` offers.
   * The clock then sees only what that counter forwards, so the model must be queried through it;
   * pass false for a clock whose model is also queried directly.
   */
  constructor(inner: Classifier, options: { shareIndex?: boolean } = {}) {
    this.width = inner.nFeatures;
    this.canShare = options.shareIndex ?? true;
    this.index = new RowIndex(inner.nFeatures);
    const record = (x: Float64Array): void => this.record(x);
    const base: Classifier & RowIndexSharing = {
      adoptRowIndex: (index) => this.adopt(index),
      nFeatures: inner.nFeatures,
      nClasses: inner.nClasses,
      ...(inner.description !== undefined ? { description: inner.description } : {}),
      predict: (x) => {
        record(x);
        return inner.predict(x);
      },
      ...(inner.predictProba
        ? {
            predictProba: (x: Float64Array) => {
              record(x);
              return inner.predictProba!(x);
            },
          }
        : {}),
    };
    this.model = isDifferentiable(inner)
      ? ({
          ...base,
          scoreGradient: (x: Float64Array) => {
            if (!this.shared) record(x);
            return (inner as DifferentiableClassifier).scoreGradient(x);
          },
        } as DifferentiableClassifier)
      : base;
  }

  /** Restart the clock (call just before the detector runs). */
  start(): void {
    this.started = performance.now();
  }

  /** Distinct rows queried so far. */
  get queries(): number {
    return this.shared ? this.stamped : this.index.size;
  }

  /**
   * Use the counting wrapper's index; only before the first query, and only one. Gradient calls,
   * which white-box methods make on the wrapped model past the counter, are then not stamped: as in
   * the counting contract, they are not queries.
   */
  private adopt(index: RowIndex): boolean {
    if (!this.canShare || this.shared || this.index.size > 0) return false;
    if (index.width !== this.width || index.size > 0) return false;
    this.shared = index;
    return true;
  }

  private record(x: Float64Array): void {
    const now = (performance.now() - this.started) / 1000;
    if (this.shared) {
      // The counter added this batch's new rows to its index just before forwarding them.
      const size = this.shared.size;
      if (size > this.stamped) this.addRun(this.stamped, now);
      this.stamped = size;
      return;
    }
    const n = x.length / this.width;
    if (this.ids.length < n) this.ids = new Int32Array(n);
    const before = this.index.size;
    if (this.index.getOrAddAll(x, n, this.ids) > 0) this.addRun(before, now);
  }

  /** Rows from id `first` on were first queried at `seconds`. */
  private addRun(first: number, seconds: number): void {
    this.runStart.ensure(this.runs + 1)[this.runs] = first;
    this.runSeconds.ensure(this.runs + 1)[this.runs] = seconds;
    this.runs++;
  }

  /** Seconds at which the row with this id was first queried: its run's, by binary search. */
  private secondsOf(id: number): number {
    const start = this.runStart.array;
    let lo = 0;
    let hi = this.runs - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (start[mid]! <= id) lo = mid;
      else hi = mid - 1;
    }
    return this.runSeconds.array[lo]!;
  }

  /** Stamp of one row (null if never queried). */
  stampOf(row: ArrayLike<number>): Stamp | null {
    const id = (this.shared ?? this.index).find(row);
    return id < 0 || (this.shared && id >= this.stamped)
      ? null
      : { seconds: this.secondsOf(id), queries: id + 1 };
  }

  /** Stamp of a pair: the later of its two rows' stamps (null if either was never queried). */
  stampOfPair(a: ArrayLike<number>, b: ArrayLike<number>): Stamp | null {
    const sa = this.stampOf(a);
    const sb = this.stampOf(b);
    if (!sa || !sb) return null;
    return sa.queries >= sb.queries ? sa : sb;
  }
}
