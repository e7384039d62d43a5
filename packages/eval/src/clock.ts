import {
  type Classifier,
  type DifferentiableClassifier,
  GrowableArray,
  isDifferentiable,
  RowIndex,
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
 * the method. The detector's own counting wrapper sits outside this one and forwards only unseen rows.
 */
export class QueryClock {
  readonly model: Classifier;
  private readonly index: RowIndex;
  private readonly seconds = new GrowableArray((n) => new Float64Array(n));
  private started = performance.now();
  private readonly width: number;
  private ids = new Int32Array(0);

  constructor(inner: Classifier) {
    this.width = inner.nFeatures;
    this.index = new RowIndex(inner.nFeatures);
    const record = (x: Float64Array): void => this.record(x);
    const base: Classifier = {
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
            record(x);
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
    return this.index.size;
  }

  private record(x: Float64Array): void {
    const now = (performance.now() - this.started) / 1000;
    const n = x.length / this.width;
    if (this.ids.length < n) this.ids = new Int32Array(n);
    const before = this.index.size;
    const added = this.index.getOrAddAll(x, n, this.ids);
    this.seconds.ensure(before + added).fill(now, before, before + added);
  }

  /** Stamp of one row (null if never queried). */
  stampOf(row: ArrayLike<number>): Stamp | null {
    const id = this.index.find(row);
    return id < 0 ? null : { seconds: this.seconds.array[id]!, queries: id + 1 };
  }

  /** Stamp of a pair: the later of its two rows' stamps (null if either was never queried). */
  stampOfPair(a: ArrayLike<number>, b: ArrayLike<number>): Stamp | null {
    const sa = this.stampOf(a);
    const sb = this.stampOf(b);
    if (!sa || !sb) return null;
    return sa.queries >= sb.queries ? sa : sb;
  }
}
